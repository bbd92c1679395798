/**
 * The app's one SQLite file (conversations, embeddings runs, the image index), through libsql:
 * SQLite with prebuilt N-API binaries, so the same build runs under Node and Electron.
 *
 * Each feature owns its migrations, numbered within its own domain, so features evolve their
 * tables independently. Before any pending migration runs, the file is copied aside; a migration
 * that fails is rolled back, the file stays as it was, and nothing is ever reset.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import Database from 'libsql';
import type { z } from 'zod';
import { createPrivateFile } from './data-files';

export const DATABASE_FILE = 'relay-desktop.db';

export interface Migration {
  version: number;
  /** What it does, for the error message when it fails. */
  name: string;
  up(db: Db): void;
}

export type SqlValue = string | number | bigint | null | Uint8Array;
export type Params = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

/** A failed migration: the database was left as it was, and a backup was kept. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  constructor(
    message: string,
    readonly domain: string,
    readonly version: number,
    readonly backupPath: string | undefined,
  ) {
    super(message);
  }
}

type Statement = ReturnType<InstanceType<typeof Database>['prepare']>;

/** U+0000, which libsql's binding treats as the end of a string. */
const NUL = /\0/g;

function bindableValue(value: SqlValue): SqlValue {
  return typeof value === 'string' && value.includes('\0') ? value.replace(NUL, '\uFFFD') : value;
}

/**
 * libsql cuts a bound string at its first NUL character and silently stores only what came
 * before it (a model reply containing U+0000 lost everything after it). So each NUL is bound as
 * U+FFFD, the replacement character: one character changed instead of the rest of the text lost.
 */
function bindable(params: Params): Params {
  if (Array.isArray(params)) {
    const list = params as readonly SqlValue[];
    return list.some((value) => typeof value === 'string' && value.includes('\0'))
      ? list.map(bindableValue)
      : list;
  }
  const named = params as Readonly<Record<string, SqlValue>>;
  if (!Object.values(named).some((value) => typeof value === 'string' && value.includes('\0')))
    return named;
  return Object.fromEntries(
    Object.entries(named).map(([key, value]) => [key, bindableValue(value)]),
  );
}

/**
 * A thin, typed face over the connection. It exists because libsql's `get()` adds a
 * `_metadata` field to each row, which must never leak into exports or IPC answers.
 */
export class Db {
  readonly #db: InstanceType<typeof Database>;
  readonly #statements = new Map<string, Statement>();

  constructor(
    readonly path: string,
    db: InstanceType<typeof Database>,
  ) {
    this.#db = db;
  }

  #prepare(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  run(sql: string, params: Params = []): { changes: number; lastInsertRowid: number | bigint } {
    const info = this.#prepare(sql).run(bindable(params) as never) as {
      changes: number;
      lastInsertRowid: number | bigint;
    };
    return { changes: info.changes, lastInsertRowid: info.lastInsertRowid };
  }

  all<T>(sql: string, params: Params = []): T[] {
    return this.#prepare(sql).all(bindable(params) as never) as T[];
  }

  one<T>(sql: string, params: Params = []): T | undefined {
    return this.all<T>(sql, params)[0];
  }

  /** Runs `work` in one transaction: all of it, or (if it throws) none of it. */
  transaction<T>(work: () => T): T {
    return this.#db.transaction(work)();
  }

  integrityCheck(): string {
    return this.all<{ integrity_check: string }>('PRAGMA integrity_check')
      .map((r) => r.integrity_check)
      .join('; ');
  }

  /**
   * Folds the WAL back into the file, then closes. libsql cannot finalize a prepared statement
   * (it waits for the garbage collector), and SQLite only checkpoints on close when no statement
   * is left, so without the explicit checkpoint the last writes would stay in the WAL beside
   * the file after every quit.
   */
  close(): void {
    try {
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      this.#statements.clear();
      this.#db.close();
    }
  }
}

export interface OpenDatabaseOptions {
  /** The file; `:memory:` for tests that need no file. */
  path: string;
  now?: () => Date;
}

