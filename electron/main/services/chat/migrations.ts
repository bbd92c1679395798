/**
 * The chat tables: conversations, their messages, and an FTS5 index over message text.
 *
 * The index is external-content (it stores no second copy of the text) and is kept in step by
 * triggers, so every write path, imports and crash recovery included, updates it the same way.
 * Prefix indexes of 2 and 3 characters keep search-as-you-type fast on a short last word.
 *
 * Each conversation keeps its message count and token sums in its own row, kept in step by
 * triggers (version 2): the list of conversations reads them instead of counting and summing
 * every message of every conversation, which took seconds on 500,000 messages.
 *
 * Version 3 makes each conversation a tree: every message has a parent (none for the first), an
 * edit or a regenerate adds a sibling instead of replacing anything, and the conversation remembers
 * the path it shows by its last message (`current_leaf_id`). `seq` stays the order in which the
 * messages of a conversation were written: it grows along every path, so a path read in `seq` order
 * is read from its start. Replies also keep what they were asked with and how fast they came
 * (temperature, time to first token, duration), the compare batch they belong to, and every
 * reply's usage goes to `chat_usage` as well, which outlives conversations (what was spent stays
 * spent) and is not written again for a copy (a branch forked off, an import).
 *
 * Version 4 adds the files sent with a message (`chat_attachments`), kept in this same SQLite
 * file rather than as files beside it: a message and its files are written in one transaction (a
 * crash never leaves a message whose file is missing, or a file no message names), deleting a
 * message or purging a conversation removes its files by cascade, and backups, which copy this
 * one file, carry them. Their bytes sit in a table of their own, one row per content (by SHA-256):
 * an edit or a branch that carries a message's files to a new message adds small rows, not a second
 * copy, and the last row naming a content deletes it. The text read from each file (what the model
 * is sent) is indexed for search by an FTS5 table of its own, kept in step by triggers like the
 * messages'.
 *
 * Version 5 keeps the tool calls of replies that used tools (`tool_calls`, JSON: each step's text
 * and calls, with the arguments and what the model was sent back), so a conversation reopened
 * shows them and its next request sends them again as the model first had them; and the MCP
 * servers each conversation may use (`tool_servers`, a JSON list of ids) with the tools allowed
 * for the rest of it (`tool_grants`). Rows written before have none of these: NULL.
 *
 * Version 6 makes tool calls searchable: an FTS5 index over the text of each reply's calls (for
 * each call its tool, its server, its arguments and its result), so that a word the model sent a
 * tool, or one a tool answered, finds the reply. Like the messages' index it stores no second
 * copy: its content is a view that reads the text out of `tool_calls` (`toolCallsText`), and
 * triggers keep it in step, a damaged record indexing nothing rather than failing the write.
 */
import type { Migration } from '../database';

/**
 * SQL for the searchable text of a stored `tool_calls` record (`column`): one line per call, its
 * tool (or the name the model called it by), server, arguments and result. Anything but a record
 * of steps with calls (NULL, damaged JSON, another shape) gives NULL: nothing is indexed and
 * nothing fails. The same expression must give the same text for the same record each time: the
 * index removes a record's words by computing its text again.
 */
export function toolCallsText(column: string): string {
  return `(SELECT group_concat(
      coalesce(json_extract(c.value, '$.tool'), json_extract(c.value, '$.functionName'), '')
        || ' ' || coalesce(json_extract(c.value, '$.serverName'), '')
        || ' ' || coalesce(json_extract(c.value, '$.arguments'), '')
        || ' ' || coalesce(json_extract(c.value, '$.result'), ''),
      char(10))
    FROM json_each(CASE WHEN json_valid(${column}) THEN ${column} ELSE '{}' END, '$.steps') s,
      json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END, '$.calls') c
    WHERE c.type = 'object')`;
}

export const CHAT_DOMAIN = 'chat';

