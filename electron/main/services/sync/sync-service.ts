/**
 * Sync as the app runs it: the storage the person chose (kept in `sync.json`, its secret and the
 * sync key in the keychain), the engine over the app's own stores, and the background job.
 *
 * - **Set up**: on the first computer with a new recovery phrase (answered once, kept nowhere);
 *   on every other one by joining with that phrase. A wrong phrase, a storage already in use or
 *   one with nothing to join is said plainly and nothing is written, here or there.
 * - **When it syncs**: soon after the app starts, a few seconds after the last local change
 *   (the engine's journal, `sync_dirty`, is looked at every few seconds; a change of settings,
 *   of a connection or of a knowledge base says so at once), on a timer, and after a failure at
 *   the engine's `retryAt` (backoff). A sync runs on main's event loop in small awaited steps
 *   and never holds up an answer to the page.
 * - **This computer's identity**: the engine's device id is kept in the keychain beside the key.
 *   A database copied from another computer carries that computer's id; when the two differ, the
 *   copy starts as a new computer (its sync tables emptied, every record sent again as its own).
 * - **Turn off** forgets the storage, its secret and the key, and empties sync's tables; the data
 *   here and in the storage stay. Setting up again starts as a new computer.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  SyncReport as PageReport,
  SyncStatus as PageStatus,
  SyncTarget as SavedTarget,
  SyncTargetInput,
} from '../../../shared/ipc/routes/sync';
import type { Dialogs } from '../../app-context';
import { AppError } from '../app-error';
import { ChatStore } from '../chat/store';
import { AttachmentStore } from '../chat/attachments';
import type { Db } from '../database';
import type { PriceBook } from '../models/price-book';
import { PromptsService } from '../prompts/prompts-service';
import type { FetchLike } from '../relay/relay-client';
import type { SecretStore } from '../secret-store';
import type { SettingsService } from '../settings/settings';
import { nativeText, messageFields, said, type Said } from '../words';
import type { ConnectionsService } from '../connections/connections';
import type { KnowledgeService } from '../knowledge/knowledge-service';
import { ChatSource } from './sources/chat-source';
import { ConnectionSource, type KeyNeeded } from './sources/connection-source';
import { KnowledgeSource } from './sources/knowledge-source';
import { PricesSource, SettingsSource } from './sources/file-sources';
import { PromptSource } from './sources/prompt-source';
import { DEFAULT_SCRYPT_COST, newRecoveryPhrase, type ScryptCost } from './sync-crypto';
import {
  SyncEngine,
  type SyncEvent,
  type SyncReport,
  type SyncStatus as EngineStatus,
} from './sync-engine';
import {
  loadSyncKey,
  openStorage,
  saveSyncKey,
  storageState,
  SYNC_KEY_ACCOUNT,
} from './sync-setup';
import { FolderTarget } from './targets/folder-target';
import { S3Target } from './targets/s3-target';
import { TargetError, type SyncTarget } from './targets/target';
import { testConnection } from './targets/test-connection';
import { WebdavTarget } from './targets/webdav-target';

/** The keychain accounts of a WebDAV password or an S3 secret key, and of this computer's id. */
export const SYNC_SECRET_ACCOUNT = 'sync.secret';
export const SYNC_DEVICE_ACCOUNT = 'sync.device';
export const SYNC_FILE = 'sync.json';

/** Sync's tables, emptied when sync is turned off or a copied database starts anew. */
const SYNC_TABLES = [
  'sync_state',
  'sync_tracking',
  'sync_guard',
  'sync_dirty',
  'sync_meta',
  'sync_devices',
  'sync_heads_read',
  'sync_pending',
  'sync_outbox',
  'sync_uploaded',
  'sync_blobs_sent',
  'sync_blobs_wanted',
  'sync_history',
];
// Not `sync_links`: which connection and knowledge base here came from which synced one stays
// true when sync is turned off and set up again, so joining again makes none of them twice.

interface SyncFile {
  version: 1;
  target: SavedTarget;
  paused: boolean;
}

export interface SyncTiming {
  /** After the app starts, before the first sync. */
  startDelayMs: number;
  /** After the last local change, before the sync that sends it. */
  debounceMs: number;
  /** The longest a change waits while more keep coming. */
  maxWaitMs: number;
  /** How often the journal of local changes is looked at. */
  pollMs: number;
  /** A sync at least this often, for other computers' changes. */
  intervalMs: number;
  /** The page hears the status at most this often during a long sync. */
  paceMs: number;
}

