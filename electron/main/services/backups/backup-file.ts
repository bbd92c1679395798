/**
 * One backup is one SQLite file: a `VACUUM INTO` copy of the app's database, marked with the
 * app's SQLite application id, with two tables added to the copy: a manifest (who made it, when,
 * the schema version of each domain, the row count of every table at the moment of the copy, the
 * saved connections without their keys) and the app's small data files (settings, connections,
 * model preferences). A checksum file beside it (`sha256sum` format) is the claim that it was
 * verified: it is written last, after the copy was reopened read-only and checked.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { readRegularFile } from '../files/regular-file';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'libsql';
import { z } from 'zod';
import { AppError } from '../app-error';
import type { Db } from '../database';
import { said, type Said } from '../words';

/** SQLite's application id of a Relay Desktop backup: "RDBK". The live database keeps 0. */
export const BACKUP_APPLICATION_ID = 0x5244424b;
/** The layout of the file; a later layout is refused with the version that wrote it. */
export const BACKUP_FORMAT = 1;
export const MANIFEST_TABLE = 'relay_backup_manifest';
export const FILES_TABLE = 'relay_backup_files';
export const CHECKSUM_SUFFIX = '.sha256';
/** A checksum file is one line: anything longer is not one. */
const MAX_CHECKSUM_FILE_BYTES = 64 * 1024;

const SQLITE_HEADER = 'SQLite format 3\0';

export const BACKUP_REASONS = ['scheduled', 'manual', 'before-restore', 'quit'] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];

export interface BackupCounts {
  conversations: number;
  messages: number;
  embeddingRuns: number;
  images: number;
}

const countsSchema = z.object({
  conversations: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  embeddingRuns: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
});

