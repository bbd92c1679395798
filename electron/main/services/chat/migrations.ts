/**
 * The chat tables: conversations, their messages, and an FTS5 index over message text.
 *
 * The index is external-content (it stores no second copy of the text) and is kept in step by
 * triggers, so every write path, imports and crash recovery included, updates it the same way.
 * Prefix indexes of 2 and 3 characters keep search-as-you-type fast on a short last word.
 */
import type { Migration } from '../database';

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
];
