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
];