export const manifestSchema = z.object({
  format: z.number().int().positive(),
  app: z.literal('Relay Desktop'),
  appVersion: z.string(),
  createdAt: z.string(),
  reason: z.enum(BACKUP_REASONS),
  installationId: z.string(),
  computerName: z.string(),
  /** The highest migration applied in each schema domain. */
  schema: z.record(z.string(), z.number().int().nonnegative()),
  /** Rows in every table of the live database at the moment of the copy. */
  tables: z.record(z.string(), z.number().int().nonnegative()),
  counts: countsSchema,
  files: z.array(z.object({ name: z.string(), bytes: z.number().int(), sha256: z.string() })),
  connections: z.array(
    z.object({ id: z.string(), name: z.string(), baseUrl: z.string(), hadKey: z.boolean() }),
  ),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/**
 * A file that cannot be restored: not there, not a backup, cut short, changed since its checksum,
 * another program's, made by a newer version, or damaged. `message` is for the person and says
 * what to do; nothing has changed when one is thrown.
 */
export function refusal(message: string | Said): AppError {
  return new AppError('invalid_request', message);
}

/** Whether `error` is a refusal of a backup file (`refusal`), not a fault on the way. */
export function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError && error.kind === 'invalid_request';
}

type Connection = InstanceType<typeof Database>;

/**
 * Opens a file read-only, as unchangeable (`mode=ro&immutable=1`): nothing in it can change, and
 * nothing is made beside it (a database in WAL mode would otherwise get a -wal and -shm file in
 * the person's folder). A file that changes while it is read fails its checks: the safe side.
 */
export function openReadOnly(path: string): Connection {
  return new Database(`${pathToFileURL(path).href}?mode=ro&immutable=1`);
}

function rows<T>(db: Connection, sql: string): T[] {
  return db.prepare(sql).all() as T[];
}

/** The tables whose rows are counted: every ordinary table but SQLite's own and the backup's. */
function countedTables(list: Array<{ name: string; sql: string | null }>): string[] {
  return list
    .filter(
      (t) =>
        !t.name.startsWith('sqlite_') &&
        t.name !== MANIFEST_TABLE &&
        t.name !== FILES_TABLE &&
        !/^\s*CREATE\s+VIRTUAL/i.test(t.sql ?? ''),
    )
    .map((t) => t.name)
    .sort();
}

const TABLE_LIST = "SELECT name, sql FROM sqlite_master WHERE type = 'table'";
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface Queryable {
  all<T>(sql: string): T[];
}

function countTablesOf(db: Queryable): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of countedTables(db.all(TABLE_LIST)))
    counts[table] = Number(
      db.all<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table)}`)[0]?.n,
    );
  return counts;
}

function schemaOf(db: Queryable): Record<string, number> {
  const has = db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
  );
  if (has.length === 0) return {};
  return Object.fromEntries(
    db
      .all<{ domain: string; version: number }>(
        'SELECT domain, max(version) AS version FROM schema_migrations GROUP BY domain',
      )
      .map((r) => [r.domain, Number(r.version)]),
  );
}

/** What a person recognises a backup by; a table missing in an older file counts as empty. */
function countsOf(db: Queryable): BackupCounts {
  const tables = new Set(db.all<{ name: string }>(TABLE_LIST).map((t) => t.name));
  const one = (table: string, sql: string) =>
    tables.has(table) ? Number(db.all<{ n: number }>(sql)[0]?.n ?? 0) : 0;
  return {
    conversations: one(
      'chat_conversations',
      'SELECT count(*) AS n FROM chat_conversations WHERE deleted_at IS NULL',
    ),
    messages: one(
      'chat_messages',
      `SELECT count(*) AS n FROM chat_messages m JOIN chat_conversations c ON c.id = m.conversation_id
       WHERE c.deleted_at IS NULL`,
    ),
    embeddingRuns: one('embedding_runs', 'SELECT count(*) AS n FROM embedding_runs'),
    images: one('images', 'SELECT count(*) AS n FROM images'),
  };
}

const asQueryable = (db: Connection): Queryable => ({ all: (sql) => rows(db, sql) });

/** The live database at one moment: row counts, schema versions and the person's counts. */
export interface Snapshot {
  tables: Record<string, number>;
  schema: Record<string, number>;
  counts: BackupCounts;
}

/**
 * Copies the live database to `target` with `VACUUM INTO` and counts its rows in the same
 * synchronous step: main's one connection is the only writer and JavaScript runs nothing else in
 * between, so the counts are those of the moment of the copy.
 */
export type CopyDatabase = (db: Db, target: string) => Snapshot;

export const vacuumInto: CopyDatabase = (db, target) => {
  const snapshot: Snapshot = {
    tables: countTablesOf(db),
    schema: schemaOf(db),
    counts: countsOf(db),
  };
  db.exec(`VACUUM INTO '${target.replace(/'/g, "''")}'`);
  return snapshot;
};

export interface DataFile {
  name: string;
  bytes: Uint8Array;
}

/** Marks the copy as a backup and adds its manifest and the data files. */
export function sealBackup(path: string, manifest: BackupManifest, files: DataFile[]): void {
  const db = new Database(path);
  try {
    db.exec(`PRAGMA application_id = ${BACKUP_APPLICATION_ID}`);
    db.exec(`CREATE TABLE ${MANIFEST_TABLE} (manifest TEXT NOT NULL)`);
    db.exec(`CREATE TABLE ${FILES_TABLE} (name TEXT PRIMARY KEY, content BLOB NOT NULL)`);
    db.prepare(`INSERT INTO ${MANIFEST_TABLE} (manifest) VALUES (?)`).run(JSON.stringify(manifest));
    const insert = db.prepare(`INSERT INTO ${FILES_TABLE} (name, content) VALUES (?, ?)`);
    for (const file of files) insert.run(file.name, Buffer.from(file.bytes));
  } finally {
    db.close();
  }
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The checksum file's text: what `sha256sum` writes, so `sha256sum -c` checks it too. */
export function checksumLine(hash: string, fileName: string): string {
  return `${hash}  ${fileName}\n`;
}

/** The hash a checksum file gives for `fileName`, or undefined if it names no such file. */
export function parseChecksum(text: string, fileName: string): string | undefined {
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (match && match[2] === fileName) return match[1];
  }
  return undefined;
}

