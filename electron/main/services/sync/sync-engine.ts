/**
 * The sync engine: a merge, not an overwrite, through storage the person owns.
 *
 * Each device writes only its own objects, each once: its changes as numbered logs, a head
 * saying how far its logs go, now and then a snapshot of everything so its old logs can go.
 * A sync reads the heads (one listing: a quiet sync is that one request), applies the logs of
 * every device it has not applied yet (or a snapshot first, for a new device or one that fell
 * behind compaction), then uploads its own changes and a new head. No object is ever replaced,
 * so two devices can never overwrite each other, and applying the same change twice changes
 * nothing: every field takes the change with the latest clock stamp, which is the same answer
 * on every device whatever order the changes arrive in.
 *
 * What makes a failure boring:
 * - a change is taken from the stores (`sync_dirty`) and sealed into the outbox in one
 *   transaction, uploaded after; a sync killed between the two uploads it the next time;
 * - another device's log is applied and marked applied in one transaction; a sync killed in
 *   between applies it again, which changes nothing;
 * - a snapshot is applied part by part, each part with its progress, and resumes at the part;
 * - storage full, a 401, a 5xx or a timeout ends the sync with the reason and its fix
 *   (`TargetError`), and `retryDelayMs` says when to try again;
 * - an object that is damaged, or not ours, is refused by name and skipped.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { migrate, type Db } from '../database';
import { messageFields, said, type Said } from '../words';
import { encodeStamp, HybridClock, laterStamp } from './hlc';
import type { ChatSource, BlobWanted } from './sources/chat-source';
import type {
  Change,
  DbSource,
  EntityState,
  FieldState,
  FileSource,
  Fields,
  JsonValue,
  SyncSource,
} from './source';
import {
  objectName,
  openObject,
  SealedObjectError,
  sealObject,
  type ObjectKind,
  type SyncKeys,
} from './sync-crypto';
import { ensureTriggers, SYNC_DOMAIN, SYNC_MIGRATIONS } from './sync-tables';
import { TargetError, type SyncTarget, type TargetProblem } from './targets/target';
import {
  headSchema,
  logSchema,
  snapshotPartSchema,
  wireEntitySchema,
  WANTS_IN_HEAD,
  type HeadObject,
  type SnapshotInfo,
  type WireEntity,
} from './wire';

/** How many entities one log object or snapshot part carries at most. */
const ENTITIES_PER_OBJECT = 2000;
/** A log object is closed past this much JSON, so no object nears a server's size limit. */
const MAX_OBJECT_JSON = 4 * 1024 * 1024;
/** Logs downloaded ahead of the one being applied. */
const DOWNLOAD_AHEAD = 4;
/** A device whose head is older than this no longer holds back the deletion of old logs. */
const ACTIVE_DEVICE_MS = 30 * 86_400_000;
/**
 * How long a snapshot part or log stays in the storage after the head that named it was
 * replaced: a device that read the old head and is reading them finds them there.
 */
export const SUPERSEDED_GRACE_MS = 3_600_000;
/**
 * How often a device looks for files no message names any more, and how long such a file stays
 * unnamed before it is deleted (it must be unnamed at two looks this far apart).
 */
export const BLOB_GC_INTERVAL_MS = 86_400_000;
/** How many syncs the history keeps. */
const HISTORY_KEPT = 100;
/** Tries of one request that failed for a passing reason, before the sync gives up. */
const REQUEST_TRIES = 3;

export type SyncState = 'idle' | 'syncing' | 'offline' | 'attention';

export interface SyncProblem {
  problem: TargetProblem | 'internal';
  message: string;
  messageId: Said['id'];
  values?: Said['values'];
}

export interface SyncRefusal {
  /** The object's name in the storage. */
  name: string;
  reason: 'foreign' | 'damaged';
}

export interface SyncStatus {
  state: SyncState;
  /** Changes made here that are not in the storage yet. */
  pendingChanges: number;
  lastSyncAt: string | null;
  problem: SyncProblem | null;
  /** When the next try after a failure is due. */
  retryAt: string | null;
  progress: { phase: 'download' | 'apply' | 'upload'; done: number; total: number } | null;
  /** How far this computer's clock is from the storage's, when the storage says (ms). */
  clockOffsetMs: number;
  devices: number;
}

export interface SyncReport {
  at: string;
  ok: boolean;
  requests: number;
  uploaded: { objects: number; bytes: number };
  downloaded: { objects: number; bytes: number };
  /** Entities changed here by other devices, by kind. */
  applied: Record<string, number>;
  /** Entities sent from here, by kind. */
  sent: Record<string, number>;
  /** Conversations changed here by other devices (the page refreshes them). */
  conversations: string[];
  refused: SyncRefusal[];
  problem: SyncProblem | null;
}

export type SyncEvent =
  { type: 'status'; status: SyncStatus } | { type: 'applied'; report: SyncReport };

export interface SyncEngineOptions {
  db: Db;
  target: SyncTarget;
  keys: SyncKeys;
  sources: readonly SyncSource[];
  /** The device's name other devices see ("Work laptop"). */
  deviceLabel?: string;
  /** The wall clock. */
  now?: () => Date;
  onEvent?: (event: SyncEvent) => void;
  /** Waits between tries of a request (tests give no wait). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Own logs' bytes since the last snapshot past which a new snapshot is written (and the
   * share of the last snapshot's size that also must be passed), and how many entities a
   * snapshot part holds (2,000; tests make parts small).
   */
  compaction?: { minBytes: number; ratio: number; partEntities?: number };
}

const EMPTY_REPORT = (at: string): SyncReport => ({
  at,
  ok: true,
  requests: 0,
  uploaded: { objects: 0, bytes: 0 },
  downloaded: { objects: 0, bytes: 0 },
  applied: {},
  sent: {},
  conversations: [],
  refused: [],
  problem: null,
});

/** The delay before the next try after `failures` failed syncs in a row. */
export function retryDelayMs(failures: number, problem?: TargetProblem | 'internal'): number {
  if (problem === 'auth' || problem === 'forbidden' || problem === 'not_found') return 3_600_000;
  if (problem === 'full') return 1_800_000;
  const steps = [30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000];
  return steps[Math.min(Math.max(failures, 1), steps.length) - 1]!;
}