export const DEFAULT_SYNC_TIMING: SyncTiming = {
  startDelayMs: 5_000,
  debounceMs: 4_000,
  maxWaitMs: 30_000,
  pollMs: 3_000,
  intervalMs: 5 * 60_000,
  paceMs: 250,
};

export interface SyncServiceOptions {
  userDataDir: string;
  db: Db;
  secrets: SecretStore;
  settings: SettingsService;
  prices: PriceBook;
  dialogs: Dialogs;
  fetch?: FetchLike;
  /** The status, to the page (paced). */
  onStatus?: (status: PageStatus) => void;
  /** Another computer's changes were applied here, by kind: the page refreshes them. */
  onApplied?: (applied: Record<string, number>) => void;
  onError?: (event: string, error: unknown) => void;
  /** The saved connections: their names, addresses and headers sync, never their keys. */
  connections?: ConnectionsService;
  /** The knowledge bases, once open (after sync): their sources and settings sync. */
  knowledge?: Promise<KnowledgeService>;
  timing?: Partial<SyncTiming>;
  /** The recovery phrase's key derivation cost for a new storage (tests use a cheap one). */
  scryptCost?: ScryptCost;
  deviceLabel?: string;
}

/** Whether sync is set up in this user data folder (the chat keeps a 30-day trash then). */
export async function syncConfigured(userDataDir: string): Promise<boolean> {
  return (await readSyncFile(userDataDir)) !== undefined;
}

async function readSyncFile(userDataDir: string): Promise<SyncFile | undefined> {
  try {
    const data = JSON.parse(await readFile(join(userDataDir, SYNC_FILE), 'utf8')) as SyncFile;
    return data.version === 1 && typeof data.target?.kind === 'string' ? data : undefined;
  } catch {
    return undefined;
  }
}

/** A storage's failure as the page hears it: the sentence with its fix. */
function refusal(error: unknown): unknown {
  if (error instanceof TargetError) {
    const kind =
      error.problem === 'auth' || error.problem === 'forbidden'
        ? 'unauthorized'
        : error.problem === 'timeout'
          ? 'timeout'
          : error.problem === 'unreachable' || error.problem === 'tls'
            ? 'network'
            : 'invalid_request';
    return new AppError(kind, error.said);
  }
  return error;
}

function toPageReport(report: SyncReport): PageReport {
  return {
    at: report.at,
    ok: report.ok,
    uploaded: report.uploaded,
    downloaded: report.downloaded,
    applied: report.applied,
    sent: report.sent,
    refused: report.refused,
    problem: report.problem,
  };
}

export class SyncService {
  readonly #options: SyncServiceOptions;
  readonly #timing: SyncTiming;
  #file: SyncFile | undefined;
  #engine: SyncEngine | undefined;
  /** Why the engine could not open (the key gone from the keychain, a secret missing). */
  #problem: Said | undefined;
  /** The folder chosen in main's dialog, for the next test or set-up. */
  #chosenFolder: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  #poll: ReturnType<typeof setInterval> | undefined;
  #lastDirty = 0;
  #firstChangeAt: number | undefined;
  #paceTimer: ReturnType<typeof setTimeout> | undefined;
  #lastSent = 0;
  #closed = false;
  /** Set-up, join and turn-off, one at a time. */
  #busy: Promise<unknown> = Promise.resolve();
  /** Stops hearing of the changes that start a sync (settings, connections, knowledge bases). */
  readonly #stops: Array<() => void> = [];
  #connections: ConnectionSource | undefined;

  private constructor(options: SyncServiceOptions) {
    this.#options = options;
    this.#timing = { ...DEFAULT_SYNC_TIMING, ...options.timing };
  }

