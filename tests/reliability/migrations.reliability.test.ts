/**
 * Section 5, migrations: a database from every earlier schema version opens with its data intact;
 * a migration that throws halfway leaves the original file and a backup, never an empty database.
 *
 * The earlier versions of the file are those in which some domains did not exist yet, and those
 * in which the chat tables were still at their first version (before conversations were trees):
 * every combination is built from a database the real app filled (a conversation, an embedding
 * run, a generated image), by removing the tables of the domains that combination lacks, and by
 * writing the chat rows back into first-version tables where it has those. Each is then opened
 * by the app.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { CHAT_MIGRATIONS } from '../../electron/main/services/chat/migrations';
import {
  databasePath,
  migrate,
  MigrationError,
  openDatabase,
  type Db,
  type Migration,
  type SqlValue,
} from '../../electron/main/services/database';
import { openChatApp, type ChatApp } from '../fakes/chat-app';
import { supportLog } from './lib/app-log';
import { CANARY_KEY, CANARY_PROMPT, cleanUp, suiteDir, sweep } from './lib/canary';
import { recordFigures, type Figure } from './lib/record';

const DOMAINS = { chat: 'chat_%', embeddings: 'embedding_%', images: 'images%' } as const;
type Domain = keyof typeof DOMAINS;
const ALL = Object.keys(DOMAINS) as Domain[];

let relay: DemoRelay;
let template: string;
const dirs: string[] = [];
const figures: Figure[] = [];
const notes: string[] = [];

async function until<T>(find: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The data tables of a domain (not FTS shadow tables or virtual tables). */
function tablesOf(db: Db, domain: Domain): string[] {
  return db
    .all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE '%_fts_%' ORDER BY name",
      [DOMAINS[domain]],
    )
    .map((r) => r.name);
}

function dump(db: Db, domain: Domain): Record<string, unknown[]> {
  return Object.fromEntries(
    tablesOf(db, domain).map((t) => [
      t,
      // In a stable order of their own: a gallery indexed again inserts its rows in the order
      // it reads the folder, not the order they were first written in.
      sortRows(
        db.all<Record<string, unknown>>(`SELECT * FROM "${t}" ORDER BY rowid`).map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([k, v]) => [
              k,
              // Blobs (vectors) compared byte for byte, as hex.
              v instanceof ArrayBuffer || ArrayBuffer.isView(v)
                ? `blob:${Buffer.from(v instanceof ArrayBuffer ? v : v.buffer).toString('hex')}`
                : v,
            ]),
          ),
        ),
      ),
    ]),
  );
}