/** Opens the file in WAL mode with foreign keys on, creating it (and its folder) if needed. */
export async function openDatabase({ path }: OpenDatabaseOptions): Promise<Db> {
  if (path !== ':memory:') await mkdir(dirname(path), { recursive: true });
  const db = new Db(path, new Database(path));
  // First: every statement after it, the journal mode included, then waits for a lock held by
  // another connection (one recovering the WAL after a crash, say) instead of failing at once.
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  // NORMAL is durable across application crashes in WAL mode; only a power cut can lose the
  // last commits, which FULL would prevent at a large cost per write.
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    domain TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (domain, version)
  )`);
  if (db.one('SELECT 1 AS found FROM schema_migrations LIMIT 1') === undefined)
    onlyMigrated.set(db, totalChanges(db));
  return db;
}

/**
 * For a database that held nothing when it was opened: its total_changes() after the last
 * migration. While that count stands, only migrations have written to it. A new file's first
 * start makes every domain's tables one after another, and has nothing yet to copy before any.
 */
const onlyMigrated = new WeakMap<Db, number>();

function totalChanges(db: Db): number {
  return db.one<{ n: number }>('SELECT total_changes() AS n')?.n ?? 0;
}

function holdsData(db: Db): boolean {
  const mark = onlyMigrated.get(db);
  return mark === undefined || totalChanges(db) !== mark;
}

/**
 * A JSON value read from a column, or undefined when it does not parse (a damaged row) or, given
 * a schema, has another shape.
 */
export function parseStoredJson(json: string): unknown;
export function parseStoredJson<T>(json: string, schema: z.ZodType<T>): T | undefined;
export function parseStoredJson<T>(json: string, schema?: z.ZodType<T>): unknown {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (schema === undefined) return value;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function databasePath(userDataDir: string): string {
  return join(userDataDir, DATABASE_FILE);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Brings one domain's tables up to date. A copy of the whole file is taken first (with
 * `VACUUM INTO`, consistent even in WAL mode), named after the domain and version it preceded.
 */
export async function migrate(
  db: Db,
  domain: string,
  migrations: readonly Migration[],
  now: () => Date = () => new Date(),
): Promise<{ applied: number[]; backupPath?: string }> {
  const done = new Set(
    db
      .all<{ version: number }>('SELECT version FROM schema_migrations WHERE domain = ?', [domain])
      .map((r) => r.version),
  );
  const pending = [...migrations]
    .filter((m) => !done.has(m.version))
    .sort((a, b) => a.version - b.version);
  if (pending.length === 0) return { applied: [] };

  let backupPath: string | undefined;
  const first = pending[0] as Migration;
  // A file that holds nothing yet has nothing to lose; any other is copied first.
  const held = holdsData(db);
  if (db.path !== ':memory:' && held && (await exists(db.path))) {
    const stamp = now().toISOString().replace(/[:.]/g, '-');
    backupPath = `${db.path}.before-${domain}-${first.version}-${stamp}.bak`;
    await rm(backupPath, { force: true });
    // Readable by this user only from the start, like the database it copies.
    await createPrivateFile(backupPath);
    db.exec(`VACUUM INTO '${backupPath.replace(/'/g, "''")}'`);
  }

  const applied: number[] = [];
  for (const migration of pending) {
    try {
      db.transaction(() => {
        migration.up(db);
        db.run(
          'INSERT INTO schema_migrations (domain, version, name, applied_at) VALUES (?, ?, ?, ?)',
          [domain, migration.version, migration.name, now().toISOString()],
        );
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new MigrationError(
        `Updating the ${domain} data (step ${migration.version}, ${migration.name}) failed: ${why}. Your data was left as it was${backupPath ? `, and a copy was kept at ${backupPath}` : ''}.`,
        domain,
        migration.version,
        backupPath,
      );
    }
    applied.push(migration.version);
  }
  if (!held) onlyMigrated.set(db, totalChanges(db));
  return backupPath === undefined ? { applied } : { applied, backupPath };
}