  /** Opens sync as it was left: nothing when it is not set up, the engine and its job when it is. */
  static async open(options: SyncServiceOptions): Promise<SyncService> {
    const service = new SyncService(options);
    service.#file = await readSyncFile(options.userDataDir);
    if (service.#file !== undefined) {
      await service.#openEngine();
      service.#startJob(service.#timing.startDelayMs);
    }
    const changed = () => service.#changed();
    service.#stops.push(options.settings.onChange(changed));
    // A connection's name, address or headers: sent like any other change.
    if (options.connections) service.#stops.push(options.connections.onChange(changed));
    // A base made, renamed or deleted, its sources or model changed (the bases open after sync).
    void options.knowledge?.then(
      (knowledge) => {
        if (!service.#closed) service.#stops.push(knowledge.onChange(changed));
      },
      () => undefined, // The bases failed to open: what they say of it is told elsewhere.
    );
    return service;
  }

  // ---- what the page sees -------------------------------------------------------------------

  status(): PageStatus {
    const file = this.#file;
    const empty = {
      pendingChanges: 0,
      lastSyncAt: null,
      problem: null,
      retryAt: null,
      progress: null,
      devices: 0,
      firstSyncDone: false,
    };
    if (file === undefined) return { state: 'off', ...empty };
    if (this.#engine === undefined)
      return {
        state: 'attention',
        target: file.target,
        ...empty,
        problem: this.#problem ? { problem: 'setup', ...messageFields(this.#problem) } : null,
      };
    const s: EngineStatus = this.#engine.status();
    return {
      state: file.paused && s.state !== 'syncing' ? 'paused' : s.state,
      target: file.target,
      pendingChanges: s.pendingChanges,
      lastSyncAt: s.lastSyncAt,
      problem: s.problem
        ? {
            problem: s.problem.problem,
            message: s.problem.message,
            messageId: s.problem.messageId,
            ...(s.problem.values ? { values: s.problem.values } : {}),
          }
        : null,
      retryAt: s.retryAt,
      progress: s.progress,
      devices: s.devices,
      firstSyncDone: s.lastSyncAt !== null,
    };
  }

  history(limit = 20): PageReport[] {
    return (this.#engine?.history(limit) ?? []).map(toPageReport);
  }

  /** Asks for the folder in main's dialog and keeps it for the next test or set-up. */
  async chooseFolder(): Promise<{ cancelled: boolean; location?: string }> {
    const chosen = await this.#options.dialogs.chooseFolder?.({
      title: nativeText('dialog.chooseSyncFolder'),
      ...(this.#chosenFolder ? { defaultPath: this.#chosenFolder } : {}),
    });
    if (chosen === undefined) return { cancelled: true };
    this.#chosenFolder = chosen;
    return { cancelled: false, location: chosen };
  }

  async test(input: SyncTargetInput) {
    const { target } = await this.#targetFrom(input);
    const result = await testConnection(target);
    if (result.ok) return { ok: true as const };
    return {
      ok: false as const,
      step: result.step,
      problem: result.problem,
      ...messageFields(result.said),
    };
  }

  // ---- setting up ---------------------------------------------------------------------------

  /** Sets sync up on an empty storage with a new recovery phrase, answered this once. */
  startNew(input: SyncTargetInput): Promise<{ phrase: string; status: PageStatus }> {
    return this.#oneAtATime(async () => {
      this.#refuseIfSetUp();
      const { target, saved, secret } = await this.#targetFrom(input);
      try {
        if ((await storageState(target)).state === 'ready')
          throw new AppError('invalid_request', said('sync.setup.storageInUse'));
        const phrase = newRecoveryPhrase();
        const { keys, created } = await openStorage(
          target,
          phrase,
          this.#options.scryptCost ?? DEFAULT_SCRYPT_COST,
        );
        if (!created) throw new AppError('invalid_request', said('sync.setup.storageInUse'));
        await this.#begin(saved, secret, keys);
        return { phrase, status: this.status() };
      } catch (error) {
        throw refusal(error);
      }
    });
  }