function sortRows<T>(rows: T[]): T[] {
  const key = (row: T) =>
    JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  return rows
    .map((row) => [key(row), row] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}

async function withDb<T>(dir: string, work: (db: Db) => T | Promise<T>): Promise<T> {
  const db = await openDatabase({ path: databasePath(dir) });
  try {
    return await work(db);
  } finally {
    db.close();
  }
}

/** Turns a copy of the template into the file of a version that had only `kept`. */
function removeDomains(db: Db, kept: Domain[]): void {
  db.exec('PRAGMA foreign_keys = OFF');
  for (const domain of ALL.filter((d) => !kept.includes(d))) {
    const objects = db.all<{ name: string; type: string; sql: string | null }>(
      "SELECT name, type, sql FROM sqlite_master WHERE name LIKE ? AND type IN ('table', 'trigger', 'view')",
      [DOMAINS[domain]],
    );
    // Virtual tables first (they own their shadow tables), then triggers and views, then the
    // tables, children before parents.
    for (const o of objects.filter((o) => o.sql?.startsWith('CREATE VIRTUAL')))
      db.exec(`DROP TABLE IF EXISTS "${o.name}"`);
    for (const o of objects.filter((o) => o.type === 'trigger'))
      db.exec(`DROP TRIGGER IF EXISTS "${o.name}"`);
    for (const o of objects.filter((o) => o.type === 'view'))
      db.exec(`DROP VIEW IF EXISTS "${o.name}"`);
    for (const o of objects.filter((o) => o.type === 'table').reverse())
      db.exec(`DROP TABLE IF EXISTS "${o.name}"`);
    db.run('DELETE FROM schema_migrations WHERE domain = ?', [domain]);
  }
  db.exec('PRAGMA foreign_keys = ON');
}

/** The columns the first version of the chat tables had. */
const CHAT_V1_COLUMNS = {
  chat_conversations: [
    'id',
    'title',
    'created_at',
    'updated_at',
    'pinned',
    'model',
    'system_prompt',
    'temperature',
    'max_tokens',
    'deleted_at',
  ],
  chat_messages: [
    'rowid',
    'id',
    'conversation_id',
    'seq',
    'role',
    'content',
    'status',
    'error',
    'prompt_tokens',
    'completion_tokens',
    'total_tokens',
    'model',
    'finish_reason',
    'created_at',
  ],
} as const;

/** Puts the chat rows back into the tables of chat version 1, as a file of that version had them. */
function chatToVersionOne(db: Db): void {
  const saved = Object.fromEntries(
    Object.entries(CHAT_V1_COLUMNS).map(([table, columns]) => [
      table,
      db.all<Record<string, SqlValue>>(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY rowid`),
    ]),
  );
  removeDomains(
    db,
    ALL.filter((d) => d !== 'chat'),
  );
  db.transaction(() => {
    CHAT_MIGRATIONS[0]!.up(db);
    db.run(
      "INSERT INTO schema_migrations (domain, version, name, applied_at) VALUES ('chat', 1, ?, ?)",
      [CHAT_MIGRATIONS[0]!.name, new Date().toISOString()],
    );
    for (const [table, columns] of Object.entries(CHAT_V1_COLUMNS))
      for (const row of saved[table]!)
        db.run(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          columns.map((c) => row[c] ?? null),
        );
  });
}

/** The chat rows as version 1 had them, for comparing a file migrated from that version. */
function chatVersionOneDump(db: Db): Record<string, unknown[]> {
  return Object.fromEntries(
    Object.entries(CHAT_V1_COLUMNS).map(([table, columns]) => [
      table,
      db.all(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY rowid`),
    ]),
  );
}

function subsets(): Domain[][] {
  return Array.from({ length: 2 ** ALL.length }, (_, mask) =>
    ALL.filter((_, i) => mask & (1 << i)),
  );
}

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [CANARY_KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
  template = await suiteDir('migrations-template');
  dirs.push(template);
  const app: ChatApp = await openChatApp(template, undefined, { log: supportLog(template) });
  try {
    await app.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: CANARY_KEY });
    const conversation = await app.api.createConversation({ model: 'demo-chat-fast' });
    const sent = await app.api.sendMessage({
      conversationId: conversation.id,
      text: CANARY_PROMPT,
    });
    await app.finished(sent.replyId);
    const { runId } = await app.api.startEmbeddingRun({
      model: 'demo-embedding',
      inputs: ['first text', 'second text', 'third'],
    });
    await until(async () => {
      const run = await app.api.getEmbeddingRun({ runId });
      return run.status === 'done' ? run : undefined;
    }, 'the embedding run');
    await app.api.generateImages({
      requestId: randomUUID(),
      model: 'demo-image',
      prompt: 'a lighthouse on a cliff',
      size: '256x256',
      count: 2,
    });
    // The gallery indexes its folder in the background, a while after opening: a person's data
    // folder holds that index, so the template does too.
    await app.services.gallery.whenIndexed();
  } finally {
    await app.services.close();
  }
});
afterAll(async () => {
  await relay.close();
  const swept = sweep(dirs);
  figures.push({
    name: 'Canary key in the folders',
    value: swept.hits.length,
    target: '0',
    ok: swept.hits.length === 0,
  });
  recordFigures(5, 'Migrations', figures, notes);
  cleanUp(dirs);
  expect(swept.hits).toEqual([]);
});

