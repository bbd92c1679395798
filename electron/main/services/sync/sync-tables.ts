/**
 * Sync's tables in the app's SQLite file, and the triggers that tell it what changed.
 *
 * The stores' changes reach the engine through `sync_dirty`: triggers on the chat and prompt
 * tables add (kind, id) there in the same transaction as the change itself, whichever code path
 * made it (a send, an import, a rename, crash recovery), so a change is never missed and never
 * costs the store a line of its own. Only while sync is set up (`sync_tracking` has its row) and
 * never while the engine itself applies another device's changes (`sync_guard`, set and cleared
 * inside that transaction). A streaming reply is not marked until it ends (its status changes).
 * The triggers are made at each start when missing (`ensureTriggers`), so a table a later
 * version rebuilds gets them back.
 *
 * - `sync_state`: this device's id, its next log number, its clock, its head and snapshot.
 * - `sync_meta`: per entity, each field's stamp, hash and (small fields) value; a conversation's
 *   activity (the latest stamp of its messages).
 * - `sync_devices`: each other device's latest head, and how far its log has been applied here.
 * - `sync_heads_read`: the head objects already read, so a quiet sync reads none.
 * - `sync_pending`: changes that arrived before what they need (a reply before its question).
 * - `sync_outbox`: sealed objects waiting to be uploaded, written in the transaction that took
 *   the changes they carry: a sync killed before the upload uploads them next time.
 * - `sync_uploaded`: this device's log objects in the storage, for compaction.
 * - `sync_blobs_sent`, `sync_blobs_wanted`: file bytes uploaded, and awaited with their files.
 * - `sync_history`: what each sync brought and sent.
 * - `sync_links`: a connection or knowledge base made here from another computer's, by its
 *   synced id, with the fields last applied.
 */
import type { Db, Migration } from '../database';

export const SYNC_DOMAIN = 'sync';

export const SYNC_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sync state, change tracking, the outbox and history',
    up(db) {
      db.exec('CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      db.exec('CREATE TABLE sync_tracking (on_since TEXT NOT NULL)');
      db.exec('CREATE TABLE sync_guard (applying INTEGER NOT NULL)');
      // In the order things were first changed (rowid): a question before its answer.
      db.exec(`CREATE TABLE sync_dirty (rowid INTEGER PRIMARY KEY, kind TEXT NOT NULL,
        id TEXT NOT NULL, at TEXT NOT NULL, UNIQUE (kind, id))`);
      db.exec(`CREATE TABLE sync_meta (kind TEXT NOT NULL, id TEXT NOT NULL,
        fields TEXT NOT NULL, activity TEXT, PRIMARY KEY (kind, id)) WITHOUT ROWID`);
      db.exec(`CREATE TABLE sync_devices (device TEXT PRIMARY KEY, head TEXT NOT NULL,
        info TEXT NOT NULL, applied INTEGER NOT NULL DEFAULT 0)`);
      db.exec('CREATE TABLE sync_heads_read (name TEXT PRIMARY KEY) WITHOUT ROWID');
      db.exec(`CREATE TABLE sync_pending (kind TEXT NOT NULL, id TEXT NOT NULL,
        fields TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID`);
      db.exec(`CREATE TABLE sync_outbox (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
        kind TEXT NOT NULL, seq INTEGER, bytes BLOB, sha256 TEXT)`);
      db.exec(`CREATE TABLE sync_uploaded (name TEXT PRIMARY KEY, seq INTEGER NOT NULL,
        size INTEGER NOT NULL, at TEXT NOT NULL)`);
      db.exec('CREATE INDEX sync_uploaded_by_seq ON sync_uploaded (seq)');
      db.exec('CREATE TABLE sync_blobs_sent (sha256 TEXT PRIMARY KEY) WITHOUT ROWID');
      db.exec(`CREATE TABLE sync_blobs_wanted (sha256 TEXT NOT NULL, message_id TEXT NOT NULL,
        files TEXT NOT NULL, tries INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (sha256, message_id)) WITHOUT ROWID`);
      db.exec(`CREATE TABLE sync_history (id INTEGER PRIMARY KEY, at TEXT NOT NULL,
        report TEXT NOT NULL)`);
    },
  },
  {
    version: 2,
    name: 'links from synced ids to what sync made here (connections, knowledge bases)',
    up(db) {
      // A connection or a knowledge base made here by sync has an id of this computer's; the
      // fields last applied are kept with the link, and whether its key was asked for.
      db.exec(`CREATE TABLE sync_links (kind TEXT NOT NULL, sync_id TEXT NOT NULL,
        local_id TEXT, fields TEXT NOT NULL, asked INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (kind, sync_id)) WITHOUT ROWID`);
    },
  },
];