  /** Joins the synced data in a storage with its phrase; a wrong one writes nothing anywhere. */
  join(input: SyncTargetInput, phrase: string): Promise<PageStatus> {
    return this.#oneAtATime(async () => {
      this.#refuseIfSetUp();
      const { target, saved, secret } = await this.#targetFrom(input);
      try {
        if ((await storageState(target)).state === 'empty')
          throw new AppError('invalid_request', said('sync.setup.storageEmpty'));
        const { keys } = await openStorage(target, phrase.trim().toLowerCase());
        await this.#begin(saved, secret, keys);
        return this.status();
      } catch (error) {
        throw refusal(error);
      }
    });
  }

  async #begin(
    saved: SavedTarget,
    secret: string | undefined,
    keys: Awaited<ReturnType<typeof openStorage>>['keys'],
  ): Promise<void> {
    // A new identity for this computer in this storage.
    this.#emptyTables();
    await this.#options.secrets.delete(SYNC_DEVICE_ACCOUNT);
    await saveSyncKey(this.#options.secrets, keys);
    if (secret !== undefined) await this.#options.secrets.set(SYNC_SECRET_ACCOUNT, secret);
    else await this.#options.secrets.delete(SYNC_SECRET_ACCOUNT);
    await this.#writeFile({ version: 1, target: saved, paused: false });
    await this.#openEngine();
    this.#startJob(0);
  }

  // ---- running ------------------------------------------------------------------------------

  async syncNow(): Promise<PageStatus> {
    if (this.#file === undefined) throw new AppError('invalid_request', said('sync.setup.off'));
    if (this.#engine === undefined) {
      await this.#openEngine();
      if (this.#engine === undefined) return this.status();
    }
    await this.#runSync();
    return this.status();
  }

  async setPaused(paused: boolean): Promise<PageStatus> {
    const file = this.#file;
    if (file === undefined) throw new AppError('invalid_request', said('sync.setup.off'));
    await this.#writeFile({ ...file, paused });
    if (paused) this.#clearTimer();
    else this.#schedule(0);
    this.#sendStatus(true);
    return this.status();
  }

  /** Stops syncing here and forgets the storage; the data here and there stay. */
  turnOff(): Promise<PageStatus> {
    return this.#oneAtATime(async () => {
      this.#stopJob();
      const engine = this.#engine;
      this.#engine = undefined;
      await engine?.close();
      this.#emptyTables();
      for (const account of [SYNC_KEY_ACCOUNT, SYNC_SECRET_ACCOUNT, SYNC_DEVICE_ACCOUNT])
        await this.#options.secrets.delete(account);
      await rm(join(this.#options.userDataDir, SYNC_FILE), { force: true });
      this.#file = undefined;
      this.#problem = undefined;
      this.#sendStatus(true);
      return this.status();
    });
  }

  /** Stops the job and lets a running sync end; what is not sent yet waits for the next start. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopJob();
    for (const stop of this.#stops.splice(0)) stop();
    if (this.#paceTimer) clearTimeout(this.#paceTimer);
    await this.#busy.catch(() => undefined);
    await this.#engine?.close();
  }

  // ---- inside -------------------------------------------------------------------------------

  #oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#busy.then(work, work);
    this.#busy = next.catch(() => undefined);
    return next;
  }

  #refuseIfSetUp(): void {
    if (this.#file !== undefined) throw new AppError('invalid_request', said('sync.setup.already'));
  }

  async #writeFile(file: SyncFile): Promise<void> {
    const path = join(this.#options.userDataDir, SYNC_FILE);
    const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, `${JSON.stringify(file, null, 2)}\n`);
    await rename(temp, path);
    this.#file = file;
  }

  #emptyTables(): void {
    const db = this.#options.db;
    const present = new Set(
      db
        .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .map((row) => row.name),
    );
    db.transaction(() => {
      for (const table of SYNC_TABLES) if (present.has(table)) db.run(`DELETE FROM ${table}`);
    });
  }

  /**
   * The storage the page described, with its secret (the one given, or the one kept when the
   * page left it out), and what is saved of it.
   */
  async #targetFrom(
    input: SyncTargetInput,
  ): Promise<{ target: SyncTarget; saved: SavedTarget; secret?: string }> {
    const fetch = this.#options.fetch as typeof globalThis.fetch | undefined;
    if (input.kind === 'folder') {
      const location =
        this.#chosenFolder ??
        (this.#file?.target.kind === 'folder' ? this.#file.target.location : undefined);
      if (location === undefined)
        throw new AppError('invalid_request', said('sync.setup.noFolder'));
      return { target: new FolderTarget(location), saved: { kind: 'folder', location } };
    }
    const secret =
      (input.kind === 'webdav' ? input.password : input.secretAccessKey) ??
      (this.#file?.target.kind === input.kind
        ? await this.#options.secrets.get(SYNC_SECRET_ACCOUNT)
        : undefined);
    if (input.kind === 'webdav') {
      if (secret === undefined && input.username !== '')
        throw new AppError('invalid_request', said('sync.setup.noSecret'));
      return {
        target: new WebdavTarget({
          url: input.url,
          username: input.username,
          password: secret ?? '',
          ...(fetch ? { fetch } : {}),
        }),
        saved: { kind: 'webdav', url: input.url, username: input.username },
        ...(secret !== undefined ? { secret } : {}),
      };
    }
    if (secret === undefined) throw new AppError('invalid_request', said('sync.setup.noSecret'));
    const saved: SavedTarget = {
      kind: 's3',
      endpoint: input.endpoint,
      region: input.region,
      bucket: input.bucket,
      prefix: input.prefix ?? '',
      accessKeyId: input.accessKeyId,
    };
    return { target: this.#s3(saved, secret), saved, secret };
  }

  #s3(saved: Extract<SavedTarget, { kind: 's3' }>, secret: string): SyncTarget {
    const fetch = this.#options.fetch as typeof globalThis.fetch | undefined;
    return new S3Target({
      endpoint: saved.endpoint,
      region: saved.region,
      bucket: saved.bucket,
      prefix: saved.prefix,
      accessKeyId: saved.accessKeyId,
      secretAccessKey: secret,
      ...(fetch ? { fetch } : {}),
    });
  }

  async #savedTarget(saved: SavedTarget): Promise<SyncTarget | undefined> {
    if (saved.kind === 'folder') return new FolderTarget(saved.location);
    const secret = await this.#options.secrets.get(SYNC_SECRET_ACCOUNT);
    const fetch = this.#options.fetch as typeof globalThis.fetch | undefined;
    if (saved.kind === 'webdav') {
      if (secret === undefined && saved.username !== '') return undefined;
      return new WebdavTarget({
        url: saved.url,
        username: saved.username,
        password: secret ?? '',
        ...(fetch ? { fetch } : {}),
      });
    }
    return secret === undefined ? undefined : this.#s3(saved, secret);
  }

  async #openEngine(): Promise<void> {
    const file = this.#file;
    if (file === undefined || this.#engine !== undefined) return;
    const { secrets, db } = this.#options;
    const keys = await loadSyncKey(secrets);
    if (keys === undefined) {
      this.#problem = said('sync.setup.keyMissing');
      return;
    }
    const target = await this.#savedTarget(file.target);
    if (target === undefined) {
      this.#problem = said('sync.setup.noSecret');
      return;
    }
    this.#problem = undefined;
    // A database copied from another computer carries its id: this one starts as a new computer.
    const kept = await secrets.get(SYNC_DEVICE_ACCOUNT);
    const inDb = this.#deviceInDb();
    if (kept !== undefined && inDb !== undefined && kept !== inDb) this.#emptyTables();
    const chat = new ChatStore(db);
    const prompts = await PromptsService.open({
      db,
      onChange: () => this.#options.onApplied?.({ prompt: 1 }),
    });
    this.#engine = await SyncEngine.open({
      db,
      target,
      keys,
      sources: [
        new ChatSource(chat, new AttachmentStore(db)),
        new PromptSource(db, prompts),
        new SettingsSource(this.#options.settings),
        new PricesSource(this.#options.prices),
        ...this.#syncedSources(),
      ],
      ...(this.#options.deviceLabel ? { deviceLabel: this.#options.deviceLabel } : {}),
      onEvent: (event) => this.#onEngineEvent(event),
    });
    if (kept !== this.#engine.device) await secrets.set(SYNC_DEVICE_ACCOUNT, this.#engine.device);
    this.#lastDirty = this.#dirtyCount();
  }

  /** Connections and knowledge bases, where the app gave their services. */
  #syncedSources(): Array<ConnectionSource | KnowledgeSource> {
    const { db, connections, knowledge } = this.#options;
    const sources: Array<ConnectionSource | KnowledgeSource> = [];
    this.#connections =
      connections === undefined
        ? undefined
        : new ConnectionSource(db, connections, () => this.#options.onApplied?.({ connection: 1 }));
    if (this.#connections !== undefined) sources.push(this.#connections);
    if (knowledge !== undefined)
      sources.push(
        new KnowledgeSource(db, knowledge, {
          ...(connections
            ? {
                connectionIds: async () => new Set((await connections.list()).map((c) => c.id)),
                demo: {
                  id: async () => (await connections.list()).find((c) => c.isDemo === true)?.id,
                  ensure: async () => (await connections.ensureDemo()).id,
                },
              }
            : {}),
        }),
      );
    return sources;
  }

  /**
   * The connections another computer synced here that need their key, each asked for once:
   * the page asks by name, and `keyAsked` says it did (a key given, or not now).
   */
  async keysNeeded(): Promise<KeyNeeded[]> {
    if (this.#engine === undefined || this.#connections === undefined) return [];
    return this.#connections.keysNeeded();
  }

  keyAsked(connectionId: string): void {
    this.#connections?.asked(connectionId);
  }

  #deviceInDb(): string | undefined {
    try {
      return this.#options.db.one<{ value: string }>(
        "SELECT value FROM sync_state WHERE key = 'device'",
      )?.value;
    } catch {
      return undefined; // no sync tables yet
    }
  }

  #dirtyCount(): number {
    try {
      return this.#options.db.one<{ n: number }>('SELECT count(*) AS n FROM sync_dirty')!.n;
    } catch {
      return 0;
    }
  }

  #onEngineEvent(event: SyncEvent): void {
    if (event.type === 'applied') {
      const applied = { ...event.report.applied };
      if (event.report.conversations.length > 0) applied.conversation ??= 1;
      this.#options.onApplied?.(applied);
      return;
    }
    this.#sendStatus(event.status.state !== 'syncing');
  }

  /** The status to the page: at once at a change of state, else at most every `paceMs`. */
  #sendStatus(now: boolean): void {
    if (this.#closed) return;
    const send = () => {
      this.#paceTimer = undefined;
      this.#lastSent = Date.now();
      this.#options.onStatus?.(this.status());
    };
    if (now) {
      if (this.#paceTimer) clearTimeout(this.#paceTimer);
      send();
      return;
    }
    if (this.#paceTimer) return;
    const wait = Math.max(0, this.#lastSent + this.#timing.paceMs - Date.now());
    this.#paceTimer = setTimeout(send, wait);
    this.#paceTimer.unref?.();
  }

  // ---- the background job -------------------------------------------------------------------

  #startJob(firstDelayMs: number): void {
    if (this.#closed || this.#engine === undefined) return;
    this.#schedule(firstDelayMs);
    if (this.#poll === undefined) {
      this.#poll = setInterval(() => this.#lookForChanges(), this.#timing.pollMs);
      this.#poll.unref?.();
    }
  }

  #stopJob(): void {
    this.#clearTimer();
    if (this.#poll !== undefined) clearInterval(this.#poll);
    this.#poll = undefined;
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  /** Runs a sync in `delayMs`, unless one is due sooner already. */
  #schedule(delayMs: number, replace = false): void {
    if (this.#closed || this.#engine === undefined || this.#file?.paused) return;
    const at = Date.now() + Math.max(0, delayMs);
    if (!replace && this.#timer !== undefined && this.#timerAt <= at) return;
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      void this.#runSync();
    }, at - Date.now());
    this.#timer.unref?.();
  }

  #lookForChanges(): void {
    if (this.#engine === undefined || this.#closed) return;
    const dirty = this.#dirtyCount();
    if (dirty !== this.#lastDirty) {
      this.#lastDirty = dirty;
      if (dirty > 0) this.#changed();
      else this.#firstChangeAt = undefined;
    }
  }

  /** A change here: sync a few seconds after the last one, but not later than `maxWaitMs`. */
  #changed(): void {
    if (this.#engine === undefined) return;
    const retryAt = this.#engine.status().retryAt;
    // After a failure, the backoff decides; a change does not hurry it.
    if (retryAt !== null && new Date(retryAt).getTime() > Date.now()) return;
    const now = Date.now();
    this.#firstChangeAt ??= now;
    const latest = this.#firstChangeAt + this.#timing.maxWaitMs - now;
    this.#schedule(Math.min(this.#timing.debounceMs, latest), true);
    this.#sendStatus(false);
  }

  async #runSync(): Promise<void> {
    const engine = this.#engine;
    if (engine === undefined || this.#closed) return;
    this.#firstChangeAt = undefined;
    try {
      await engine.sync();
    } catch (error) {
      this.#options.onError?.('sync.failed', error);
    }
    this.#lastDirty = this.#dirtyCount();
    if (this.#engine !== engine) return;
    const retryAt = engine.status().retryAt;
    this.#schedule(
      retryAt !== null
        ? Math.max(1_000, new Date(retryAt).getTime() - Date.now())
        : this.#timing.intervalMs,
      true,
    );
    this.#sendStatus(true);
  }
}