it('opens a database of every earlier schema version with all its data intact', async () => {
  const original = (await withDb(template, (db) =>
    Object.fromEntries(ALL.map((d) => [d, dump(db, d)])),
  )) as Record<Domain, Record<string, unknown[]>>;
  const rowsIn = (d: Domain) => Object.values(original[d]).reduce((n, rows) => n + rows.length, 0);
  for (const d of ALL) expect(rowsIn(d), `rows of ${d} in the template`).toBeGreaterThan(0);

  const originalChatV1 = await withDb(template, chatVersionOneDump);
  type Version = { kept: Domain[] | 'no file'; chatV1: boolean };
  const versions: Version[] = [
    ...subsets().map((kept) => ({ kept, chatV1: false })),
    ...subsets()
      .filter((kept) => kept.includes('chat'))
      .map((kept) => ({ kept, chatV1: true })),
    { kept: 'no file', chatV1: false },
  ];
  let intact = 0;
  let rowsCompared = 0;
  const openMs: number[] = [];
  for (const { kept, chatV1 } of versions) {
    const label =
      kept === 'no file'
        ? 'no database file'
        : `domains {${kept.join(', ')}}${chatV1 ? ' with chat at version 1' : ''}`;
    const dir = await suiteDir('migrations-case');
    dirs.push(dir);
    if (kept !== 'no file') {
      cpSync(template, dir, { recursive: true });
      await withDb(dir, (db) => {
        removeDomains(db, kept);
        if (chatV1) chatToVersionOne(db);
      });
    }
    const started = performance.now();
    const app = await openChatApp(dir, undefined, { log: supportLog(dir) });
    openMs.push(performance.now() - started);
    try {
      const conversations = await app.api.listConversations();
      expect(conversations.length, label).toBe(kept !== 'no file' && kept.includes('chat') ? 1 : 0);
      const runs = await app.api.listEmbeddingRuns();
      expect(runs.length, label).toBe(kept !== 'no file' && kept.includes('embeddings') ? 1 : 0);
      // The gallery is indexed in the background (the copy's folder is new to it): its rows are
      // compared once that is done.
      await app.services.gallery.whenIndexed();
    } finally {
      await app.services.close();
    }
    await withDb(dir, (db) => {
      expect(db.integrityCheck(), label).toBe('ok');
      const applied = db.all<{ domain: string; version: number }>(
        'SELECT domain, version FROM schema_migrations ORDER BY domain',
      );
      expect([...new Set(applied.map((r) => r.domain))].sort(), label).toEqual([
        'chat',
        'embeddings',
        'images',
        'knowledge',
        'prompts',
      ]);
      expect(
        applied.filter((r) => r.domain === 'chat').map((r) => r.version),
        label,
      ).toEqual(CHAT_MIGRATIONS.map((m) => m.version));
      for (const d of ALL) {
        const now = dump(db, d);
        if (chatV1 && d === 'chat') {
          // The rows of version 1, as they were; the tree derived from them; the usage kept.
          expect(chatVersionOneDump(db), `${label}: chat rows`).toEqual(originalChatV1);
          const messages = db.all<{ id: string; parent_id: string | null; seq: number }>(
            'SELECT id, parent_id, seq FROM chat_messages ORDER BY conversation_id, seq',
          );
          expect(
            messages.map((m) => m.parent_id),
            `${label}: each message under the one before`,
          ).toEqual(messages.map((m, i) => (m.seq === 0 ? null : messages[i - 1]!.id)));
          expect(
            db.all('SELECT message_id, model, prompt_tokens, completion_tokens FROM chat_usage'),
            `${label}: usage`,
          ).toEqual(
            (original.chat.chat_usage as Record<string, unknown>[]).map(
              ({ message_id, model, prompt_tokens, completion_tokens }) => ({
                message_id,
                model,
                prompt_tokens,
                completion_tokens,
              }),
            ),
          );
          rowsCompared += rowsIn(d);
        } else if (kept !== 'no file' && kept.includes(d)) {
          // The copy lives in another folder: paths the rows hold move with it.
          const moved = JSON.parse(
            JSON.stringify(original[d]).split(template).join(dir),
          ) as unknown;
          expect(now, `${label}: ${d} rows`).toEqual(moved);
          rowsCompared += rowsIn(d);
        } else if (d !== 'images') {
          // (The gallery re-indexes the image files in its folder, so images may come back.)
          for (const [table, rows] of Object.entries(now))
            expect(rows, `${label}: ${table}`).toEqual([]);
        }
      }
    });
    const backups = readdirSync(dir).filter((f) => f.includes('.before-'));
    if (kept !== 'no file' && kept.length > 0 && (kept.length < ALL.length || chatV1))
      expect(backups.length, `${label}: a backup before migrating`).toBeGreaterThan(0);
    intact++;
  }
  figures.push(
    {
      name: 'Earlier schema versions opened (every combination of domains, with chat at each version, and no file)',
      value: versions.length,
    },
    {
      name: 'Opened with every row intact',
      value: `${intact} of ${versions.length}`,
      ok: intact === versions.length,
    },
    { name: 'Rows compared value by value', value: rowsCompared },
    { name: 'Open and migrate, max', value: Math.round(Math.max(...openMs)), unit: 'ms' },
  );
  notes.push(
    `The template held, per domain, ${ALL.map((d) => `${d}: ${rowsIn(d)} rows`).join(', ')}; it was made by the app itself against the demo relay (a streamed reply, a finished embedding run, two generated images).`,
  );
}, 120_000);