async function readHeader(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const header = Buffer.alloc(100);
    const { bytesRead } = await handle.read(header, 0, 100, 0);
    return header.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export interface Inspection {
  manifest: BackupManifest;
  bytes: number;
  /** The checksum beside the file: matched, absent, or (for an unchecked file) not looked at. */
  checksum: 'matches' | 'absent';
  /** The data files it holds, checked against the manifest's hashes. */
  files: DataFile[];
}

export interface InspectOptions {
  /** The newest schema version of each domain this app knows. */
  knownSchema: Record<string, number>;
  appVersion: string;
  /** Skip the checksum (just written, not sealed by one yet). */
  skipChecksum?: boolean;
  /** Counts the copy must hold (the live database's at the moment of the copy). */
  expectTables?: Record<string, number>;
}

/** The schema domains the backup has at a later version than this app knows, or knows not at all. */
function newerDomains(schema: Record<string, number>, known: Record<string, number>): string[] {
  return Object.entries(schema)
    .filter(([domain, version]) => version > (known[domain] ?? 0))
    .map(([domain]) => domain);
}

function differences(expected: Record<string, number>, actual: Record<string, number>): string[] {
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  return [...names]
    .filter((name) => expected[name] !== actual[name])
    .map(
      (name) =>
        `${name}: ${actual[name] ?? 'missing'} rows where ${expected[name] ?? 'none'} were copied`,
    );
}

/**
 * Checks a backup through and through before anything is done with it, and throws
 * a `refusal` with the reason at the first problem: not there, not SQLite, cut short, changed
 * since its checksum, another program's file, made by a newer version, damaged, or not holding
 * the rows it recorded.
 */
export async function inspectBackup(path: string, options: InspectOptions): Promise<Inspection> {
  const name = basename(path);
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw refusal(said('backups.file.notAFile', { name }));
    size = info.size;
  } catch (error) {
    if (isRefusal(error)) throw error;
    throw refusal(said('backups.file.unreadable', { name, code: codeOf(error) }));
  }

  const header = await readHeader(path);
  if (header.length < 100 || header.subarray(0, 16).toString('latin1') !== SQLITE_HEADER) {
    throw refusal(
      size === 0 ? said('backups.file.empty', { name }) : said('backups.file.notSqlite', { name }),
    );
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  // The size in the header is valid only while its "valid for" counter matches the change counter.
  const pageCount =
    header.readUInt32BE(92) === header.readUInt32BE(24) ? header.readUInt32BE(28) : 0;
  const expectedSize = pageSize * pageCount;
  if (pageCount > 0 && size < expectedSize) {
    throw refusal(said('backups.file.incomplete', { name, size, expected: expectedSize }));
  }

  let checksum: Inspection['checksum'] = 'absent';
  if (!options.skipChecksum) {
    // The checksum file is read only as a small regular file: a pipe or a device in its place
    // counts as no checksum file (the backup is still checked whole), never as one to read.
    const read = await readRegularFile(`${path}${CHECKSUM_SUFFIX}`, MAX_CHECKSUM_FILE_BYTES);
    const text = read.ok ? new TextDecoder('utf-8').decode(read.bytes) : undefined;
    if (text !== undefined) {
      const expected = parseChecksum(text, name);
      const actual = await sha256File(path);
      if (expected !== actual) {
        throw refusal(said('backups.file.checksum', { name }));
      }
      checksum = 'matches';
    }
  }

  let db: Connection;
  try {
    db = openReadOnly(path);
  } catch (error) {
    throw refusal(said('backups.file.notOpened', { name, detail: messageOf(error) }));
  }
  try {
    const q = asQueryable(db);
    let applicationId: number;
    let tableNames: Set<string>;
    try {
      applicationId = Number(
        rows<{ application_id: number }>(db, 'PRAGMA application_id')[0]?.application_id,
      );
      tableNames = new Set(q.all<{ name: string }>(TABLE_LIST).map((t) => t.name));
    } catch (error) {
      throw refusal(said('backups.file.damagedUnreadable', { name, detail: messageOf(error) }));
    }
    if (applicationId !== BACKUP_APPLICATION_ID || !tableNames.has(MANIFEST_TABLE)) {
      throw refusal(
        tableNames.has('schema_migrations')
          ? said('backups.file.databaseNotBackup', { name })
          : said('backups.file.otherProgram', { name }),
      );
    }

    const raw = q.all<{ manifest: string }>(`SELECT manifest FROM ${MANIFEST_TABLE}`)[0]?.manifest;
    let parsedJson: unknown;
    try {
      parsedJson = JSON.parse(raw ?? '');
    } catch {
      parsedJson = undefined;
    }
    const format = (parsedJson as { format?: unknown } | undefined)?.format;
    const madeBy = (parsedJson as { appVersion?: unknown } | undefined)?.appVersion;
    if (typeof format === 'number' && format > BACKUP_FORMAT) {
      throw newerRefusal(name, typeof madeBy === 'string' ? madeBy : undefined, options.appVersion);
    }
    const parsed = manifestSchema.safeParse(parsedJson);
    if (!parsed.success) throw refusal(said('backups.file.manifestDamaged', { name }));
    const manifest = parsed.data;

    const newer = newerDomains({ ...manifest.schema, ...schemaOf(q) }, options.knownSchema);
    if (newer.length > 0) throw newerRefusal(name, manifest.appVersion, options.appVersion);

    const integrity = rows<{ integrity_check: string }>(db, 'PRAGMA integrity_check')
      .map((r) => r.integrity_check)
      .join('; ');
    if (integrity !== 'ok') {
      throw refusal(said('backups.file.integrity', { name, detail: integrity.slice(0, 300) }));
    }

    const tables = countTablesOf(q);
    const wrong = differences(options.expectTables ?? manifest.tables, tables);
    if (wrong.length > 0) {
      throw refusal(said('backups.file.rows', { name, detail: wrong.slice(0, 3).join('; ') }));
    }

    const files: DataFile[] = [];
    // libsql reads a BLOB as an ArrayBuffer.
    const stored = q
      .all<{ name: string; content: ArrayBuffer | Uint8Array }>(
        `SELECT name, content FROM ${FILES_TABLE} ORDER BY name`,
      )
      .map((s) => ({ name: s.name, bytes: new Uint8Array(s.content) }));
    for (const entry of manifest.files) {
      const file = stored.find((s) => s.name === entry.name);
      if (!file || sha256Of(file.bytes) !== entry.sha256) {
        throw refusal(said('backups.file.dataFile', { name, file: entry.name }));
      }
      files.push(file);
    }
    return { manifest, bytes: size, checksum, files };
  } finally {
    db.close();
  }
}

function newerRefusal(name: string, madeBy: string | undefined, running: string): AppError {
  return refusal(
    madeBy
      ? said('backups.file.newerVersion', { name, madeBy, running })
      : said('backups.file.newer', { name, running }),
  );
}

/** The manifest alone, for a listing: undefined when the file is not a readable backup. */
export function readManifest(path: string): BackupManifest | undefined {
  let db: Connection | undefined;
  try {
    db = openReadOnly(path);
    const raw = rows<{ manifest: string }>(db, `SELECT manifest FROM ${MANIFEST_TABLE}`)[0];
    const parsed = manifestSchema.safeParse(JSON.parse(raw?.manifest ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

export function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : messageOf(error);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