const WHEN = 'EXISTS (SELECT 1 FROM sync_tracking) AND NOT EXISTS (SELECT 1 FROM sync_guard)';

/** When the change was made: its clock stamp follows this, not the moment it is sent. */
const AT = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const MARK = (kind: string, id: string) =>
  `INSERT INTO sync_dirty (kind, id, at) VALUES ('${kind}', ${id}, ${AT})
      ON CONFLICT (kind, id) DO UPDATE SET at = excluded.at;`;

/** Each trigger, by the table it watches. */
const TRIGGERS: Record<string, string[]> = {
  chat_conversations: [
    `CREATE TRIGGER IF NOT EXISTS sync_conversation_insert AFTER INSERT ON chat_conversations
      WHEN ${WHEN} BEGIN
      ${MARK('conversation', 'new.id')}
    END`,
    `CREATE TRIGGER IF NOT EXISTS sync_conversation_update
      AFTER UPDATE OF title, pinned, model, system_prompt, temperature, max_tokens,
        current_leaf_id, updated_at, deleted_at, forked_from ON chat_conversations
      WHEN ${WHEN} BEGIN
      ${MARK('conversation', 'new.id')}
    END`,
    `CREATE TRIGGER IF NOT EXISTS sync_conversation_delete AFTER DELETE ON chat_conversations
      WHEN ${WHEN} BEGIN
      ${MARK('conversation', 'old.id')}
    END`,
  ],
  chat_messages: [
    `CREATE TRIGGER IF NOT EXISTS sync_message_insert AFTER INSERT ON chat_messages
      WHEN new.status != 'streaming' AND ${WHEN} BEGIN
      ${MARK('message', 'new.id')}
    END`,
    `CREATE TRIGGER IF NOT EXISTS sync_message_update
      AFTER UPDATE OF content, status, error, prompt_tokens, completion_tokens, total_tokens,
        finish_reason ON chat_messages
      WHEN new.status != 'streaming' AND ${WHEN} BEGIN
      ${MARK('message', 'new.id')}
    END`,
  ],
  chat_attachments: [
    `CREATE TRIGGER IF NOT EXISTS sync_attachment_insert AFTER INSERT ON chat_attachments
      WHEN ${WHEN} BEGIN
      ${MARK('message', 'new.message_id')}
    END`,
  ],
  prompts: [
    `CREATE TRIGGER IF NOT EXISTS sync_prompt_insert AFTER INSERT ON prompts WHEN ${WHEN} BEGIN
      ${MARK('prompt', "CASE WHEN new.builtin IS NULL THEN new.id ELSE 'builtin:' || new.builtin END")}
    END`,
    `CREATE TRIGGER IF NOT EXISTS sync_prompt_update AFTER UPDATE ON prompts WHEN ${WHEN} BEGIN
      ${MARK('prompt', "CASE WHEN new.builtin IS NULL THEN new.id ELSE 'builtin:' || new.builtin END")}
    END`,
    `CREATE TRIGGER IF NOT EXISTS sync_prompt_delete AFTER DELETE ON prompts WHEN ${WHEN} BEGIN
      ${MARK('prompt', "CASE WHEN old.builtin IS NULL THEN old.id ELSE 'builtin:' || old.builtin END")}
    END`,
  ],
};

/** Makes the triggers that are missing, on the tables that exist. */
export function ensureTriggers(db: Db): void {
  const tables = new Set(
    db
      .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .map((row) => row.name),
  );
  for (const [table, triggers] of Object.entries(TRIGGERS)) {
    if (!tables.has(table)) continue;
    for (const sql of triggers) db.exec(sql);
  }
}
