/**
 * The backups part of the IPC contract (see ../contract.ts): automatic, verified backups of the
 * app's data into a folder the person chooses, their status, and restore with a preview.
 *
 * A backup is named by an id main gave it (its file name in the backup folder, or a token for a
 * file the person picked in main's own dialog): the page never hands main a path to read.
 */
import { z } from 'zod';
import { shownText } from '../schemas';
import { event, messageRefFields, route, type EventSpec, type RouteSpec } from '../define';

export const BACKUP_SCHEDULES = ['off', 'hourly', 'daily', 'weekly'] as const;
export const backupScheduleSchema = z.enum(BACKUP_SCHEDULES);
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

/** A backup's id: a file name main listed, or a token for a file picked in main's dialog. */
export const backupIdSchema = z
  .string()
  .min(1)
  .max(300)
  .refine((id) => !/[\\/]/.test(id) && id !== '.' && id !== '..', {
    error: 'a backup id is a name main gave, never a path',
  });

/** What a person recognises a backup by. */
export const backupCountsSchema = z.object({
  conversations: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  embeddingRuns: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
});

export const backupEntrySchema = z.object({
  id: backupIdSchema,
  /** The file's name in its folder. */
  name: z.string(),
  /** ISO date the backup was taken. */
  createdAt: z.string(),
  bytes: z.number().int().nonnegative(),
  /** Why it was taken: on schedule, asked for, before a restore, or as the app quit. */
  reason: z.enum(['scheduled', 'manual', 'before-restore', 'quit']),
  /**
   * `verified`: checked after writing, its checksum beside it. `unchecked`: no checksum file
   * (copied without it, or the app stopped before checking). `failed`: failed its check, kept aside.
   */
  state: z.enum(['verified', 'unchecked', 'failed']),
  /** Made by this installation of the app (the only ones the rotation removes). */
  fromThisComputer: z.boolean(),
  computerName: z.string().optional(),
  appVersion: z.string().optional(),
  counts: backupCountsSchema.optional(),
  /** Why the backup cannot be read or used, in a sentence. */
  problem: z.string().optional(),
});

export const backupPreviewSchema = backupEntrySchema.extend({
  /** Where the file is, to show the person. */
  path: z.string(),
  /** The saved connections it holds: names and addresses, whether a key went with each (never the key). */
  connections: z.array(z.object({ name: shownText, baseUrl: z.string(), hadKey: z.boolean() })),
  /** The files besides the database it holds: settings, connections, model preferences. */
  files: z.array(z.string()),
  /** Whether it can be restored here; if not, `problem` says why. */
  restorable: z.boolean(),
  /** The checksum beside the file was checked and matches. */
  checksumMatches: z.boolean(),
});

export const BACKUP_PROBLEM_KINDS = [
  /** No folder chosen yet. */
  'no_folder',
  /** The folder is gone: an unplugged drive, a removed sync folder. */
  'missing',
  'not_writable',
  'full',
  /** The last backup failed its check (kept aside) or could not be written. */
  'failed',
  /** A folder is chosen but no backup has been verified yet. */
  'never',
  /** The last verified backup is older than twice the schedule. */
  'overdue',
] as const;

export const backupStatusSchema = z.object({
  /**
   * Counts up with every status main works out: an answer that arrives after a newer event
   * (a backup that ended meanwhile) is older, and the page keeps the newer one.
   */
  revision: z.number().int().nonnegative(),
  folder: z.string().optional(),
  schedule: backupScheduleSchema,
  /** `ok`: a recent verified backup; `warning`: see `problem`; `off`: no folder chosen. */
  tone: z.enum(['ok', 'warning', 'off']),
  /** Work in progress, for a progress line. */
  running: z
    .object({
      kind: z.enum(['backup', 'restore']),
      stage: z.enum([
        'checking',
        'copying',
        'verifying',
        'rotating',
        'saving-current',
        'restoring',
      ]),
      startedAt: z.string(),
    })
    .optional(),
  lastVerified: z
    .object({ at: z.string(), name: z.string(), bytes: z.number().int().nonnegative() })
    .optional(),
  /** When the next scheduled backup is due (absent when the schedule is off). */
  nextDueAt: z.string().optional(),
  problem: z
    .object({
      kind: z.enum(BACKUP_PROBLEM_KINDS),
      /** In English; with its key and values when main gave them (not for a stored 0.1 one). */
      message: z.string(),
      ...messageRefFields,
    })
    .optional(),
  /** A restore done since the app started: what was restored, and the keys still to give. */
  restored: z
    .object({
      at: z.string(),
      backupCreatedAt: z.string(),
      /** The backup of the data as it was just before, to go back to. */
      safetyBackup: z.string(),
      /** The folder the restored backup came from, offered as the backup folder when none is set. */
      backupFolder: z.string().optional(),
      connectionsNeedingKeys: z.array(
        z.object({ id: z.string(), name: shownText, baseUrl: z.string() }),
      ),
    })
    .optional(),
});

export const BACKUPS_ROUTES = {
  getBackupStatus: route('backups:status', z.undefined(), backupStatusSchema),
  /** Asks for the folder in main's dialog; the status is unchanged if the person cancels. */
  chooseBackupFolder: route('backups:choose-folder', z.undefined(), backupStatusSchema),
  setBackupSchedule: route(
    'backups:set-schedule',
    z.strictObject({ schedule: backupScheduleSchema }),
    backupStatusSchema,
  ),
  /** Takes a backup now and verifies it; rejects with the reason when it could not be made. */
  backUpNow: route('backups:back-up-now', z.undefined(), backupEntrySchema),
  /** The backups in the folder, newest first (other computers' too). */
  listBackups: route(
    'backups:list',
    z.undefined(),
    z.object({ folder: z.string().optional(), backups: z.array(backupEntrySchema) }),
  ),
  /** Checks a backup through and through and says what it holds; changes nothing. */
  previewBackup: route(
    'backups:preview',
    z.strictObject({ id: backupIdSchema }),
    backupPreviewSchema,
  ),
  /** Asks for a backup file anywhere (another computer's, a copy) in main's dialog, and previews it. */
  openBackupFile: route(
    'backups:open-file',
    z.undefined(),
    z.object({ cancelled: z.boolean(), preview: backupPreviewSchema.optional() }),
  ),
  /**
   * Backs up the current data, then replaces it with the backup's, all at once, and reloads the
   * app into it. Refused, with the reason and nothing changed, when the backup cannot be used.
   */
  restoreBackup: route(
    'backups:restore',
    z.strictObject({ id: backupIdSchema }),
    z.object({ safetyBackup: z.string(), connectionsNeedingKeys: z.number().int().nonnegative() }),
  ),
  revealBackup: route('backups:reveal', z.strictObject({ id: backupIdSchema }), z.null()),
  /** Makes the folder the restored backup came from the backup folder (no folder was set). */
  useRestoredBackupFolder: route('backups:use-restored-folder', z.undefined(), backupStatusSchema),
  /** The person has read the restore notice (or given every key). */
  dismissRestoreNotice: route('backups:dismiss-restored', z.undefined(), backupStatusSchema),
} as const satisfies Record<string, RouteSpec>;

export const BACKUPS_EVENTS = {
  /** The status changed: a backup started or ended, the folder went missing or came back. */
  backupStatusChanged: event('backups:status-changed', backupStatusSchema),
} as const satisfies Record<string, EventSpec>;
