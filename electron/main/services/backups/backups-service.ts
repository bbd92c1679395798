/**
 * Backups the person can trust because each one is checked: scheduled copies of the app's data
 * into a folder they choose, verified after writing, rotated, and restorable with a preview.
 *
 * Taking a backup: the folder is checked (there, writable, room), the data files are read, the
 * database is copied with `VACUUM INTO` into a hidden `.partial` file while its rows are counted
 * in the same step, the copy is sealed (manifest and data files added), flushed, reopened
 * read-only and checked (integrity, the row count of every table against the live counts, the
 * data files' hashes), renamed to its name, and only then its checksum file is written: the claim
 * that it was verified. A copy that fails its check is kept aside as `….FAILED.db` with a note
 * saying why, and the status tells the person until a backup succeeds again.
 *
 * Restoring: the backup is checked through (refused with the reason before anything changes),
 * the current data is backed up first, the backup's data is staged beside the live data, and the
 * app's services are closed, the staged files put in place all at once (`restore-files.ts`), and
 * the services opened again on the restored data.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import {
  backupScheduleSchema,
  type BACKUPS_ROUTES,
  type BackupSchedule,
} from '../../../shared/ipc/routes/backups';
import type { Emit } from '../../../shared/ipc/contract';
import { messageRefFields, type ResponseOf } from '../../../shared/ipc/define';
import { AppError } from '../app-error';
import { createPrivateFile, readJsonFile, writeFileAtomic } from '../data-files';
import type { Db } from '../database';
import {
  BACKUP_FORMAT,
  isRefusal,
  refusal,
  CHECKSUM_SUFFIX,
  checksumLine,
  inspectBackup,
  messageOf,
  readManifest,
  sealBackup,
  sha256File,
  sha256Of,
  vacuumInto,
  type BackupManifest,
  type BackupReason,
  type CopyDatabase,
  type DataFile,
  type Inspection,
  type Snapshot,
} from './backup-file';
import {
  backupName,
  checkFolder,
  failedName,
  failedNoteName,
  leftoverPartials,
  listFolder,
  nodeBackupFs,
  partialName,
  problemOfWriteError,
  type BackupFs,
  type FolderEntry,
  type FolderProblem,
} from './backup-folder';
import {
  BACKED_UP_FILES,
  completePendingRestore,
  markRestore,
  stageRestore,
  syncFile,
} from './restore-files';
import { planRotation } from './rotation';
import {
  CHECK_EVERY_MS,
  intervalOf,
  isOverdue,
  nextDueAt,
  systemClock,
  type Clock,
} from './schedule';
import { messageFields, said, type Said } from '../words';

export type BackupStatus = ResponseOf<(typeof BACKUPS_ROUTES)['getBackupStatus']>;
export type BackupEntry = ResponseOf<(typeof BACKUPS_ROUTES)['backUpNow']>;
export type BackupPreview = ResponseOf<(typeof BACKUPS_ROUTES)['previewBackup']>;

export const BACKUPS_CONFIG_FILE = 'backups.json';
/** Where the data is backed up before a restore when the backup folder cannot take it. */
export const LOCAL_SAFETY_FOLDER = 'backups-before-restore';
/** Backups that failed their check are kept aside, the newest few of them. */
export const FAILED_KEPT = 3;
/** The first look after start waits a little, so it never slows the app's start. */
export const FIRST_CHECK_AFTER_MS = 10_000;

const configSchema = z.object({
  version: z.literal(1),
  installationId: z.string().regex(/^[0-9a-f]{6}$/),
  folder: z.string().optional(),
  schedule: backupScheduleSchema.default('daily'),
  lastVerified: z.object({ at: z.string(), name: z.string(), bytes: z.number() }).optional(),
  lastFailure: z
    .object({
      at: z.string(),
      kind: z.enum(['missing', 'not_writable', 'full', 'failed']),
      /** In English: all a failure stored by version 0.1 has, and what it keeps showing. */
      message: z.string(),
      /** The same in the person's language, by key (stored since main's words have keys). */
      ...messageRefFields,
    })
    .optional(),
});
type Config = z.infer<typeof configSchema>;

