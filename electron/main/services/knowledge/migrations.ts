/**
 * The knowledge bases' tables, in the app's SQLite file.
 *
 * `knowledge_bases`: a name, the embeddings model and the connection it embeds through, the
 * dimensions of its vectors (set by the first the relay sends), and how its last indexing ended.
 * `knowledge_sources`: the files and folders the person added (a folder is walked again at each
 * indexing, so a file added to it is found and one deleted from it drops out). `knowledge_files`:
 * each file found, with the size, modification time and sha256 of its bytes when last read (an
 * unchanged file is not read again), or why it was refused. `knowledge_chunks`: the file's
 * chunks with their position and text hash, and the vector once embedded (little-endian float32
 * bytes; NULL until then, which is what an interrupted indexing resumes from).
 *
 * Version 2, asking with a knowledge base: `knowledge_links`, the bases a conversation asks with
 * (by id, with the base's name when linked: a base deleted since is still named when the person
 * is told it is gone, and the link is never dropped behind their back).
 * `knowledge_conversations`, how a conversation retrieves: top-k, the score threshold, the token
 * budget of the sources, and the chunks the person pinned or excluded. `knowledge_retrievals`,
 * one row per reply asked with a knowledge base, keyed by the reply's message id: the question,
 * every chunk retrieved (a copy of its text, file and position, its score, rank and whether it
 * went into the prompt), and the question's and chunks' vectors for the map. Conversations live
 * in the chat domain; these tables refer to them by id only, so no chat table changes.
 *
 * Version 3, a refused file in the person's language: `knowledge_files.message_id` and
 * `message_values`, the refusal's key in main's catalogue and its values (JSON) beside its English
 * `message`. Files refused by an earlier version keep their English and no key: they show as
 * written until they are read again.
 */
import type { Migration } from '../database';

export const KNOWLEDGE_DOMAIN = 'knowledge';

export const KNOWLEDGE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'knowledge bases, their files, chunks and vectors',
    up(db) {
      db.exec(`CREATE TABLE knowledge_bases (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        model TEXT NOT NULL,
        connection_id TEXT NOT NULL,
        dimensions INTEGER,
        status TEXT NOT NULL DEFAULT 'empty',
        error TEXT,
        tokens INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`);
      db.exec(`CREATE TABLE knowledge_sources (
        kb_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('file', 'folder')),
        added_at TEXT NOT NULL,
        PRIMARY KEY (kb_id, path)
      )`);
      db.exec(`CREATE TABLE knowledge_files (
        id TEXT PRIMARY KEY,
        kb_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        name TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        content_hash TEXT,
        status TEXT NOT NULL CHECK (status IN ('ready', 'refused')),
        reason TEXT,
        message TEXT,
        updated_at TEXT NOT NULL,
        UNIQUE (kb_id, path)
      )`);
      db.exec(`CREATE TABLE knowledge_chunks (
        id INTEGER PRIMARY KEY,
        kb_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        file_id TEXT NOT NULL REFERENCES knowledge_files(id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        text TEXT NOT NULL,
        hash TEXT NOT NULL,
        page INTEGER,
        headings TEXT NOT NULL DEFAULT '[]',
        line_start INTEGER NOT NULL,
        line_end INTEGER NOT NULL,
        vector BLOB
      )`);
      db.exec('CREATE INDEX knowledge_chunks_by_file ON knowledge_chunks (file_id, ord)');
      db.exec('CREATE INDEX knowledge_chunks_by_kb ON knowledge_chunks (kb_id, vector IS NULL)');
    },
  },
  {
    version: 2,
    name: 'knowledge bases linked to conversations, and each reply’s retrieval',
    up(db) {
      db.exec(`CREATE TABLE knowledge_links (
        conversation_id TEXT NOT NULL,
        kb_id TEXT NOT NULL,
        kb_name TEXT NOT NULL,
        linked_at TEXT NOT NULL,
        PRIMARY KEY (conversation_id, kb_id)
      )`);
      db.exec(`CREATE TABLE knowledge_conversations (
        conversation_id TEXT PRIMARY KEY,
        top_k INTEGER NOT NULL,
        min_score REAL NOT NULL,
        budget_tokens INTEGER NOT NULL,
        pinned TEXT NOT NULL DEFAULT '[]',
        excluded TEXT NOT NULL DEFAULT '[]'
      )`);
      db.exec(`CREATE TABLE knowledge_retrievals (
        message_id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        record TEXT NOT NULL,
        vectors BLOB,
        created_at TEXT NOT NULL
      )`);
      db.exec(
        'CREATE INDEX knowledge_retrievals_by_conversation ON knowledge_retrievals (conversation_id)',
      );
    },
  },
  {
    version: 3,
    name: 'a refused file’s message by key and values',
    up(db) {
      db.exec('ALTER TABLE knowledge_files ADD COLUMN message_id TEXT');
      db.exec('ALTER TABLE knowledge_files ADD COLUMN message_values TEXT');
    },
  },
];
