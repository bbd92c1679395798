/**
 * The sync part of the IPC contract (see ../contract.ts): keeping a person's conversations,
 * prompts, settings and prices the same on each of their computers, through storage they own
 * (a folder, WebDAV, S3-compatible storage). The engine is `electron/main/services/sync`.
 *
 * Nothing the page sends names a place on disk: the storage is chosen in main's own dialog
 * (`chooseSyncFolder`) and main keeps it. Secrets (a WebDAV password, an S3 secret key) go to
 * main once, to be kept in the keychain, and never come back; the recovery phrase comes back
 * once, when sync is set up here first, and is kept nowhere.
 */
import { z } from 'zod';
import { event, messageRefFields, route, type EventSpec, type RouteSpec } from '../define';
import { idSchema } from '../schemas';

const address = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'an http or https address');

const secret = z.string().min(1).max(4000);

/**
 * Where sync keeps its data, as the page describes it. The folder is the one chosen in main's
 * dialog; a secret left out keeps the one saved before (editing the other fields).
 */
export const syncTargetInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('folder') }),
  z.strictObject({
    kind: z.literal('webdav'),
    url: address,
    username: z.string().trim().max(500),
    password: secret.optional(),
  }),
  z.strictObject({
    kind: z.literal('s3'),
    endpoint: address,
    region: z.string().trim().min(1).max(100),
    bucket: z
      .string()
      .trim()
      .min(3)
      .max(63)
      .regex(/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/, 'a bucket name'),
    prefix: z
      .string()
      .trim()
      .max(500)
      .refine((p) => !p.split('/').some((part) => part === '..'), 'no ".." in the prefix')
      .optional(),
    accessKeyId: z.string().trim().min(1).max(500),
    secretAccessKey: secret.optional(),
  }),
]);
export type SyncTargetInput = z.infer<typeof syncTargetInputSchema>;

/** The storage as main keeps it: what the page may show (never a secret). */
export const syncTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('folder'), location: z.string() }),
  z.object({ kind: z.literal('webdav'), url: z.string(), username: z.string() }),
  z.object({
    kind: z.literal('s3'),
    endpoint: z.string(),
    region: z.string(),
    bucket: z.string(),
    prefix: z.string(),
    accessKeyId: z.string(),
  }),
]);
export type SyncTarget = z.infer<typeof syncTargetSchema>;

const sentence = z.object({ message: z.string(), ...messageRefFields });

export const syncReportSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  uploaded: z.object({ objects: z.number(), bytes: z.number() }),
  downloaded: z.object({ objects: z.number(), bytes: z.number() }),
  /** Entities changed here by other computers, by kind (conversation, message, prompt, setting…). */
  applied: z.record(z.string(), z.number()),
  /** Entities sent from here, by kind. */
  sent: z.record(z.string(), z.number()),
  /** Objects in the storage refused as damaged or foreign, by name. */
  refused: z.array(z.object({ name: z.string(), reason: z.enum(['foreign', 'damaged']) })),
  problem: sentence.extend({ problem: z.string() }).nullable(),
});
export type SyncReport = z.infer<typeof syncReportSchema>;

export const syncStatusSchema = z.object({
  /**
   * `off`: not set up here. `paused`: set up, not syncing until resumed. The rest are the
   * engine's: `idle` (synced, or changes waiting for the next sync), `syncing`, `offline` (the
   * storage could not be reached; tried again later), `attention` (something the person fixes).
   */
  state: z.enum(['off', 'paused', 'idle', 'syncing', 'offline', 'attention']),
  target: syncTargetSchema.optional(),
  /** Changes made here not in the storage yet. */
  pendingChanges: z.number().int().nonnegative(),
  lastSyncAt: z.string().nullable(),
  problem: sentence.extend({ problem: z.string() }).nullable(),
  retryAt: z.string().nullable(),
  /** A long sync's progress (the first on a computer that joins). */
  progress: z
    .object({
      phase: z.enum(['download', 'apply', 'upload']),
      done: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
    })
    .nullable(),
  /** How many other computers sync through this storage. */
  devices: z.number().int().nonnegative(),
  /** Whether any sync has ended here yet (the first one's progress is shown as such). */
  firstSyncDone: z.boolean(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

const connectionTestSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true) }),
  z.object({
    ok: z.literal(false),
    step: z.enum(['list', 'write', 'read', 'delete', 'setup']),
    problem: z.string(),
    ...sentence.shape,
  }),
]);

/** A recovery phrase as typed: words with any spacing, checked word by word in main. */
const phraseSchema = z.string().trim().min(1).max(1000);

export const SYNC_ROUTES = {
  getSyncStatus: route('sync:status', z.undefined(), syncStatusSchema),
  /**
   * Asks for the folder in main's own dialog; main keeps it for the next set-up or test. The
   * answer shows where it is, to the person.
   */
  chooseSyncFolder: route(
    'sync:choose-folder',
    z.undefined(),
    z.object({ cancelled: z.boolean(), location: z.string().optional() }),
  ),
  /** Lists, writes, reads back and deletes a probe in the storage; saves nothing. */
  testSyncTarget: route(
    'sync:test',
    z.strictObject({ target: syncTargetInputSchema }),
    connectionTestSchema,
  ),
  /**
   * Sets sync up here on an empty storage, with a new recovery phrase: the answer carries the
   * phrase, this once. Refused, with nothing written, when the storage already holds synced data
   * (join it with its phrase instead).
   */
  startNewSync: route(
    'sync:start-new',
    z.strictObject({ target: syncTargetInputSchema }),
    z.object({ phrase: z.string(), status: syncStatusSchema }),
  ),
  /**
   * Joins the synced data in a storage with its recovery phrase. A wrong phrase is said plainly
   * and nothing is written (here or in the storage).
   */
  joinSync: route(
    'sync:join',
    z.strictObject({ target: syncTargetInputSchema, phrase: phraseSchema }),
    syncStatusSchema,
  ),
  /** Syncs now and answers when it has ended (its problem, if any, in the status). */
  syncNow: route('sync:now', z.undefined(), syncStatusSchema),
  setSyncPaused: route('sync:pause', z.strictObject({ paused: z.boolean() }), syncStatusSchema),
  /**
   * Stops syncing here and forgets the storage, its secret and the key (the data here and in the
   * storage stay). Setting up again starts as a new computer.
   */
  turnOffSync: route('sync:turn-off', z.undefined(), syncStatusSchema),
  /** What the last syncs brought and sent, newest first. */
  getSyncHistory: route(
    'sync:history',
    z.strictObject({ limit: z.number().int().min(1).max(100).optional() }).optional(),
    z.array(syncReportSchema),
  ),
  /**
   * The connections another computer synced here that had a key there and have none here, not
   * yet asked about: the page asks for each key once, by name (keys never sync).
   */
  getSyncKeysNeeded: route(
    'sync:keys-needed',
    z.undefined(),
    z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        key: z.boolean(),
        headers: z.array(z.string()),
      }),
    ),
  ),
  /** The key of this connection was asked for (given, or "not now"): not asked again. */
  syncKeyAsked: route('sync:key-asked', z.strictObject({ id: idSchema }), z.null()),
} as const satisfies Record<string, RouteSpec>;

export const SYNC_EVENTS = {
  /** The status changed: a sync started or ended, changes waiting, a problem. Paced. */
  syncStatusChanged: event('sync:status-changed', syncStatusSchema),
} as const satisfies Record<string, EventSpec>;