/** Why a backup could not be made, as the status line tells it. */
export type BackupFailureKind = 'missing' | 'not_writable' | 'full' | 'failed';

/** The status line's kind of each backup failure this service threw (the error says the rest). */
const failureKinds = new WeakMap<AppError, BackupFailureKind>();

/** A backup or restore that could not be done: an `AppError` whose message is for the person. */
function backupFailure(kind: BackupFailureKind, message: string | Said): AppError {
  const error = new AppError('internal', message);
  failureKinds.set(error, kind);
  return error;
}

/** A folder's problem as a message with its key. */
function saidOf(problem: FolderProblem): Said {
  return {
    id: problem.messageId,
    ...(problem.values ? { values: problem.values } : {}),
    english: problem.message,
  };
}

/** The live data a backup copies: the open database and the saved connections. */
export interface LiveData {
  db: Db;
  connections(): Promise<
    Array<{
      id: string;
      name: string;
      baseUrl: string;
      hasKey: boolean;
      isDemo?: boolean | undefined;
    }>
  >;
}

export interface BackupsServiceOptions {
  userDataDir: string;
  appVersion: string;
  /** The newest schema version of each domain this app knows. */
  knownSchema: Record<string, number>;
  /** The services' data as it is now (a restore replaces them). */
  live(): LiveData;
  /** Closes the app's services, runs `swap`, and opens them again on the data then in place. */
  reopen(swap: () => Promise<void>): Promise<void>;
  /** Sends events to the page: `backupStatusChanged` whenever the status changes. */
  emit?: Emit;
  computerName?: string;
  clock?: Clock;
  /** The file system where a test injects a fault (a full drive). */
  fs?: BackupFs;
  /** The copy step; a test may hand in a faulty one to see verification catch it. */
  copy?: CopyDatabase;
}

type Running = NonNullable<BackupStatus['running']>;

interface Restored {
  at: string;
  backupCreatedAt: string;
  safetyBackup: string;
  /** Connections that had a key in the backup; those still without one here are listed. */
  keyed: Set<string>;
  /** The folder the backup came from. */
  from: string;
}

function estimateBytes(db: Db): number {
  const pragma = (name: string) =>
    Number(Object.values(db.one<Record<string, number>>(`PRAGMA ${name}`) ?? {})[0] ?? 0);
  const used = Math.max(0, pragma('page_count') - pragma('freelist_count')) * pragma('page_size');
  // Room for the data files, the manifest and the file system's own rounding.
  return Math.ceil(used * 1.1) + 1_000_000;
}