export const CHAT_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'conversations, messages and their full-text index',
    up(db) {
      db.exec(`CREATE TABLE chat_conversations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        pinned INTEGER NOT NULL DEFAULT 0,
        model TEXT,
        system_prompt TEXT NOT NULL DEFAULT '',
        temperature REAL,
        max_tokens INTEGER,
        deleted_at TEXT
      )`);
      db.exec(`CREATE INDEX chat_conversations_by_activity
        ON chat_conversations (pinned DESC, updated_at DESC) WHERE deleted_at IS NULL`);
      db.exec(`CREATE TABLE chat_messages (
        rowid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        conversation_id TEXT NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        content TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('complete', 'streaming', 'interrupted', 'error')),
        error TEXT,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        total_tokens INTEGER,
        model TEXT,
        finish_reason TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (conversation_id, seq)
      )`);
      db.exec(`CREATE INDEX chat_messages_streaming ON chat_messages (status)
        WHERE status = 'streaming'`);
      db.exec(`CREATE VIRTUAL TABLE chat_messages_fts USING fts5(
        content, content = 'chat_messages', content_rowid = 'rowid',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
      )`);
      db.exec(`CREATE TRIGGER chat_messages_fts_insert AFTER INSERT ON chat_messages BEGIN
        INSERT INTO chat_messages_fts (rowid, content) VALUES (new.rowid, new.content);
      END`);
      db.exec(`CREATE TRIGGER chat_messages_fts_delete AFTER DELETE ON chat_messages BEGIN
        INSERT INTO chat_messages_fts (chat_messages_fts, rowid, content)
          VALUES ('delete', old.rowid, old.content);
      END`);
      db.exec(`CREATE TRIGGER chat_messages_fts_update AFTER UPDATE OF content ON chat_messages BEGIN
        INSERT INTO chat_messages_fts (chat_messages_fts, rowid, content)
          VALUES ('delete', old.rowid, old.content);
        INSERT INTO chat_messages_fts (rowid, content) VALUES (new.rowid, new.content);
      END`);
    },
  },
  {
    version: 2,
    name: 'message counts and token sums kept with each conversation; the list order indexed',
    up(db) {
      for (const column of ['message_count', 'prompt_tokens', 'completion_tokens', 'total_tokens'])
        db.exec(`ALTER TABLE chat_conversations ADD COLUMN ${column} INTEGER NOT NULL DEFAULT 0`);
      db.exec(`UPDATE chat_conversations SET
        (message_count, prompt_tokens, completion_tokens, total_tokens) = (
          SELECT count(*), coalesce(sum(m.prompt_tokens), 0),
            coalesce(sum(m.completion_tokens), 0), coalesce(sum(m.total_tokens), 0)
          FROM chat_messages m WHERE m.conversation_id = chat_conversations.id)`);
      // The list's order, to the last tie (the id), along one index: pages of it are keyset reads.
      db.exec('DROP INDEX chat_conversations_by_activity');
      db.exec(`CREATE INDEX chat_conversations_by_activity
        ON chat_conversations (pinned DESC, updated_at DESC, id DESC) WHERE deleted_at IS NULL`);
      db.exec(`CREATE TRIGGER chat_messages_count_insert AFTER INSERT ON chat_messages BEGIN
        UPDATE chat_conversations SET
          message_count = message_count + 1,
          prompt_tokens = prompt_tokens + coalesce(new.prompt_tokens, 0),
          completion_tokens = completion_tokens + coalesce(new.completion_tokens, 0),
          total_tokens = total_tokens + coalesce(new.total_tokens, 0)
        WHERE id = new.conversation_id;
      END`);
      db.exec(`CREATE TRIGGER chat_messages_count_delete AFTER DELETE ON chat_messages BEGIN
        UPDATE chat_conversations SET
          message_count = message_count - 1,
          prompt_tokens = prompt_tokens - coalesce(old.prompt_tokens, 0),
          completion_tokens = completion_tokens - coalesce(old.completion_tokens, 0),
          total_tokens = total_tokens - coalesce(old.total_tokens, 0)
        WHERE id = old.conversation_id;
      END`);
      db.exec(`CREATE TRIGGER chat_messages_count_update
        AFTER UPDATE OF conversation_id, prompt_tokens, completion_tokens, total_tokens
        ON chat_messages BEGIN
        UPDATE chat_conversations SET
          message_count = message_count - 1,
          prompt_tokens = prompt_tokens - coalesce(old.prompt_tokens, 0),
          completion_tokens = completion_tokens - coalesce(old.completion_tokens, 0),
          total_tokens = total_tokens - coalesce(old.total_tokens, 0)
        WHERE id = old.conversation_id;
        UPDATE chat_conversations SET
          message_count = message_count + 1,
          prompt_tokens = prompt_tokens + coalesce(new.prompt_tokens, 0),
          completion_tokens = completion_tokens + coalesce(new.completion_tokens, 0),
          total_tokens = total_tokens + coalesce(new.total_tokens, 0)
        WHERE id = new.conversation_id;
      END`);
    },
  },
  {
    version: 3,
    name: 'conversations as trees: parents, the path shown, compare batches, usage kept per reply',
    up(db) {
      db.exec(`ALTER TABLE chat_messages
        ADD COLUMN parent_id TEXT REFERENCES chat_messages (id) ON DELETE CASCADE`);
      db.exec('ALTER TABLE chat_messages ADD COLUMN batch_id TEXT');
      db.exec('ALTER TABLE chat_messages ADD COLUMN temperature REAL');
      db.exec('ALTER TABLE chat_messages ADD COLUMN first_token_ms INTEGER');
      db.exec('ALTER TABLE chat_messages ADD COLUMN duration_ms INTEGER');
      db.exec('ALTER TABLE chat_conversations ADD COLUMN current_leaf_id TEXT');
      db.exec('ALTER TABLE chat_conversations ADD COLUMN forked_from TEXT');
      // Each linear conversation becomes one path: every message's parent is the one before it.
      db.exec(`UPDATE chat_messages SET parent_id = (
          SELECT p.id FROM chat_messages p
          WHERE p.conversation_id = chat_messages.conversation_id AND p.seq < chat_messages.seq
          ORDER BY p.seq DESC LIMIT 1)`);
      db.exec(`UPDATE chat_conversations SET current_leaf_id = (
          SELECT m.id FROM chat_messages m WHERE m.conversation_id = chat_conversations.id
          ORDER BY m.seq DESC LIMIT 1)`);
      db.exec('CREATE INDEX chat_messages_children ON chat_messages (parent_id, seq)');
      db.exec(`CREATE INDEX chat_messages_roots ON chat_messages (conversation_id, seq)
        WHERE parent_id IS NULL`);
      db.exec(`CREATE TABLE chat_usage (
        message_id TEXT PRIMARY KEY,
        conversation_id TEXT,
        model TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        created_at TEXT NOT NULL
      )`);
      db.exec('CREATE INDEX chat_usage_by_time ON chat_usage (created_at)');
      db.exec(`INSERT INTO chat_usage
          (message_id, conversation_id, model, prompt_tokens, completion_tokens, created_at)
        SELECT id, conversation_id, coalesce(model, ''), coalesce(prompt_tokens, 0),
          coalesce(completion_tokens, total_tokens - coalesce(prompt_tokens, 0), 0), created_at
        FROM chat_messages
        WHERE role = 'assistant'
          AND (prompt_tokens IS NOT NULL OR completion_tokens IS NOT NULL OR total_tokens IS NOT NULL)`);
    },
  },
  {
    version: 4,
    name: 'files sent with messages: their bytes by content, their text searchable',
    up(db) {
      db.exec(`CREATE TABLE chat_attachment_blobs (
        sha256 TEXT PRIMARY KEY,
        data BLOB NOT NULL
      )`);
      db.exec(`CREATE TABLE chat_attachments (
        rowid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        message_id TEXT NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('text', 'pdf', 'image')),
        mime_type TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        sha256 TEXT NOT NULL REFERENCES chat_attachment_blobs (sha256),
        text TEXT NOT NULL DEFAULT '',
        pages TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (message_id, position)
      )`);
      db.exec('CREATE INDEX chat_attachments_by_content ON chat_attachments (sha256)');
      db.exec(`CREATE TRIGGER chat_attachments_blob_release AFTER DELETE ON chat_attachments
        WHEN NOT EXISTS (SELECT 1 FROM chat_attachments WHERE sha256 = old.sha256) BEGIN
        DELETE FROM chat_attachment_blobs WHERE sha256 = old.sha256;
      END`);
      db.exec(`CREATE VIRTUAL TABLE chat_attachments_fts USING fts5(
        text, content = 'chat_attachments', content_rowid = 'rowid',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
      )`);
      db.exec(`CREATE TRIGGER chat_attachments_fts_insert AFTER INSERT ON chat_attachments BEGIN
        INSERT INTO chat_attachments_fts (rowid, text) VALUES (new.rowid, new.text);
      END`);
      db.exec(`CREATE TRIGGER chat_attachments_fts_delete AFTER DELETE ON chat_attachments BEGIN
        INSERT INTO chat_attachments_fts (chat_attachments_fts, rowid, text)
          VALUES ('delete', old.rowid, old.text);
      END`);
    },
  },
  {
    version: 5,
    name: 'tool calls kept with replies; the tool servers and grants of each conversation',
    up(db) {
      db.exec('ALTER TABLE chat_messages ADD COLUMN tool_calls TEXT');
      db.exec('ALTER TABLE chat_conversations ADD COLUMN tool_servers TEXT');
      db.exec('ALTER TABLE chat_conversations ADD COLUMN tool_grants TEXT');
    },
  },
  {
    version: 6,
    name: 'tool calls searchable: their tools, arguments and results in a full-text index',
    up(db) {
      const text = (row: string) => toolCallsText(`${row}.tool_calls`);
      db.exec(`CREATE VIEW chat_tool_calls_text AS
        SELECT m.rowid AS message_rowid, ${text('m')} AS text
        FROM chat_messages m WHERE m.tool_calls IS NOT NULL`);
      db.exec(`CREATE VIRTUAL TABLE chat_tool_calls_fts USING fts5(
        text, content = 'chat_tool_calls_text', content_rowid = 'message_rowid',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
      )`);
      db.exec(`CREATE TRIGGER chat_tool_calls_fts_insert AFTER INSERT ON chat_messages
        WHEN new.tool_calls IS NOT NULL BEGIN
        INSERT INTO chat_tool_calls_fts (rowid, text) VALUES (new.rowid, ${text('new')});
      END`);
      db.exec(`CREATE TRIGGER chat_tool_calls_fts_delete AFTER DELETE ON chat_messages
        WHEN old.tool_calls IS NOT NULL BEGIN
        INSERT INTO chat_tool_calls_fts (chat_tool_calls_fts, rowid, text)
          VALUES ('delete', old.rowid, ${text('old')});
      END`);
      db.exec(`CREATE TRIGGER chat_tool_calls_fts_update AFTER UPDATE OF tool_calls ON chat_messages
        WHEN old.tool_calls IS NOT new.tool_calls BEGIN
        INSERT INTO chat_tool_calls_fts (chat_tool_calls_fts, rowid, text)
          SELECT 'delete', old.rowid, ${text('old')} WHERE old.tool_calls IS NOT NULL;
        INSERT INTO chat_tool_calls_fts (rowid, text)
          SELECT new.rowid, ${text('new')} WHERE new.tool_calls IS NOT NULL;
      END`);
      // The calls kept by version 5. (Not FTS5's 'rebuild': its scan of the view cannot see
      // json_each.)
      db.exec(`INSERT INTO chat_tool_calls_fts (rowid, text)
        SELECT message_rowid, text FROM chat_tool_calls_text`);
    },
  },
];