/** JSON with object keys sorted, so the same value always hashes the same. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    .join(',')}}`;
}

export function hashValue(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('base64url').slice(0, 22);
}

type StoredFields = Record<string, [string, string] | [string, string, JsonValue]>;

function toState(stored: StoredFields): EntityState {
  const state: EntityState = {};
  for (const [field, entry] of Object.entries(stored))
    state[field] =
      entry.length === 3
        ? { h: entry[0], hash: entry[1], v: entry[2] }
        : { h: entry[0], hash: entry[1] };
  return state;
}

function fromState(state: EntityState): StoredFields {
  const stored: StoredFields = {};
  for (const [field, entry] of Object.entries(state))
    stored[field] =
      'v' in entry ? [entry.h, entry.hash, entry.v as JsonValue] : [entry.h, entry.hash];
  return stored;
}

function problemOf(error: unknown): SyncProblem {
  if (error instanceof TargetError) return { problem: error.problem, ...messageFields(error.said) };
  const sentence = said('sync.failed', {
    detail: error instanceof Error ? error.message : String(error),
  });
  return { problem: 'internal', ...messageFields(sentence) };
}

interface DeviceRow {
  device: string;
  head: string;
  info: string;
  applied: number;
}

export class SyncEngine {
  readonly #db: Db;
  readonly #target: SyncTarget;
  readonly #keys: SyncKeys;
  readonly #sources = new Map<string, SyncSource>();
  readonly #kinds: string[] = [];
  readonly #now: () => Date;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onEvent: (event: SyncEvent) => void;
  readonly #compaction: { minBytes: number; ratio: number; partEntities?: number };
  readonly device: string;
  readonly #label: string;
  #clock!: HybridClock;
  #offsetMs = 0;
  #running: Promise<SyncReport> | undefined;
  #report: SyncReport = EMPTY_REPORT(new Date(0).toISOString());
  #failures = 0;
  #status: SyncStatus;
  #closed = false;
  /** Whether this sync applied every device's logs as far as their heads go. */
  #caughtUp = true;
  /** Whether this sync read a new head of another device. */
  #newHeads = false;

  private constructor(options: SyncEngineOptions, device: string) {
    this.#db = options.db;
    this.#target = options.target;
    this.#keys = options.keys;
    this.#now = options.now ?? (() => new Date());
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#onEvent = options.onEvent ?? (() => undefined);
    this.#compaction = options.compaction ?? { minBytes: 8 * 1024 * 1024, ratio: 0.5 };
    this.device = device;
    this.#label = this.#stateValue('label') ?? options.deviceLabel ?? hostname();
    for (const source of options.sources)
      for (const kind of source.kinds) {
        this.#sources.set(kind, source);
        this.#kinds.push(kind);
      }
    for (const source of options.sources)
      if ('onBlobWanted' in source)
        (source as ChatSource).onBlobWanted = (wanted) => this.#wantBlob(wanted);
    this.#offsetMs = Number(this.#stateValue('clockOffset') ?? 0);
    this.#clock = new HybridClock(
      device,
      () => this.#now().getTime() + this.#offsetMs,
      this.#stateValue('clock'),
    );
    const last = this.#db.one<{ at: string }>(
      'SELECT at FROM sync_history ORDER BY id DESC LIMIT 1',
    );
    this.#status = {
      state: 'idle',
      pendingChanges: 0,
      lastSyncAt: last?.at ?? null,
      problem: null,
      retryAt: null,
      progress: null,
      clockOffsetMs: this.#offsetMs,
      devices: 0,
    };
    this.#status.pendingChanges = this.#pendingCount();
    this.#status.devices = this.#db.one<{ n: number }>('SELECT count(*) AS n FROM sync_devices')!.n;
  }

  /**
   * Brings sync's tables up to date and starts tracking changes. The first time on this
   * database, every entity already there is marked to be sent (the first upload).
   */
  static async open(options: SyncEngineOptions): Promise<SyncEngine> {
    const db = options.db;
    await migrateSync(db, options.now);
    let device = db.one<{ value: string }>(
      "SELECT value FROM sync_state WHERE key = 'device'",
    )?.value;
    if (device === undefined) {
      device = randomBytes(8).toString('hex');
      db.run("INSERT INTO sync_state (key, value) VALUES ('device', ?)", [device]);
      if (options.deviceLabel !== undefined)
        db.run("INSERT OR REPLACE INTO sync_state (key, value) VALUES ('label', ?)", [
          options.deviceLabel,
        ]);
    }
    const engine = new SyncEngine(options, device);
    engine.#startTracking();
    return engine;
  }

  #startTracking(): void {
    if (this.#db.one('SELECT 1 AS found FROM sync_tracking') !== undefined) return;
    this.#db.transaction(() => {
      this.#db.run('INSERT INTO sync_tracking (on_since) VALUES (?)', [this.#now().toISOString()]);
      for (const [kind, source] of this.#sources) {
        if (source.store !== 'db') continue;
        const at = this.#now().toISOString();
        for (const id of source.allIds(kind))
          this.#db.run('INSERT OR IGNORE INTO sync_dirty (kind, id, at) VALUES (?, ?, ?)', [
            kind,
            id,
            at,
          ]);
      }
    });
    this.#status.pendingChanges = this.#pendingCount();
  }

  // ---- state --------------------------------------------------------------------------------

  #stateValue(key: string): string | undefined {
    return this.#db.one<{ value: string }>('SELECT value FROM sync_state WHERE key = ?', [key])
      ?.value;
  }

  #setState(key: string, value: string | number | null): void {
    if (value === null) this.#db.run('DELETE FROM sync_state WHERE key = ?', [key]);
    else
      this.#db.run('INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)', [
        key,
        String(value),
      ]);
  }

  #seq(): number {
    return Number(this.#stateValue('seq') ?? 0);
  }

  #pendingCount(): number {
    return (
      this.#db.one<{ n: number }>('SELECT count(*) AS n FROM sync_dirty')!.n +
      this.#db.one<{ n: number }>("SELECT count(*) AS n FROM sync_outbox WHERE kind = 'log'")!.n
    );
  }

  status(): SyncStatus {
    return { ...this.#status };
  }

  #setStatus(change: Partial<SyncStatus>): void {
    this.#status = { ...this.#status, ...change };
    this.#onEvent({ type: 'status', status: this.status() });
  }

  /** The last syncs, newest first. */
  history(limit = 20): SyncReport[] {
    return this.#db
      .all<{ report: string }>('SELECT report FROM sync_history ORDER BY id DESC LIMIT ?', [limit])
      .map((row) => JSON.parse(row.report) as SyncReport);
  }

  /** The changes made here wait for the next sync; closing never loses them. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#running?.catch(() => undefined);
    this.#setState('clock', this.#clock.last());
  }

  // ---- requests -----------------------------------------------------------------------------

  async #request<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      this.#report.requests += 1;
      try {
        return await work();
      } catch (error) {
        const passing = error instanceof TargetError && error.passing && error.problem !== 'full';
        if (!passing || attempt >= REQUEST_TRIES || this.#closed) throw error;
        await this.#sleep(1000 * 3 ** (attempt - 1));
      }
    }
  }

  #name(kind: ObjectKind, logical: string): string {
    return objectName(this.#keys, kind, logical);
  }

  async #fetch(kind: ObjectKind, name: string): Promise<Buffer | undefined | 'refused'> {
    const bytes = await this.#request(() => this.#target.get(name));
    if (bytes === undefined) return undefined;
    this.#report.downloaded.objects += 1;
    this.#report.downloaded.bytes += bytes.byteLength;
    try {
      return openObject(this.#keys, kind, name, bytes);
    } catch (error) {
      if (!(error instanceof SealedObjectError)) throw error;
      this.#report.refused.push({ name, reason: error.reason });
      return 'refused';
    }
  }

  async #upload(name: string, bytes: Uint8Array): Promise<void> {
    await this.#request(() => this.#target.putIfAbsent(name, bytes));
    this.#report.uploaded.objects += 1;
    this.#report.uploaded.bytes += bytes.byteLength;
  }

  // ---- a sync -------------------------------------------------------------------------------

  /** One sync: read every device's new changes, then send this one's. Runs one at a time. */
  sync(): Promise<SyncReport> {
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(): Promise<SyncReport> {
    this.#report = EMPTY_REPORT(this.#now().toISOString());
    this.#setStatus({ state: 'syncing', progress: null });
    try {
      // The heads first: a restored database learns its log numbers before it numbers new logs.
      await this.#readHeads();
      // This device's changes are stamped before it takes in what this sync brings: they were
      // made without seeing it.
      await this.#stageFiles();
      this.#stageDirty();
      await this.#pullLogs();
      await this.#uploadOutbox();
      if (this.#headOutdated()) await this.#writeHead();
      await this.#compact();
      await this.#dropSuperseded();
      await this.#collectBlobs();
      this.#failures = 0;
      this.#finish();
      this.#setStatus({
        state: 'idle',
        problem: null,
        retryAt: null,
        progress: null,
        lastSyncAt: this.#report.at,
        pendingChanges: this.#pendingCount(),
      });
    } catch (error) {
      this.#failures += 1;
      const problem = problemOf(error);
      this.#report.ok = false;
      this.#report.problem = problem;
      this.#finish();
      const offline = problem.problem === 'unreachable' || problem.problem === 'timeout';
      this.#setStatus({
        state: offline ? 'offline' : 'attention',
        problem,
        progress: null,
        retryAt: new Date(
          this.#now().getTime() + retryDelayMs(this.#failures, problem.problem),
        ).toISOString(),
        pendingChanges: this.#pendingCount(),
      });
    }
    if (Object.keys(this.#report.applied).length > 0)
      this.#onEvent({ type: 'applied', report: this.#report });
    return this.#report;
  }

  #finish(): void {
    this.#setState('clock', this.#clock.last());
    this.#db.run('INSERT INTO sync_history (at, report) VALUES (?, ?)', [
      this.#report.at,
      JSON.stringify(this.#report),
    ]);
    this.#db.run('DELETE FROM sync_history WHERE id <= (SELECT max(id) FROM sync_history) - ?', [
      HISTORY_KEPT,
    ]);
  }

  // ---- reading other devices ----------------------------------------------------------------

  /**
   * Lists the heads and reads the new ones. Their clock stamps are not taken in: only the
   * changes' own stamps are, as they are applied, so a change is stamped after what it saw.
   */
  async #readHeads(): Promise<void> {
    this.#newHeads = false;
    const before = this.#now().getTime();
    const listing = await this.#request(() => this.#target.list('h/'));
    this.#measureClock(listing.serverTime, before);
    const names = new Set(listing.objects.map((o) => o.name));
    const read = new Set(
      this.#db.all<{ name: string }>('SELECT name FROM sync_heads_read').map((r) => r.name),
    );
    for (const gone of read)
      if (!names.has(gone)) this.#db.run('DELETE FROM sync_heads_read WHERE name = ?', [gone]);
    const ownHead = this.#stateValue('head');
    if (ownHead !== undefined) {
      const mine = listing.objects.find((o) => o.name === ownHead);
      const size = Number(this.#stateValue('headSize') ?? -1);
      // A head the storage keeps short (or lost) is written again.
      if (mine === undefined || (size >= 0 && mine.size !== size)) this.#setState('headSeq', -1);
    }
    // The head before this device's newest, left by a sync cut short before it deleted it: read
    // already, so the loop below would pass over it.
    const replaced = this.#stateValue('headReplaced');
    if (replaced !== undefined) {
      if (names.has(replaced)) await this.#request(() => this.#target.delete(replaced));
      this.#setState('headReplaced', null);
    }
    for (const object of listing.objects) {
      if (read.has(object.name) || object.name === ownHead) continue;
      const opened = await this.#fetch('head', object.name);
      this.#db.run('INSERT OR IGNORE INTO sync_heads_read (name) VALUES (?)', [object.name]);
      if (opened === undefined || opened === 'refused') continue;
      const head = this.#parse(headSchema, opened, object.name);
      if (head === undefined) continue;
      if (head.d === this.device) {
        await this.#ownHead(object.name, head);
        continue;
      }
      this.#newHeads = true;
      this.#serveWants(head);
      const known = this.#db.one<DeviceRow>('SELECT * FROM sync_devices WHERE device = ?', [
        head.d,
      ]);
      const previous = known === undefined ? undefined : (JSON.parse(known.info) as HeadObject);
      // A device's heads only move on: the one stamped latest is its newest.
      if (previous === undefined || head.seq > previous.seq || head.hlc > previous.hlc)
        this.#db.run(
          `INSERT INTO sync_devices (device, head, info, applied) VALUES (?, ?, ?, 0)
            ON CONFLICT (device) DO UPDATE SET head = excluded.head, info = excluded.info`,
          [head.d, object.name, JSON.stringify(head)],
        );
    }
  }

  /** Applies every device's logs (or snapshot) not applied here yet, then what waited. */
  async #pullLogs(): Promise<void> {
    this.#caughtUp = true;
    const devices = this.#db.all<DeviceRow>('SELECT * FROM sync_devices');
    this.#setStatus({ devices: devices.filter((d) => d.device !== this.device).length });
    for (const row of devices) await this.#pullDevice(row);
    this.#retryPending();
    for (const source of new Set(this.#sources.values()))
      if (source.store === 'file') await source.settle?.();
    await this.#fetchBlobs();
  }

  /** One of this device's own heads that is not the one it wrote last. */
  async #ownHead(name: string, head: HeadObject): Promise<void> {
    if (head.seq > this.#seq()) {
      // This database is older than what this device already sent (a backup was restored):
      // its own later logs are applied like another device's, and its numbering goes on after.
      this.#db.run(
        `INSERT INTO sync_devices (device, head, info, applied) VALUES (?, ?, ?, ?)
          ON CONFLICT (device) DO UPDATE SET head = excluded.head, info = excluded.info`,
        [this.device, name, JSON.stringify(head), this.#seq()],
      );
      this.#setState('seq', head.seq);
      this.#setState('headSeq', -1);
      return;
    }
    // A head left behind by a sync cut short after writing its successor.
    await this.#request(() => this.#target.delete(name));
  }

  #measureClock(serverTime: Date | undefined, before: number): void {
    if (serverTime === undefined || Number.isNaN(serverTime.getTime())) return;
    const local = (before + this.#now().getTime()) / 2;
    // The header is cut to the second: the server's time was half a second later on average.
    const offset = serverTime.getTime() + 500 - local;
    // The Date header has a resolution of a second: smaller differences are noise.
    const next = Math.abs(offset) < 5_000 ? 0 : Math.round(offset);
    if (next !== this.#offsetMs) {
      this.#offsetMs = next;
      this.#setState('clockOffset', next);
      this.#setStatus({ clockOffsetMs: next });
    }
  }

  #parse<T>(
    schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } },
    bytes: Buffer,
    name: string,
  ): T | undefined {
    let data: unknown;
    try {
      data = JSON.parse(bytes.toString('utf8'));
    } catch {
      this.#report.refused.push({ name, reason: 'damaged' });
      return undefined;
    }
    const checked = schema.safeParse(data);
    if (!checked.success) {
      this.#report.refused.push({ name, reason: 'foreign' });
      return undefined;
    }
    return checked.data;
  }

  async #pullDevice(row: DeviceRow): Promise<void> {
    const head = JSON.parse(row.info) as HeadObject;
    let applied = row.applied;
    if (applied >= head.seq) return;
    if (applied + 1 < head.from) {
      if (head.snap === null) {
        this.#caughtUp = false;
        return;
      }
      const done = await this.#applySnapshot(head.d, head.snap);
      if (!done) {
        this.#caughtUp = false;
        return;
      }
      applied = this.#db.one<{ applied: number }>(
        'SELECT applied FROM sync_devices WHERE device = ?',
        [head.d],
      )!.applied;
    }
    const total = head.seq - applied;
    const names: string[] = [];
    for (let seq = applied + 1; seq <= head.seq; seq += 1)
      names.push(this.#name('log', `${head.d}:${seq}`));
    const downloads = new Map<number, Promise<Buffer | undefined | 'refused'>>();
    const start = (index: number) => {
      if (index < names.length && !downloads.has(index))
        downloads.set(index, this.#fetch('log', names[index]!));
    };
    for (let index = 0; index < names.length; index += 1) {
      for (let ahead = index; ahead < index + DOWNLOAD_AHEAD; ahead += 1) start(ahead);
      const seq = applied + 1 + index;
      let opened: Buffer | undefined | 'refused';
      try {
        opened = await downloads.get(index)!;
      } finally {
        downloads.delete(index);
      }
      // Deleted by its compaction (after the grace period): the next sync reads its new head
      // and snapshot.
      if (opened === undefined) {
        this.#caughtUp = false;
        break;
      }
      const log = opened === 'refused' ? undefined : this.#parse(logSchema, opened, names[index]!);
      if (log !== undefined && (log.d !== head.d || log.s !== seq))
        this.#report.refused.push({ name: names[index]!, reason: 'foreign' });
      const entities =
        log !== undefined && log.d === head.d && log.s === seq ? (log.e as WireEntity[]) : [];
      await this.#applyEntities(entities, () =>
        this.#db.run('UPDATE sync_devices SET applied = ? WHERE device = ?', [seq, head.d]),
      );
      this.#setStatus({ progress: { phase: 'apply', done: index + 1, total } });
    }
    // Quiet the unused downloads of a loop cut short.
    for (const pending of downloads.values()) void pending.catch(() => undefined);
  }

  async #applySnapshot(device: string, snap: SnapshotInfo): Promise<boolean> {
    const progressKey = `snapshot:${device}`;
    const saved = this.#stateValue(progressKey);
    let part = 0;
    if (saved !== undefined) {
      const progress = JSON.parse(saved) as { id: string; part: number };
      if (progress.id === snap.id) part = progress.part;
    }
    for (; part < snap.parts; part += 1) {
      const name = this.#name('snapshot', `${device}:${snap.id}:${part}`);
      const opened = await this.#fetch('snapshot', name);
      if (opened === undefined) return false;
      const body = opened === 'refused' ? undefined : this.#parse(snapshotPartSchema, opened, name);
      const entities =
        body !== undefined && body.id === snap.id && body.p === part
          ? (body.e as WireEntity[])
          : [];
      const next = part + 1;
      await this.#applyEntities(entities, () =>
        this.#setState(progressKey, JSON.stringify({ id: snap.id, part: next })),
      );
      this.#setStatus({ progress: { phase: 'apply', done: next, total: snap.parts } });
    }
    this.#db.transaction(() => {
      for (const [other, seq] of Object.entries(snap.covers)) {
        if (other === this.device) continue;
        this.#db.run(
          `INSERT INTO sync_devices (device, head, info, applied) VALUES (?, '', ?, ?)
            ON CONFLICT (device) DO UPDATE SET applied = max(applied, excluded.applied)`,
          [
            other,
            JSON.stringify({
              v: 1,
              d: other,
              label: '',
              seq: 0,
              from: 1,
              snap: null,
              seen: {},
              hlc: '000000000:0000:',
              at: '',
            }),
            seq,
          ],
        );
      }
      this.#setState(progressKey, null);
    });
    return true;
  }

  // ---- merging ------------------------------------------------------------------------------

  #meta(
    kind: string,
    id: string,
  ): { state: EntityState; activity: string | undefined } | undefined {
    const row = this.#db.one<{ fields: string; activity: string | null }>(
      'SELECT fields, activity FROM sync_meta WHERE kind = ? AND id = ?',
      [kind, id],
    );
    if (row === undefined) return undefined;
    return {
      state: toState(JSON.parse(row.fields) as StoredFields),
      activity: row.activity ?? undefined,
    };
  }

  #saveMeta(kind: string, id: string, state: EntityState, activity: string | undefined): void {
    this.#db.run(
      `INSERT INTO sync_meta (kind, id, fields, activity) VALUES (?, ?, ?, ?)
        ON CONFLICT (kind, id) DO UPDATE SET fields = excluded.fields, activity = excluded.activity`,
      [kind, id, JSON.stringify(fromState(state)), activity ?? null],
    );
  }

  #fieldState(kind: string, field: string, value: JsonValue, stamp: string): FieldState {
    const source = this.#sources.get(kind);
    const hash = hashValue(value);
    return source?.unkeptFields?.has(field) ? { h: stamp, hash } : { h: stamp, hash, v: value };
  }

  /** Applies a batch of entities, then `after` (marking them applied), as one transaction. */
  async #applyEntities(entities: WireEntity[], after: () => void): Promise<void> {
    const checked = entities.filter((entity) => wireEntitySchema.safeParse(entity).success);
    // Files first, outside the transaction; their state is saved inside it. A crash between the
    // two applies them again, which changes nothing.
    const fileWork = new Map<
      FileSource,
      Array<{ kind: string; id: string; won: Record<string, JsonValue> }>
    >();
    const fileStates: Array<{
      kind: string;
      id: string;
      state: EntityState;
      activity: string | undefined;
    }> = [];
    for (const [kind, id, fields] of checked) {
      const source = this.#sources.get(kind);
      if (source?.store !== 'file') continue;
      const meta = this.#meta(kind, id);
      const state = { ...(meta?.state ?? {}) };
      const won: Record<string, JsonValue> = {};
      for (const [field, [value, stamp]] of Object.entries(fields)) {
        const current = state[field];
        if (current !== undefined && current.h >= stamp) continue;
        won[field] = value as JsonValue;
        state[field] = this.#fieldState(kind, field, value as JsonValue, stamp);
        this.#clock.receive(stamp);
      }
      if (Object.keys(won).length === 0) continue;
      fileWork.set(source, [...(fileWork.get(source) ?? []), { kind, id, won }]);
      fileStates.push({ kind, id, state, activity: meta?.activity });
      this.#count(this.#report.applied, kind);
    }
    for (const [source, changes] of fileWork) await source.applyAll(changes);
    this.#db.transaction(() => {
      this.#db.run('INSERT INTO sync_guard (applying) VALUES (1)');
      try {
        for (const entry of fileStates)
          this.#saveMeta(entry.kind, entry.id, entry.state, entry.activity);
        for (const [kind, id, fields] of checked) {
          const source = this.#sources.get(kind);
          if (source?.store !== 'db') continue;
          this.#merge(source, kind, id, fields);
        }
        after();
      } finally {
        this.#db.run('DELETE FROM sync_guard');
      }
    });
  }

  #count(counts: Record<string, number>, kind: string): void {
    counts[kind] = (counts[kind] ?? 0) + 1;
  }

  /** Merges one entity's fields from another device; inside the apply transaction. */
  #merge(
    source: DbSource,
    kind: string,
    id: string,
    fields: Record<string, [unknown, string]>,
  ): void {
    const meta = this.#meta(kind, id);
    const pendingRow = this.#db.one<{ fields: string }>(
      'SELECT fields FROM sync_pending WHERE kind = ? AND id = ?',
      [kind, id],
    );
    const incoming: Record<string, [unknown, string]> = {
      ...(pendingRow ? (JSON.parse(pendingRow.fields) as Record<string, [unknown, string]>) : {}),
    };
    for (const [field, entry] of Object.entries(fields)) {
      const held = incoming[field];
      if (held === undefined || entry[1] > held[1]) incoming[field] = entry;
    }
    const state: EntityState = { ...(meta?.state ?? {}) };
    const won: Change['won'] = {};
    for (const [field, [value, stamp]] of Object.entries(incoming)) {
      const current = state[field];
      if (current !== undefined && current.h >= stamp) continue;
      won[field] = { v: value as JsonValue, h: stamp };
      state[field] = this.#fieldState(kind, field, value as JsonValue, stamp);
    }
    if (Object.keys(won).length === 0) {
      if (pendingRow)
        this.#db.run('DELETE FROM sync_pending WHERE kind = ? AND id = ?', [kind, id]);
      return;
    }
    const owner = source.activityOf?.(kind, won);
    const result = source.apply(kind, id, {
      won,
      merged: state,
      activity: meta?.activity,
      // Read only by a source that needs it (a message whose conversation is not here).
      owner: () => (owner === undefined ? undefined : this.#meta('conversation', owner)),
      known: meta !== undefined && Object.keys(meta.state).length > 0,
    } as Change);
    if (result === 'waiting') {
      this.#db.run(
        `INSERT INTO sync_pending (kind, id, fields) VALUES (?, ?, ?)
          ON CONFLICT (kind, id) DO UPDATE SET fields = excluded.fields`,
        [kind, id, JSON.stringify(incoming)],
      );
      return;
    }
    if (pendingRow) this.#db.run('DELETE FROM sync_pending WHERE kind = ? AND id = ?', [kind, id]);
    this.#saveMeta(kind, id, state, meta?.activity);
    for (const entry of Object.values(won)) this.#clock.receive(entry.h);
    if (result !== 'applied') return;
    this.#count(this.#report.applied, kind);
    if (kind === 'conversation') this.#noteConversation(id);
    if (owner !== undefined) {
      this.#noteConversation(owner);
      const stamp = Object.values(won).reduce<string | undefined>(
        (a, b) => laterStamp(a, b.h),
        undefined,
      )!;
      this.#bumpActivity(source, 'conversation', owner, stamp);
    }
  }

  #noteConversation(id: string): void {
    if (!this.#report.conversations.includes(id)) this.#report.conversations.push(id);
  }

  /** A message was added to a conversation: its activity moves on, which may bring it out of the trash. */
  #bumpActivity(source: DbSource, kind: string, id: string, stamp: string): void {
    const meta = this.#meta(kind, id);
    const before = meta?.activity;
    if (before !== undefined && before >= stamp) return;
    const state = meta?.state ?? {};
    this.#saveMeta(kind, id, state, stamp);
    const deleted = state.deleted;
    if (deleted?.v === true && stamp > deleted.h && (before === undefined || before <= deleted.h))
      source.apply(kind, id, { won: {}, merged: state, activity: stamp, known: true } as Change);
  }

  /** Changes that waited for what they need (a reply for its question) are tried again. */
  #retryPending(): void {
    for (let round = 0; round < 50; round += 1) {
      const rows = this.#db.all<{ kind: string; id: string; fields: string }>(
        'SELECT kind, id, fields FROM sync_pending',
      );
      if (rows.length === 0) return;
      const before = rows.length;
      this.#db.transaction(() => {
        this.#db.run('INSERT INTO sync_guard (applying) VALUES (1)');
        try {
          for (const row of rows) {
            const source = this.#sources.get(row.kind);
            if (source?.store !== 'db') continue;
            this.#db.run('DELETE FROM sync_pending WHERE kind = ? AND id = ?', [row.kind, row.id]);
            this.#merge(
              source,
              row.kind,
              row.id,
              JSON.parse(row.fields) as Record<string, [unknown, string]>,
            );
          }
        } finally {
          this.#db.run('DELETE FROM sync_guard');
        }
      });
      const after = this.#db.one<{ n: number }>('SELECT count(*) AS n FROM sync_pending')!.n;
      if (after >= before) return;
    }
  }

  // ---- file bytes ---------------------------------------------------------------------------

  #wantBlob(wanted: BlobWanted): void {
    this.#db.run(
      `INSERT INTO sync_blobs_wanted (sha256, message_id, files) VALUES (?, ?, ?)
        ON CONFLICT (sha256, message_id) DO UPDATE SET files = excluded.files`,
      [wanted.sha256, wanted.messageId, JSON.stringify(wanted.files)],
    );
  }

  #chat(): ChatSource | undefined {
    return this.#sources.get('message') as ChatSource | undefined;
  }

  async #fetchBlobs(): Promise<void> {
    const chat = this.#chat();
    if (chat === undefined) return;
    // A file not found ten times is looked for again when another device wrote a new head (one
    // that had its bytes may have uploaded them again, seeing this device's want).
    const shas = this.#db
      .all<{ sha256: string }>(
        'SELECT DISTINCT sha256 FROM sync_blobs_wanted WHERE tries < 10 OR ?',
        [this.#newHeads ? 1 : 0],
      )
      .map((r) => r.sha256);
    for (const sha256 of shas) {
      const name = this.#name('blob', sha256);
      const opened = await this.#fetch('blob', name);
      const valid =
        opened instanceof Buffer && createHash('sha256').update(opened).digest('hex') === sha256;
      if (opened instanceof Buffer && !valid)
        this.#report.refused.push({ name, reason: 'damaged' });
      this.#db.transaction(() => {
        if (!valid) {
          this.#db.run('UPDATE sync_blobs_wanted SET tries = tries + 1 WHERE sha256 = ?', [sha256]);
          return;
        }
        this.#db.run('INSERT INTO sync_guard (applying) VALUES (1)');
        try {
          for (const row of this.#db.all<{ message_id: string; files: string }>(
            'SELECT message_id, files FROM sync_blobs_wanted WHERE sha256 = ?',
            [sha256],
          ))
            chat.blobArrived(row.message_id, JSON.parse(row.files), opened);
          this.#db.run('DELETE FROM sync_blobs_wanted WHERE sha256 = ?', [sha256]);
          this.#db.run('INSERT OR IGNORE INTO sync_blobs_sent (sha256) VALUES (?)', [sha256]);
        } finally {
          this.#db.run('DELETE FROM sync_guard');
        }
      });
    }
  }

  // ---- sending this device's changes --------------------------------------------------------

  /** Compares a field read now with its synced state: a changed value gets a stamp now. */
  #changed(
    kind: string,
    id: string,
    current: Fields,
    state: EntityState,
    view: Fields,
    at?: number,
  ): Record<string, [JsonValue, string]> {
    const changed: Record<string, [JsonValue, string]> = {};
    const source = this.#sources.get(kind);
    for (const [field, value] of Object.entries(current)) {
      const known = state[field];
      const same =
        known !== undefined &&
        (field in view
          ? hashValue(view[field]) === hashValue(value)
          : known.hash === hashValue(value));
      if (same) continue;
      const stamp =
        known === undefined && source?.isDefault?.(kind, id, field, value) === true
          ? encodeStamp({ wall: 0, counter: 0, device: this.device })
          : this.#clock.now(at);
      changed[field] = [value, stamp];
      state[field] = this.#fieldState(kind, field, value, stamp);
    }
    return changed;
  }

  async #stageFiles(): Promise<void> {
    const sources = [...new Set(this.#sources.values())].filter(
      (s): s is FileSource => s.store === 'file',
    );
    if (sources.length === 0) return;
    const entities: WireEntity[] = [];
    const states: Array<[string, string, EntityState, string | undefined]> = [];
    for (const source of sources) {
      const now = await source.readAll();
      const present = new Set(now.map((e) => `${e.kind}\u0000${e.id}`));
      const all = [...now];
      for (const kind of source.kinds)
        for (const row of this.#db.all<{ id: string }>('SELECT id FROM sync_meta WHERE kind = ?', [
          kind,
        ]))
          if (!present.has(`${kind}\u0000${row.id}`))
            all.push({ kind, id: row.id, fields: { v: null } });
      for (const { kind, id, fields } of all) {
        const meta = this.#meta(kind, id);
        const state = { ...(meta?.state ?? {}) };
        const view: Fields = {};
        for (const [field, entry] of Object.entries(state))
          if ('v' in entry) view[field] = entry.v!;
        const changed = this.#changed(kind, id, fields, state, view);
        if (Object.keys(changed).length === 0) continue;
        entities.push([kind, id, changed]);
        states.push([kind, id, state, meta?.activity]);
      }
    }
    if (entities.length === 0) return;
    this.#db.transaction(() => {
      for (const [kind, id, state, activity] of states) this.#saveMeta(kind, id, state, activity);
      this.#sealLogs(entities);
    });
  }

  /**
   * Takes the stores' marked changes, a page at a time in the order they were first made, each
   * page sealed into the outbox with its state in one transaction. Each change is stamped at
   * the moment it was made (in that order), not when it is sent.
   */
  #stageDirty(): void {
    for (;;) {
      const done = this.#db.transaction(() => {
        const rows = this.#db.all<{ rowid: number; kind: string; id: string; at: string }>(
          'SELECT rowid, kind, id, at FROM sync_dirty ORDER BY rowid LIMIT ?',
          [ENTITIES_PER_OBJECT],
        );
        if (rows.length === 0) return true;
        // The triggers note the system's time; this device's clock may be set apart from it
        // (tests), and the storage's may be apart from both (the measured offset).
        const shift = this.#now().getTime() - Date.now() + this.#offsetMs;
        const byKind = new Map<string, string[]>();
        for (const row of rows) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row.id]);
        const reads = new Map<string, Fields | undefined | 'skip'>();
        for (const [kind, ids] of byKind) {
          const source = this.#sources.get(kind);
          if (source?.store !== 'db') continue;
          for (const [id, read] of source.read(kind, ids)) reads.set(`${kind}\u0000${id}`, read);
        }
        const changes = new Map<string, WireEntity>();
        const byTime = [...rows].sort((a, b) =>
          a.at < b.at ? -1 : a.at > b.at ? 1 : a.rowid - b.rowid,
        );
        for (const row of byTime) {
          const { kind, id } = row;
          const source = this.#sources.get(kind);
          const read = reads.get(`${kind}\u0000${id}`);
          if (source?.store !== 'db' || read === 'skip') continue;
          const meta = this.#meta(kind, id);
          const state = { ...(meta?.state ?? {}) };
          let current: Fields | undefined = read;
          if (current === undefined) {
            if (meta === undefined) continue;
            current = source.gone?.(kind, id, state);
            if (current === undefined) continue;
          }
          const view = source.localView
            ? source.localView(kind, state, meta?.activity)
            : Object.fromEntries(
                Object.entries(state)
                  .filter(([, e]) => 'v' in e)
                  .map(([f, e]) => [f, e.v!]),
              );
          const at = Date.parse(row.at);
          const changed = this.#changed(
            kind,
            id,
            current,
            state,
            view,
            Number.isNaN(at) ? undefined : at + shift,
          );
          if (Object.keys(changed).length === 0) continue;
          const conversation = source.activityOf?.(
            kind,
            Object.fromEntries(Object.entries(changed).map(([f, [v, h]]) => [f, { v, h }])),
          );
          if (conversation !== undefined) {
            const stamp = Object.values(changed).reduce<string | undefined>(
              (a, [, h]) => laterStamp(a, h),
              undefined,
            )!;
            const conversationMeta = this.#meta('conversation', conversation);
            if (conversationMeta?.activity === undefined || conversationMeta.activity < stamp)
              this.#saveMeta('conversation', conversation, conversationMeta?.state ?? {}, stamp);
          }
          this.#saveMeta(kind, id, state, this.#meta(kind, id)?.activity ?? meta?.activity);
          changes.set(`${kind}\u0000${id}`, [kind, id, changed]);
          this.#queueBlobs(source, changed);
        }
        this.#db.run('DELETE FROM sync_dirty WHERE rowid <= ?', [rows[rows.length - 1]!.rowid]);
        // Sent in the order first made: a conversation before its messages, a question before its answer.
        const entities = rows
          .map((row) => changes.get(`${row.kind}\u0000${row.id}`))
          .filter((entity): entity is WireEntity => entity !== undefined);
        if (entities.length > 0) this.#sealLogs(entities);
        return false;
      });
      if (done) return;
    }
  }

  #queueBlobs(source: DbSource, changed: Record<string, [JsonValue, string]>): void {
    if (!('blobsOf' in source)) return;
    const chat = source as unknown as ChatSource;
    const fields = Object.fromEntries(Object.entries(changed).map(([f, [v]]) => [f, v]));
    for (const sha256 of chat.blobsOf(fields)) {
      if (
        this.#db.one('SELECT 1 AS found FROM sync_blobs_sent WHERE sha256 = ?', [sha256]) !==
        undefined
      )
        continue;
      if (
        this.#db.one("SELECT 1 AS found FROM sync_outbox WHERE kind = 'blob' AND sha256 = ?", [
          sha256,
        ]) !== undefined
      )
        continue;
      this.#db.run("INSERT INTO sync_outbox (name, kind, sha256) VALUES (?, 'blob', ?)", [
        this.#name('blob', sha256),
        sha256,
      ]);
    }
  }

  /** Seals entities into numbered log objects in the outbox; inside the staging transaction. */
  #sealLogs(entities: WireEntity[]): void {
    let batch: WireEntity[] = [];
    let size = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const seq = this.#seq() + 1;
      const name = this.#name('log', `${this.device}:${seq}`);
      const body = Buffer.from(JSON.stringify({ v: 1, d: this.device, s: seq, e: batch }));
      this.#db.run("INSERT INTO sync_outbox (name, kind, seq, bytes) VALUES (?, 'log', ?, ?)", [
        name,
        seq,
        sealObject(this.#keys, 'log', name, body),
      ]);
      this.#setState('seq', seq);
      for (const [kind] of batch) this.#count(this.#report.sent, kind);
      batch = [];
      size = 0;
    };
    for (const entity of entities) {
      const length = JSON.stringify(entity).length;
      if (
        batch.length > 0 &&
        (size + length > MAX_OBJECT_JSON || batch.length >= ENTITIES_PER_OBJECT)
      )
        flush();
      batch.push(entity);
      size += length;
    }
    flush();
  }

  async #uploadOutbox(): Promise<void> {
    const total = this.#db.one<{ n: number }>('SELECT count(*) AS n FROM sync_outbox')!.n;
    let done = 0;
    const chat = this.#chat();
    for (;;) {
      const row = this.#db.one<{
        id: number;
        name: string;
        kind: string;
        seq: number | null;
        bytes: Uint8Array | null;
        sha256: string | null;
      }>('SELECT id, name, kind, seq, bytes, sha256 FROM sync_outbox ORDER BY id LIMIT 1');
      if (row === undefined) return;
      let bytes: Uint8Array | undefined =
        row.bytes === null ? undefined : new Uint8Array(row.bytes);
      if (row.kind === 'blob') {
        const content = row.sha256 === null ? undefined : chat?.content(row.sha256);
        bytes =
          content === undefined ? undefined : sealObject(this.#keys, 'blob', row.name, content);
      }
      if (bytes !== undefined) await this.#upload(row.name, bytes);
      this.#db.transaction(() => {
        this.#db.run('DELETE FROM sync_outbox WHERE id = ?', [row.id]);
        if (row.kind === 'log' && bytes !== undefined)
          this.#db.run(
            'INSERT OR REPLACE INTO sync_uploaded (name, seq, size, at) VALUES (?, ?, ?, ?)',
            [row.name, row.seq ?? 0, bytes.byteLength, this.#now().toISOString()],
          );
        if (row.kind === 'blob' && row.sha256 !== null)
          this.#db.run('INSERT OR IGNORE INTO sync_blobs_sent (sha256) VALUES (?)', [row.sha256]);
      });
      done += 1;
      this.#setStatus({ progress: { phase: 'upload', done, total } });
    }
  }

  #snapshot(): SnapshotInfo | null {
    const saved = this.#stateValue('snapshot');
    return saved === undefined ? null : (JSON.parse(saved) as SnapshotInfo);
  }

  /**
   * The oldest of this device's logs still in the storage. It only ever moves on: set before
   * old logs are deleted, so a head never points at a log that is gone.
   */
  #logsFrom(): number {
    const oldest =
      this.#db.one<{ seq: number | null }>('SELECT min(seq) AS seq FROM sync_uploaded')?.seq ??
      this.#seq() + 1;
    return Math.max(Number(this.#stateValue('logsFrom') ?? 1), oldest);
  }

  #seen(): Record<string, number> {
    const seen: Record<string, number> = {};
    for (const row of this.#db.all<{ device: string; applied: number }>(
      'SELECT device, applied FROM sync_devices ORDER BY device',
    ))
      if (row.device !== this.device) seen[row.device] = row.applied;
    return seen;
  }

  /**
   * A new head is due when this device wrote new logs, or applied other devices' logs (its head
   * tells them, so they may delete what every device has).
   */
  #headOutdated(): boolean {
    return (
      Number(this.#stateValue('headSeq') ?? -1) !== this.#seq() ||
      this.#stateValue('headSeen') !== JSON.stringify(this.#seen()) ||
      (this.#stateValue('headSnap') ?? '') !== (this.#snapshot()?.id ?? '') ||
      (this.#stateValue('headWant') ?? '[]') !== JSON.stringify(this.#wants())
    );
  }

  /** The files this device waits for and did not find in the storage. */
  #wants(): string[] {
    return this.#db
      .all<{ sha256: string }>(
        'SELECT DISTINCT sha256 FROM sync_blobs_wanted WHERE tries > 0 ORDER BY sha256 LIMIT ?',
        [WANTS_IN_HEAD],
      )
      .map((row) => row.sha256);
  }

  async #writeHead(): Promise<void> {
    const seq = this.#seq();
    const seen = this.#seen();
    const want = this.#wants();
    const snap = this.#snapshot();
    const head: HeadObject = {
      v: 1,
      d: this.device,
      label: this.#label,
      seq,
      from: Math.max(1, Math.min(this.#logsFrom(), seq + 1)),
      snap,
      seen,
      hlc: this.#clock.now(),
      at: this.#now().toISOString(),
      ...(want.length > 0 ? { want } : {}),
    };
    const name = this.#name('head', `${this.device}:${seq}:${randomBytes(6).toString('hex')}`);
    const bytes = sealObject(this.#keys, 'head', name, Buffer.from(JSON.stringify(head)));
    await this.#upload(name, bytes);
    const previous = this.#stateValue('head');
    this.#db.transaction(() => {
      this.#setState('head', name);
      this.#setState('headSize', bytes.byteLength);
      this.#setState('headSeq', seq);
      this.#setState('headSeen', JSON.stringify(seen));
      this.#setState('headSnap', snap?.id ?? '');
      this.#setState('headWant', JSON.stringify(want));
      this.#db.run('INSERT OR IGNORE INTO sync_heads_read (name) VALUES (?)', [name]);
      // Kept until it is deleted: a sync stopped before then deletes it next time.
      if (previous !== undefined && previous !== name) this.#setState('headReplaced', previous);
    });
    if (previous !== undefined && previous !== name) {
      await this.#request(() => this.#target.delete(previous));
      this.#setState('headReplaced', null);
    }
  }

  // ---- compaction ---------------------------------------------------------------------------

  async #compact(): Promise<void> {
    const snapshot = this.#snapshot();
    const covered = snapshot?.covers[this.device] ?? 0;
    const logBytes =
      this.#db.one<{ n: number | null }>('SELECT sum(size) AS n FROM sync_uploaded WHERE seq > ?', [
        covered,
      ])?.n ?? 0;
    const due =
      this.#stateValue('snapshotProgress') !== undefined ||
      (logBytes >= this.#compaction.minBytes &&
        logBytes >= (snapshot?.bytes ?? 0) * this.#compaction.ratio);
    if (!due) {
      await this.#dropCoveredLogs();
      return;
    }
    await this.#writeSnapshot();
    await this.#dropCoveredLogs();
  }

  /**
   * Writes a snapshot of everything synced here, a part at a time (the state by key, then the
   * changes still waiting), resuming a cut-short one at its part. It covers each device's log as
   * far as it had been applied when it began: what is applied later is in it or not, and is in
   * later logs either way, so reading it and the logs after loses nothing.
   */
  async #writeSnapshot(): Promise<void> {
    type Progress = {
      id: string;
      covers: Record<string, number>;
      part: number;
      after: [string, string] | null;
      phase: 'state' | 'pending' | 'done';
      bytes: number;
    };
    const saved = this.#stateValue('snapshotProgress');
    let progress: Progress;
    if (saved !== undefined) progress = JSON.parse(saved) as Progress;
    else {
      const covers: Record<string, number> = { [this.device]: this.#seq() };
      for (const row of this.#db.all<{ device: string; applied: number }>(
        'SELECT device, applied FROM sync_devices',
      ))
        if (row.device !== this.device) covers[row.device] = row.applied;
      progress = {
        id: randomBytes(8).toString('hex'),
        covers,
        part: 0,
        after: null,
        phase: 'state',
        bytes: 0,
      };
      this.#setState('snapshotProgress', JSON.stringify(progress));
    }
    while (progress.phase !== 'done') {
      let entities: WireEntity[];
      let next: Progress;
      if (progress.phase === 'state') {
        const rows = this.#db.all<{ kind: string; id: string; fields: string }>(
          progress.after === null
            ? 'SELECT kind, id, fields FROM sync_meta ORDER BY kind, id LIMIT ?'
            : 'SELECT kind, id, fields FROM sync_meta WHERE (kind, id) > (?, ?) ORDER BY kind, id LIMIT ?',
          progress.after === null
            ? [this.#compaction.partEntities ?? ENTITIES_PER_OBJECT]
            : [...progress.after, this.#compaction.partEntities ?? ENTITIES_PER_OBJECT],
        );
        if (rows.length === 0) {
          progress = { ...progress, phase: 'pending' };
          this.#setState('snapshotProgress', JSON.stringify(progress));
          continue;
        }
        entities = this.#snapshotEntities(rows);
        const last = rows[rows.length - 1]!;
        next = { ...progress, after: [last.kind, last.id] };
      } else {
        entities = this.#db
          .all<{ kind: string; id: string; fields: string }>(
            'SELECT kind, id, fields FROM sync_pending',
          )
          .map((row) => [
            row.kind,
            row.id,
            JSON.parse(row.fields) as Record<string, [unknown, string]>,
          ]);
        next = { ...progress, phase: 'done' };
        // Nothing waiting: no part for it, unless the snapshot would otherwise have none.
        if (entities.length === 0 && progress.part > 0) {
          progress = next;
          break;
        }
      }
      const name = this.#name('snapshot', `${this.device}:${progress.id}:${progress.part}`);
      const body = Buffer.from(
        JSON.stringify({ v: 1, d: this.device, id: progress.id, p: progress.part, e: entities }),
      );
      const bytes = sealObject(this.#keys, 'snapshot', name, body);
      await this.#upload(name, bytes);
      progress = { ...next, part: progress.part + 1, bytes: progress.bytes + bytes.byteLength };
      this.#setState('snapshotProgress', JSON.stringify(progress));
    }
    const previous = this.#snapshot();
    const info: SnapshotInfo = {
      id: progress.id,
      parts: progress.part,
      covers: progress.covers,
      bytes: progress.bytes,
    };
    this.#db.transaction(() => {
      this.#setState('snapshot', JSON.stringify(info));
      this.#setState('snapshotProgress', null);
      // The parts before go after the grace period, not now: a device may be reading them.
      if (previous !== null && previous.id !== info.id)
        this.#supersede(
          Array.from({ length: previous.parts }, (_, part) =>
            this.#name('snapshot', `${this.device}:${previous.id}:${part}`),
          ),
        );
    });
    await this.#writeHead();
  }

  #snapshotEntities(rows: Array<{ kind: string; id: string; fields: string }>): WireEntity[] {
    const out: WireEntity[] = [];
    const unkept = new Map<string, string[]>();
    const byKey = new Map<string, StoredFields>();
    for (const row of rows) {
      const stored = JSON.parse(row.fields) as StoredFields;
      byKey.set(`${row.kind}\u0000${row.id}`, stored);
      if (Object.values(stored).some((entry) => entry.length === 2))
        unkept.set(row.kind, [...(unkept.get(row.kind) ?? []), row.id]);
    }
    const values = new Map<string, Fields>();
    for (const [kind, ids] of unkept) {
      const source = this.#sources.get(kind);
      if (source?.store !== 'db') continue;
      for (const [id, read] of source.read(kind, ids))
        if (read !== undefined && read !== 'skip') values.set(`${kind}\u0000${id}`, read);
    }
    for (const row of rows) {
      const key = `${row.kind}\u0000${row.id}`;
      const stored = byKey.get(key)!;
      const now = values.get(key);
      const fields: Record<string, [unknown, string]> = {};
      for (const [field, entry] of Object.entries(stored)) {
        if (entry.length === 3) fields[field] = [entry[2], entry[0]];
        // A large field is read from the store; sent only if it is still the value synced.
        else if (now !== undefined && field in now && hashValue(now[field]) === entry[1])
          fields[field] = [now[field], entry[0]];
      }
      if (Object.keys(fields).length > 0) out.push([row.kind, row.id, fields]);
    }
    return out;
  }

  /**
   * Deletes this device's logs that its snapshot covers and that every device active in the last
   * 30 days has applied; a device away longer starts again from the snapshot.
   */
  async #dropCoveredLogs(): Promise<void> {
    const snapshot = this.#snapshot();
    if (snapshot === null) return;
    let upTo = snapshot.covers[this.device] ?? 0;
    const now = this.#now().getTime();
    for (const row of this.#db.all<DeviceRow>('SELECT * FROM sync_devices')) {
      if (row.device === this.device || row.head === '') continue;
      const head = JSON.parse(row.info) as HeadObject;
      if (now - new Date(head.at).getTime() > ACTIVE_DEVICE_MS) continue;
      upTo = Math.min(upTo, head.seen[this.device] ?? 0);
    }
    const old = this.#db.all<{ name: string }>(
      'SELECT name FROM sync_uploaded WHERE seq <= ? ORDER BY seq',
      [upTo],
    );
    if (old.length === 0) return;
    // The head says they are gone before they go, so no device looks for them after.
    if (Number(this.#stateValue('logsFrom') ?? 1) <= upTo) {
      this.#setState('logsFrom', upTo + 1);
      await this.#writeHead();
    }
    this.#db.transaction(() => {
      for (const { name } of old) this.#db.run('DELETE FROM sync_uploaded WHERE name = ?', [name]);
      this.#supersede(old.map((row) => row.name));
    });
  }

  // ---- deleting what nothing names any more ----------------------------------------------

  #superseded(): Array<{ n: string; at: number }> {
    return JSON.parse(this.#stateValue('superseded') ?? '[]') as Array<{ n: string; at: number }>;
  }

  /** Objects no head names any more, deleted after the grace period; inside a transaction. */
  #supersede(names: string[]): void {
    const at = this.#now().getTime();
    this.#setState(
      'superseded',
      JSON.stringify([...this.#superseded(), ...names.map((n) => ({ n, at }))]),
    );
  }

  /** Deletes the superseded objects whose grace period has passed. */
  async #dropSuperseded(): Promise<void> {
    const now = this.#now().getTime();
    // Read once: nothing else supersedes while the sync deletes (compaction ran before).
    let left = this.#superseded();
    for (const due of left.filter((entry) => now - entry.at >= SUPERSEDED_GRACE_MS)) {
      await this.#request(() => this.#target.delete(due.n));
      // Written after each deletion: a sync cut short leaves listed only what it did not delete.
      left = left.filter((entry) => entry !== due);
      this.#setState('superseded', JSON.stringify(left));
    }
  }

  /**
   * Once a day, deletes the files (`b/`) no message here names, none waits for and no device
   * asks for, that were already unnamed at the look a day before: a file uploaded just before
   * the log that names it is named by the time of the second look. Only after a sync that
   * applied every device's logs. A file deleted all the same (a device away longer, naming it
   * in changes it has not sent) is uploaded again by a device that has its bytes, when another
   * asks for it (`want` in the heads).
   */
  async #collectBlobs(): Promise<void> {
    const chat = this.#chat();
    if (chat === undefined || !this.#caughtUp) return;
    const now = this.#now().getTime();
    const marks = JSON.parse(this.#stateValue('blobMarks') ?? '{"at":0,"names":[]}') as {
      at: number;
      names: string[];
    };
    if (now - marks.at < BLOB_GC_INTERVAL_MS) return;
    const keep = new Set<string>();
    const named = (sha256: string) => keep.add(this.#name('blob', sha256));
    for (const sha256 of chat.referencedBlobs()) named(sha256);
    for (const row of this.#db.all<{ sha256: string }>(
      `SELECT sha256 FROM sync_blobs_wanted
        UNION SELECT sha256 FROM sync_outbox WHERE kind = 'blob' AND sha256 IS NOT NULL`,
    ))
      named(row.sha256);
    for (const row of this.#db.all<{ fields: string }>(
      "SELECT fields FROM sync_pending WHERE kind = 'message'",
    )) {
      const fields = JSON.parse(row.fields) as Record<string, [JsonValue, string]>;
      for (const sha256 of chat.blobsOf({ m: fields.m?.[0] ?? null })) named(sha256);
    }
    for (const row of this.#db.all<{ info: string }>('SELECT info FROM sync_devices'))
      for (const sha256 of (JSON.parse(row.info) as HeadObject).want ?? []) named(sha256);
    const listing = await this.#request(() => this.#target.list('b/'));
    const unnamed = listing.objects.map((o) => o.name).filter((name) => !keep.has(name));
    const marked = new Set(marks.names);
    const gone = new Set(unnamed.filter((name) => marked.has(name)));
    for (const name of gone) await this.#request(() => this.#target.delete(name));
    this.#db.transaction(() => {
      // Sent once, and gone: a message naming it again uploads it again.
      for (const row of this.#db.all<{ sha256: string }>('SELECT sha256 FROM sync_blobs_sent'))
        if (gone.has(this.#name('blob', row.sha256)))
          this.#db.run('DELETE FROM sync_blobs_sent WHERE sha256 = ?', [row.sha256]);
      this.#setState(
        'blobMarks',
        JSON.stringify({ at: now, names: unnamed.filter((name) => !gone.has(name)) }),
      );
    });
  }

  /** Another device waits for files this one has: they are uploaded again. */
  #serveWants(head: HeadObject): void {
    const chat = this.#chat();
    if (chat === undefined || head.want === undefined) return;
    for (const sha256 of head.want) {
      if (!chat.hasContent(sha256)) continue;
      if (
        this.#db.one("SELECT 1 AS found FROM sync_outbox WHERE kind = 'blob' AND sha256 = ?", [
          sha256,
        ]) !== undefined
      )
        continue;
      this.#db.run('DELETE FROM sync_blobs_sent WHERE sha256 = ?', [sha256]);
      this.#db.run("INSERT INTO sync_outbox (name, kind, sha256) VALUES (?, 'blob', ?)", [
        this.#name('blob', sha256),
        sha256,
      ]);
    }
  }
}

/** Brings sync's tables up to date and makes its triggers; call after the other domains. */
export async function migrateSync(db: Db, now?: () => Date): Promise<void> {
  await migrate(db, SYNC_DOMAIN, SYNC_MIGRATIONS, now);
  ensureTriggers(db);
}