it('a migration that throws halfway leaves the original data and a backup, never an empty database', async () => {
  const dir = await suiteDir('migrations-throw');
  dirs.push(dir);
  cpSync(template, dir, { recursive: true });
  const before = await withDb(dir, (db) => dump(db, 'chat'));
  const next = Math.max(...CHAT_MIGRATIONS.map((m) => m.version)) + 1;
  const broken: Migration = {
    version: next,
    name: 'half done on purpose',
    up: (db) => {
      db.exec('CREATE TABLE chat_half_done (x TEXT)');
      db.exec('DELETE FROM chat_messages');
      db.exec('DELETE FROM chat_conversations');
      throw new Error('disk full (simulated)');
    },
  };
  const error = await withDb(dir, (db) =>
    migrate(db, 'chat', [...CHAT_MIGRATIONS, broken]).catch((e: unknown) => e),
  );
  expect(error).toBeInstanceOf(MigrationError);
  const failure = error as MigrationError;
  expect(failure.message).toMatch(
    new RegExp(
      `Updating the chat data \\(step ${next}, half done on purpose\\) failed: disk full \\(simulated\\)\\. Your data was left as it was, and a copy was kept at .*\\.bak\\.`,
    ),
  );
  expect(failure.backupPath).toBeDefined();
  expect(existsSync(failure.backupPath as string)).toBe(true);
  const after = await withDb(dir, (db) => {
    expect(db.integrityCheck()).toBe('ok');
    expect(db.all("SELECT name FROM sqlite_master WHERE name = 'chat_half_done'")).toEqual([]);
    return dump(db, 'chat');
  });
  expect(after).toEqual(before);
  const backup = await openDatabase({ path: failure.backupPath as string });
  let backupRows: Record<string, unknown[]>;
  try {
    backupRows = dump(backup, 'chat');
  } finally {
    backup.close();
  }
  expect(backupRows).toEqual(before);
  const size = statSync(databasePath(dir)).size;
  expect(size).toBeGreaterThan(0);
  // And the app opens the file afterwards with the conversation there.
  const app = await openChatApp(dir);
  try {
    expect((await app.api.listConversations()).length).toBe(1);
  } finally {
    await app.services.close();
  }
  const rows = Object.values(before).reduce((n, r) => n + r.length, 0);
  figures.push(
    {
      name: 'Throwing migration: error',
      value: 'MigrationError naming the step, the cause and the backup',
      ok: true,
    },
    {
      name: 'Throwing migration: rows kept in the original file',
      value: `${rows} of ${rows}`,
      ok: true,
    },
    { name: 'Throwing migration: backup file with the same rows', value: 'yes', ok: true },
    {
      name: 'Throwing migration: database file size afterwards',
      value: size,
      unit: 'bytes',
      target: '> 0',
      ok: size > 0,
    },
  );
});