function when(date: Date): string {
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

export class BackupsService {
  readonly #options: BackupsServiceOptions;
  readonly #clock: Clock;
  readonly #fs: BackupFs;
  readonly #copy: CopyDatabase;
  readonly #configPath: string;
  #config: Promise<Config> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #running: Running | undefined;
  #restored: Restored | undefined;
  #cancelTimer: (() => void) | undefined;
  #ticking: Promise<void> = Promise.resolve();
  #closed = false;
  #lastPublished = '';
  #lastPublishedRevision = 0;
  #revision = 0;
  /** Files the person picked in main's dialog, by the token the page refers to them with. */
  readonly #picked = new Map<string, string>();
  readonly #manifests = new Map<string, { key: string; manifest: BackupManifest | undefined }>();

  constructor(options: BackupsServiceOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#fs = options.fs ?? nodeBackupFs;
    this.#copy = options.copy ?? vacuumInto;
    this.#configPath = join(options.userDataDir, BACKUPS_CONFIG_FILE);
  }

  // The schedule ------------------------------------------------------------------------------

  /** Starts looking every minute whether a backup is due (the first look a little after start). */
  start(): void {
    this.#schedule(FIRST_CHECK_AFTER_MS);
  }

  #schedule(ms: number): void {
    this.#cancelTimer?.();
    if (this.#closed) return;
    this.#cancelTimer = this.#clock.setTimer(ms, () => {
      this.#cancelTimer = undefined;
      this.#ticking = this.#tick();
    });
  }

  async #tick(): Promise<void> {
    try {
      const config = await this.#readConfig();
      const status = await this.status();
      const due = status.nextDueAt === undefined ? undefined : new Date(status.nextDueAt);
      const folderProblem = ['missing', 'not_writable', 'full'].includes(
        status.problem?.kind ?? '',
      );
      if (config.folder && due && due <= this.#clock.now() && !this.#running && !folderProblem) {
        // A failure is kept in the status; the next look tries again when it is due.
        await this.backUpNow('scheduled').catch(() => undefined);
        await this.#publish();
      } else await this.#publish(status);
    } catch {
      // A look that failed (a config file that cannot be read) is tried again next minute.
    } finally {
      this.#schedule(CHECK_EVERY_MS);
    }
  }

  /** Resolves when the scheduler's current look (and any backup it started) has ended. */
  async settled(): Promise<void> {
    await this.#ticking;
    await this.#queue.catch(() => undefined);
  }

  /**
   * Stops the schedule; backs up first if the last verified backup is older than the schedule
   * (the app is quitting, and may not run again for a while).
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#cancelTimer?.();
    await this.#ticking;
    try {
      const config = await this.#readConfig();
      const interval = intervalOf(config.schedule);
      const last = config.lastVerified ? new Date(config.lastVerified.at) : undefined;
      const stale =
        last === undefined || this.#clock.now().getTime() - last.getTime() >= (interval ?? 0);
      if (config.folder && interval !== undefined && stale) await this.backUpNow('quit');
    } catch {
      // Quitting goes on; the status will say so at the next start.
    }
    await this.#queue.catch(() => undefined);
  }

  // Configuration and status ------------------------------------------------------------------

  async #readConfig(): Promise<Config> {
    this.#config ??= readJsonFile(this.#configPath, configSchema, 'backup settings').then((read) =>
      read.status === 'ok'
        ? read.value
        : {
            version: 1 as const,
            installationId: randomBytes(3).toString('hex'),
            schedule: 'daily' as const,
          },
    );
    return this.#config;
  }

  async #saveConfig(change: (config: Config) => Config): Promise<Config> {
    const next = change(await this.#readConfig());
    await writeFileAtomic(this.#configPath, `${JSON.stringify(next, null, 2)}\n`);
    this.#config = Promise.resolve(next);
    return next;
  }

  /** Makes `folder` the backup folder and takes the first backup there at once. */
  async setFolder(folder: string): Promise<BackupStatus> {
    const problem = await checkFolder(folder, 0, this.#fs);
    if (problem) throw backupFailure(problem.kind, saidOf(problem));
    await this.#saveConfig(({ lastVerified: _l, lastFailure: _f, ...config }) => ({
      ...config,
      folder,
    }));
    void this.backUpNow('manual').catch(() => undefined);
    return this.status();
  }

  async setSchedule(schedule: BackupSchedule): Promise<BackupStatus> {
    await this.#saveConfig((config) => ({ ...config, schedule }));
    const status = await this.status();
    await this.#publish(status);
    return status;
  }

  async folder(): Promise<string | undefined> {
    return (await this.#readConfig()).folder;
  }

  async status(): Promise<BackupStatus> {
    const revision = ++this.#revision;
    const config = await this.#readConfig();
    const now = this.#clock.now();
    const restored = await this.#restoredStatus();
    const base = {
      revision,
      schedule: config.schedule,
      ...(this.#running ? { running: this.#running } : {}),
      ...(restored ? { restored } : {}),
    };
    if (!config.folder) {
      return {
        ...base,
        tone: 'off',
        problem: { kind: 'no_folder', ...messageFields(said('backups.status.off')) },
      };
    }
    let folderProblem: FolderProblem | undefined;
    let lastVerified = config.lastVerified;
    try {
      folderProblem = await checkFolder(
        config.folder,
        estimateBytes(this.#options.live().db),
        this.#fs,
      );
    } catch {
      folderProblem = undefined;
    }
    if (folderProblem === undefined) {
      // The folder is the truth: a backup removed by hand is no longer the last one.
      const newest = (await this.#listOwn(config.folder, config.installationId)).find(
        (e) => e.checksum && !e.failed,
      );
      lastVerified = newest
        ? { at: newest.createdAt.toISOString(), name: newest.name, bytes: newest.bytes }
        : undefined;
    }
    const lastAt = lastVerified ? new Date(lastVerified.at) : undefined;
    const failure =
      config.lastFailure && (!lastAt || new Date(config.lastFailure.at) > lastAt)
        ? config.lastFailure
        : undefined;
    const due = nextDueAt(config.schedule, lastAt, failure ? new Date(failure.at) : undefined);
    const interval = intervalOf(config.schedule);
    const problem: BackupStatus['problem'] =
      folderProblem ??
      (failure
        ? {
            kind: failure.kind,
            message: failure.message,
            ...(failure.messageId !== undefined ? { messageId: failure.messageId } : {}),
            ...(failure.values !== undefined ? { values: failure.values } : {}),
          }
        : undefined) ??
      (isOverdue(config.schedule, lastAt, now)
        ? {
            kind: 'overdue',
            ...messageFields(
              said('backups.status.overdue', {
                age: interval === 3_600_000 ? 'hours' : interval === 86_400_000 ? 'days' : 'weeks',
              }),
            ),
          }
        : undefined) ??
      (lastAt === undefined
        ? { kind: 'never', ...messageFields(said('backups.status.never')) }
        : undefined);
    return {
      ...base,
      folder: config.folder,
      tone: problem ? 'warning' : 'ok',
      ...(lastVerified ? { lastVerified } : {}),
      ...(due ? { nextDueAt: due.toISOString() } : {}),
      ...(problem ? { problem } : {}),
    };
  }

  /** Sends the status to the page when it changed. */
  async #publish(known?: BackupStatus): Promise<void> {
    const status = known ?? (await this.status().catch(() => undefined));
    if (!status) return;
    const { revision, ...content } = status;
    const text = JSON.stringify(content);
    // One worked out before the last one sent is older than it: never sent after it.
    if (text === this.#lastPublished || revision < this.#lastPublishedRevision) return;
    this.#lastPublished = text;
    this.#lastPublishedRevision = revision;
    this.#options.emit?.('backupStatusChanged', status);
  }

  /**
   * Says what is being done, and lets the event out before the work goes on: the copy that
   * follows holds main's event loop for its whole length.
   */
  async #stage(kind: Running['kind'], stage: Running['stage']): Promise<void> {
    this.#running = {
      kind,
      stage,
      startedAt:
        this.#running?.kind === kind ? this.#running.startedAt : this.#clock.now().toISOString(),
    };
    await this.#publish();
  }

  async #restoredStatus(): Promise<BackupStatus['restored']> {
    const restored = this.#restored;
    if (!restored) return undefined;
    let needing: Array<{ id: string; name: string; baseUrl: string }> = [];
    try {
      needing = (await this.#options.live().connections())
        .filter((c) => restored.keyed.has(c.id) && !c.hasKey)
        .map(({ id, name, baseUrl }) => ({ id, name, baseUrl }));
    } catch {
      needing = [];
    }
    const folder = (await this.#readConfig()).folder;
    return {
      at: restored.at,
      backupCreatedAt: restored.backupCreatedAt,
      safetyBackup: restored.safetyBackup,
      ...(folder === undefined ? { backupFolder: restored.from } : {}),
      connectionsNeedingKeys: needing,
    };
  }

  /** Backs up into the folder the restored backup came from (offered when no folder is set). */
  async useRestoredFolder(): Promise<BackupStatus> {
    const from = this.#restored?.from;
    if (from === undefined) throw new AppError('not_found', said('backups.noneRestored'));
    return this.setFolder(from);
  }

  async dismissRestored(): Promise<BackupStatus> {
    this.#restored = undefined;
    const status = await this.status();
    await this.#publish(status);
    return status;
  }

  // Taking a backup ---------------------------------------------------------------------------

  /** Runs one backup or restore at a time. */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Takes a backup into the folder now, verifies it, and rotates the old ones. */
  backUpNow(reason: BackupReason = 'manual'): Promise<BackupEntry> {
    return this.#exclusive(async () => {
      const config = await this.#readConfig();
      if (!config.folder) throw new AppError('invalid_request', said('backups.chooseFolder'));
      const folder = config.folder;
      try {
        const written = await this.#write(folder, reason, config.installationId);
        await this.#saveConfig(({ lastFailure: _f, ...rest }) => ({
          ...rest,
          lastVerified: { at: written.createdAt, name: written.name, bytes: written.bytes },
        }));
        await this.#stage('backup', 'rotating');
        await this.#rotate(folder, config.installationId).catch(() => undefined);
        return written;
      } catch (error) {
        const known = error instanceof AppError ? failureKinds.get(error) : undefined;
        const failure =
          known && error instanceof AppError
            ? error
            : backupFailure('failed', said('backups.failed.notMade', { reason: messageOf(error) }));
        const kind = known ?? 'failed';
        await this.#saveConfig((rest) => ({
          ...rest,
          lastFailure: {
            at: this.#clock.now().toISOString(),
            kind,
            message: failure.message,
            ...(failure.messageId !== undefined ? { messageId: failure.messageId } : {}),
            ...(failure.values !== undefined ? { values: failure.values } : {}),
          },
        })).catch(() => undefined);
        throw failure;
      } finally {
        this.#running = undefined;
        await this.#publish();
      }
    });
  }

  async #readDataFiles(): Promise<DataFile[]> {
    const files: DataFile[] = [];
    for (const name of BACKED_UP_FILES) {
      try {
        files.push({ name, bytes: await readFile(join(this.#options.userDataDir, name)) });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return files;
  }

  /** Writes one verified backup into `folder`; throws a `backupFailure` with what to do. */
  async #write(folder: string, reason: BackupReason, installation: string): Promise<BackupEntry> {
    await this.#stage(
      reason === 'before-restore' ? 'restore' : 'backup',
      reason === 'before-restore' ? 'saving-current' : 'checking',
    );
    const live = this.#options.live();
    const problem = await checkFolder(folder, estimateBytes(live.db), this.#fs);
    if (problem) throw backupFailure(problem.kind, saidOf(problem));
    await this.#tidy(folder, installation);

    const createdAt = this.#clock.now();
    let name = backupName(createdAt, installation, reason);
    for (
      let attempt = 2;
      (await exists(join(folder, name))) || (await exists(join(folder, failedName(name))));
      attempt++
    )
      name = backupName(createdAt, installation, reason, attempt);
    const partial = join(folder, partialName(name));
    const final = join(folder, name);
    const files = await this.#readDataFiles();
    const connections = (await live.connections()).map((c) => ({
      id: c.id,
      name: c.name,
      baseUrl: c.baseUrl,
      // The demo relay's key is made anew each time it starts; it is never asked for.
      hadKey: c.hasKey && c.isDemo !== true,
    }));

    if (reason !== 'before-restore') await this.#stage('backup', 'copying');
    let snapshot: Snapshot;
    try {
      await this.#fs.rm(partial, { force: true });
      // Private conversations: readable by this user only from the moment the copy exists (the
      // backup folder may be one others can read), then filled in by the copy.
      await createPrivateFile(partial);
      snapshot = this.#copy(live.db, partial);
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        app: 'Relay Desktop',
        appVersion: this.#options.appVersion,
        createdAt: createdAt.toISOString(),
        reason,
        installationId: installation,
        computerName: this.#options.computerName ?? hostname(),
        schema: snapshot.schema,
        tables: snapshot.tables,
        counts: snapshot.counts,
        files: files.map((f) => ({
          name: f.name,
          bytes: f.bytes.byteLength,
          sha256: sha256Of(f.bytes),
        })),
        connections,
      };
      sealBackup(partial, manifest, files);
      await syncFile(partial);
    } catch (error) {
      await this.#removeQuietly(partial);
      throw writeFailure(folder, error);
    }

    if (reason !== 'before-restore') await this.#stage('backup', 'verifying');
    try {
      await inspectBackup(partial, {
        knownSchema: this.#options.knownSchema,
        appVersion: this.#options.appVersion,
        skipChecksum: true,
        expectTables: snapshot.tables,
      });
    } catch (error) {
      if (!isRefusal(error)) {
        await this.#removeQuietly(partial);
        throw writeFailure(folder, error);
      }
      throw await this.#keepAside(folder, partial, name, createdAt, error.message);
    }

    try {
      const hash = await sha256File(partial);
      await this.#fs.rename(partial, final);
      await writeFileAtomic(`${final}${CHECKSUM_SUFFIX}`, checksumLine(hash, name), {
        fs: this.#fs,
      });
    } catch (error) {
      // Without its checksum a backup claims nothing; with no room for it, it goes.
      await this.#removeQuietly(partial);
      await this.#removeQuietly(final);
      throw writeFailure(folder, error);
    }
    const bytes = (await stat(final)).size;
    return {
      id: name,
      name,
      createdAt: createdAt.toISOString(),
      bytes,
      reason,
      state: 'verified',
      fromThisComputer: true,
      computerName: this.#options.computerName ?? hostname(),
      appVersion: this.#options.appVersion,
      counts: snapshot.counts,
    };
  }

  /** Keeps a copy that failed its check aside, with a note saying why; returns the error to show. */
  async #keepAside(
    folder: string,
    partial: string,
    name: string,
    createdAt: Date,
    why: string,
  ): Promise<AppError> {
    const aside = failedName(name);
    try {
      await this.#fs.rename(partial, join(folder, aside));
      await writeFile(
        join(folder, failedNoteName(name)),
        `This backup, made ${when(createdAt)}, failed its check after it was written and must not be restored.\n\n${why}\n`,
      );
    } catch {
      await this.#removeQuietly(partial);
    }
    return backupFailure(
      'failed',
      said('backups.failed.check', { when: when(createdAt), why, aside }),
    );
  }

  async #removeQuietly(path: string): Promise<void> {
    await this.#fs.rm(path, { force: true }).catch(() => undefined);
    await this.#fs.rm(`${path}-journal`, { force: true }).catch(() => undefined);
  }

  /**
   * Clears what an earlier run of this installation left: unfinished copies go; a backup written
   * and verified but whose checksum was never written (the app stopped in between) is checked
   * again against the counts it recorded, then sealed with its checksum or kept aside.
   */
  async #tidy(folder: string, installation: string): Promise<void> {
    for (const name of await leftoverPartials(folder, installation))
      await this.#fs.rm(join(folder, name), { force: true }).catch(() => undefined);
    for (const entry of await this.#listOwn(folder, installation)) {
      if (entry.checksum || entry.failed) continue;
      const path = join(folder, entry.name);
      try {
        await inspectBackup(path, {
          knownSchema: this.#options.knownSchema,
          appVersion: this.#options.appVersion,
          skipChecksum: true,
        });
        await writeFileAtomic(
          `${path}${CHECKSUM_SUFFIX}`,
          checksumLine(await sha256File(path), entry.name),
          {
            fs: this.#fs,
          },
        );
      } catch (error) {
        if (isRefusal(error))
          await this.#keepAside(folder, path, entry.name, entry.createdAt, error.message);
      }
    }
  }

  async #listOwn(folder: string, installation: string): Promise<FolderEntry[]> {
    try {
      return (await listFolder(folder)).filter((e) => e.installation === installation);
    } catch {
      return [];
    }
  }

  /** Removes this installation's backups the rotation no longer keeps, and old failed ones. */
  async #rotate(folder: string, installation: string): Promise<void> {
    const own = await this.#listOwn(folder, installation);
    const verified = own.filter((e) => e.checksum && !e.failed);
    const remove = planRotation(
      verified.map((e) => ({
        name: e.name,
        createdAt: e.createdAt,
        reason: e.beforeRestore ? ('before-restore' as const) : ('scheduled' as const),
      })),
      this.#clock.now(),
    );
    for (const name of remove) {
      await this.#fs.rm(join(folder, `${name}${CHECKSUM_SUFFIX}`), { force: true });
      await this.#fs.rm(join(folder, name), { force: true });
    }
    for (const entry of own.filter((e) => e.failed).slice(FAILED_KEPT)) {
      await this.#fs.rm(join(folder, entry.name), { force: true });
      await this.#fs.rm(join(folder, failedNoteName(entry.name.replace('.FAILED.db', '.db'))), {
        force: true,
      });
    }
  }

  // Listing and preview -----------------------------------------------------------------------

  #manifestOf(folder: string, entry: FolderEntry): BackupManifest | undefined {
    const key = `${entry.bytes}:${entry.mtimeMs}`;
    const cached = this.#manifests.get(entry.name);
    if (cached?.key === key) return cached.manifest;
    const manifest = readManifest(join(folder, entry.name));
    this.#manifests.set(entry.name, { key, manifest });
    return manifest;
  }

  /** The backups in the folder, newest first: this computer's and any other's. */
  async list(): Promise<{ folder?: string; backups: BackupEntry[] }> {
    const config = await this.#readConfig();
    if (!config.folder) return { backups: [] };
    let entries: FolderEntry[];
    try {
      entries = await listFolder(config.folder);
    } catch {
      return { folder: config.folder, backups: [] };
    }
    const folder = config.folder;
    return {
      folder,
      backups: entries.map((entry) => {
        const manifest = this.#manifestOf(folder, entry);
        return {
          id: entry.name,
          name: entry.name,
          createdAt: manifest?.createdAt ?? entry.createdAt.toISOString(),
          bytes: entry.bytes,
          reason: manifest?.reason ?? (entry.beforeRestore ? 'before-restore' : 'scheduled'),
          state: entry.failed ? 'failed' : entry.checksum ? 'verified' : 'unchecked',
          fromThisComputer: entry.installation === config.installationId,
          ...(manifest
            ? {
                computerName: manifest.computerName,
                appVersion: manifest.appVersion,
                counts: manifest.counts,
              }
            : { problem: 'This file cannot be read as a backup.' }),
        };
      }),
    };
  }

  /** Remembers a file the person picked in main's dialog; the page refers to it by the token. */
  pick(path: string): string {
    const token = `picked-${randomUUID()}`;
    this.#picked.set(token, path);
    // A handful is plenty: each pick is previewed at once.
    for (const old of [...this.#picked.keys()].slice(0, -20)) this.#picked.delete(old);
    return token;
  }

  /** The path of a backup by its id: a name in the folder, or a picked file's token. */
  async pathOf(id: string): Promise<string> {
    const picked = this.#picked.get(id);
    if (picked) return picked;
    const folder = (await this.#readConfig()).folder;
    if (!folder || id.includes('/') || id.includes('\\') || !id.endsWith('.db'))
      throw new AppError('not_found', said('backups.gone'));
    return join(folder, id);
  }

  /** Checks a backup through and says what it holds; never changes anything. */
  async preview(id: string): Promise<BackupPreview> {
    const path = await this.pathOf(id);
    const config = await this.#readConfig();
    let bytes = 0;
    try {
      bytes = (await stat(path)).size;
    } catch {
      throw new AppError('not_found', said('backups.fileGone', { name: basename(path) }));
    }
    let inspection: Inspection | undefined;
    let problem: string | undefined;
    try {
      inspection = await inspectBackup(path, {
        knownSchema: this.#options.knownSchema,
        appVersion: this.#options.appVersion,
      });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      problem = error.message;
    }
    const manifest = inspection?.manifest ?? readManifest(path);
    const failed = basename(path).endsWith('.FAILED.db');
    return {
      id,
      name: basename(path),
      path,
      createdAt: manifest?.createdAt ?? new Date((await stat(path)).mtimeMs).toISOString(),
      bytes,
      reason: manifest?.reason ?? 'manual',
      state: failed ? 'failed' : inspection?.checksum === 'matches' ? 'verified' : 'unchecked',
      fromThisComputer: manifest?.installationId === config.installationId,
      ...(manifest
        ? {
            computerName: manifest.computerName,
            appVersion: manifest.appVersion,
            counts: manifest.counts,
          }
        : {}),
      connections: (manifest?.connections ?? []).map(({ name, baseUrl, hadKey }) => ({
        name,
        baseUrl,
        hadKey,
      })),
      files: manifest?.files.map((f) => f.name) ?? [],
      restorable: inspection !== undefined && !failed,
      checksumMatches: inspection?.checksum === 'matches',
      ...(failed && !problem
        ? { problem: 'This backup failed its check when it was made and must not be restored.' }
        : {}),
      ...(problem ? { problem } : {}),
    };
  }

  // Restoring ---------------------------------------------------------------------------------

  /**
   * Restores a backup: refused with the reason if it cannot be used; otherwise the current data
   * is backed up first, then replaced all at once, and the services reopened on it.
   */
  restore(id: string): Promise<{ safetyBackup: string; connectionsNeedingKeys: number }> {
    return this.#exclusive(async () => {
      await this.#stage('restore', 'checking');
      try {
        const path = await this.pathOf(id);
        if (basename(path).endsWith('.FAILED.db'))
          throw refusal('This backup failed its check when it was made and must not be restored.');
        const inspection = await inspectBackup(path, {
          knownSchema: this.#options.knownSchema,
          appVersion: this.#options.appVersion,
        });
        await this.#stage('restore', 'saving-current');
        const safety = await this.#safetyBackup();
        await this.#stage('restore', 'restoring');
        await this.#putInPlace(path, inspection.files).catch(async (error: unknown) => {
          // The backup's data could not be opened: the data as it was goes back.
          const back = await inspectBackup(safety, {
            knownSchema: this.#options.knownSchema,
            appVersion: this.#options.appVersion,
          });
          await this.#putInPlace(safety, back.files);
          throw backupFailure(
            'failed',
            said('backups.failed.restore', { reason: messageOf(error) }),
          );
        });
        const keyed = new Set(
          inspection.manifest.connections.filter((c) => c.hadKey).map((c) => c.id),
        );
        this.#restored = {
          at: this.#clock.now().toISOString(),
          backupCreatedAt: inspection.manifest.createdAt,
          safetyBackup: safety,
          keyed,
          from: dirname(path),
        };
        const needing = (await this.#restoredStatus())?.connectionsNeedingKeys.length ?? 0;
        return { safetyBackup: safety, connectionsNeedingKeys: needing };
      } finally {
        this.#running = undefined;
        await this.#publish();
      }
    });
  }

  async #putInPlace(path: string, files: readonly DataFile[]): Promise<void> {
    const { userDataDir } = this.#options;
    await stageRestore(userDataDir, path, files);
    await this.#options.reopen(async () => {
      await markRestore(userDataDir, files);
      await completePendingRestore(userDataDir);
    });
  }

  /**
   * Backs up the data as it is before a restore: into the backup folder, or (no folder, or it
   * cannot take it) into the user data folder. Returns the backup's path; throws, and nothing is
   * restored, when neither works.
   */
  async #safetyBackup(): Promise<string> {
    const config = await this.#readConfig();
    const local = join(this.#options.userDataDir, LOCAL_SAFETY_FOLDER);
    const places = [...(config.folder ? [config.folder] : []), local];
    let last: unknown;
    for (const folder of places) {
      try {
        if (folder === local) await this.#fs.mkdir(local, { recursive: true, mode: 0o700 });
        const written = await this.#write(folder, 'before-restore', config.installationId);
        return join(folder, written.name);
      } catch (error) {
        last = error;
      }
    }
    throw backupFailure('failed', said('backups.failed.safety', { reason: messageOf(last) }));
  }
}

function writeFailure(folder: string, error: unknown): AppError {
  if (error instanceof AppError && failureKinds.has(error)) return error;
  const problem = problemOfWriteError(folder, error);
  return problem
    ? backupFailure(problem.kind, saidOf(problem))
    : backupFailure('failed', said('backups.failed.write', { reason: messageOf(error) }));
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
