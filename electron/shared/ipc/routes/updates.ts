/**
 * The updates part of the IPC contract (see ../contract.ts): where the app's own update stands
 * (checked on start and every few hours, downloaded in the background), and "Restart to update".
 *
 * The update itself is electron-updater's: main checks the feed electron-builder published,
 * downloads the new version and verifies it before it is offered (see the README).
 */
import { z } from 'zod';
import { event, messageRefFields, route, type EventSpec, type RouteSpec } from '../define';
import { worded } from '../../messages/worded';

export const UPDATE_CHANNELS = ['stable', 'beta'] as const;
export type UpdateChannel = (typeof UPDATE_CHANNELS)[number];

export const updateSettingsSchema = z.strictObject({
  /** Stable releases only, or betas too. */
  channel: z.enum(UPDATE_CHANNELS, {
    error: worded('form.updates.channel', 'Choose the stable or the beta channel.'),
  }),
  /** Check on start and every few hours; off, only "Check now" checks. */
  autoCheck: z.boolean({
    error: worded('form.updates.autoCheck', 'Checking by itself is on or off.'),
  }),
});
export type UpdateSettings = z.infer<typeof updateSettingsSchema>;

export const DEFAULT_UPDATE_SETTINGS: UpdateSettings = { channel: 'stable', autoCheck: true };

/** As kept in settings.json: absent (a file of an earlier version) or partial, the defaults. */
export const storedUpdateSettingsSchema = z
  .object({
    channel: updateSettingsSchema.shape.channel.default(DEFAULT_UPDATE_SETTINGS.channel),
    autoCheck: updateSettingsSchema.shape.autoCheck.default(DEFAULT_UPDATE_SETTINGS.autoCheck),
  })
  .prefault({});

/** Why a check or a download failed, for the message and what the person can do. */
export const UPDATE_FAILURES = [
  /** The update server could not be reached (offline, DNS, proxy, refused). */
  'offline',
  /** The downloaded file did not match the checksum the feed gave: deleted, not installed. */
  'checksum',
  /** The new version is not signed by the same publisher as this one: deleted, not installed. */
  'signature',
  /** The feed answered, but not with an update description this version can read. */
  'feed',
  'other',
] as const;

const releaseSchema = z.object({
  version: z.string(),
  /** Plain text (HTML in the feed is turned into text in main). */
  notes: z.string().optional(),
  releaseDate: z.string().optional(),
});

const progressSchema = z.object({
  percent: z.number().min(0).max(100),
  transferred: z.number().nonnegative(),
  total: z.number().nonnegative(),
  bytesPerSecond: z.number().nonnegative(),
});

export const updateStatusSchema = z.discriminatedUnion('state', [
  /** This build does not update itself; `reason` says why and how it is updated. */
  z.object({
    state: z.literal('unsupported'),
    currentVersion: z.string(),
    /** In English; `messageId` and `values` give it in the person's language. */
    reason: z.string(),
    ...messageRefFields,
  }),
  z.object({
    state: z.literal('idle'),
    currentVersion: z.string(),
    lastCheckedAt: z.string().optional(),
  }),
  z.object({ state: z.literal('checking'), currentVersion: z.string() }),
  z.object({ state: z.literal('up-to-date'), currentVersion: z.string(), checkedAt: z.string() }),
  z.object({
    state: z.literal('downloading'),
    currentVersion: z.string(),
    release: releaseSchema,
    progress: progressSchema.optional(),
  }),
  /** Downloaded and verified: "Restart to update" installs it (quitting installs it too). */
  z.object({ state: z.literal('ready'), currentVersion: z.string(), release: releaseSchema }),
  z.object({
    state: z.literal('failed'),
    currentVersion: z.string(),
    failure: z.enum(UPDATE_FAILURES),
    message: z.string(),
    ...messageRefFields,
    /** The release a failed download was for. */
    release: releaseSchema.optional(),
    at: z.string(),
  }),
]);
export type UpdateStatus = z.infer<typeof updateStatusSchema>;

export const UPDATES_ROUTES = {
  getUpdateStatus: route('updates:status', z.undefined(), updateStatusSchema),
  /** Checks now (downloading what it finds); answers once the check itself is done. */
  checkForUpdates: route('updates:check', z.undefined(), updateStatusSchema),
  /** Saves the channel and whether to check by itself; a new channel is checked at once. */
  configureUpdates: route(
    'updates:configure',
    updateSettingsSchema.partial().strict(),
    updateSettingsSchema,
  ),
  /** Quits and installs the downloaded update, then starts the new version. */
  installUpdate: route('updates:install', z.undefined(), z.null()),
} as const satisfies Record<string, RouteSpec>;

export const UPDATES_EVENTS = {
  /** The update's status changed (progress about once a second while downloading). */
  updateStatus: event('updates:status-changed', updateStatusSchema),
} as const satisfies Record<string, EventSpec>;
