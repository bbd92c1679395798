/**
 * The files a knowledge base read and their chunks with their vectors (tables in
 * migrations.ts): what indexing saves, search ranks, and the page lists. A refused file's stored
 * key and values that do not read are left out rather than failing the list.
 */
import { messageRefFields } from '../../../shared/ipc/define';
import type { KnowledgeFile } from '../../../shared/ipc/routes/knowledge';
import { parseStoredJson, type Db } from '../database';
import type { DocumentResult } from '../documents/document-text';
import { vectorToBytes } from '../embeddings/run-store';
import type { Chunk } from './chunking';

export interface FileRow {
  id: string;
  path: string;
  name: string;
  size: number;
  mtime_ms: number;
  content_hash: string | null;
  status: 'ready' | 'refused';
  reason: string | null;
  message: string | null;
  message_id: string | null;
  message_values: string | null;
}

export interface ChunkRow {
  text: string;
  page: number | null;
  headings: string;
  line_start: number;
  line_end: number;
  path: string;
  name: string;
  vector: ArrayBuffer | Uint8Array | null;
}

/** A file as the disk has it when it was read, and the hash of its bytes when they read. */
export interface ReadFile {
  path: string;
  name: string;
  size: number;
  mtimeMs: number;
  hash: string | undefined;
}

/** How many chunks, and embedded chunks, a base gained (negative: lost). */
export interface ChunkChange {
  chunks: number;
  embedded: number;
}

/** A refused file's key and values as stored; nothing when it has none or they do not read. */
export function storedWords(
  row: Pick<FileRow, 'message_id' | 'message_values'>,
): Pick<KnowledgeFile, 'messageId' | 'values'> {
  if (row.message_id === null) return {};
  if (row.message_values === null) return { messageId: row.message_id };
  const values = parseStoredJson(row.message_values, messageRefFields.values);
  return values === undefined
    ? { messageId: row.message_id }
    : { messageId: row.message_id, values };
}

export class KnowledgeDocumentStore {
  constructor(private readonly db: Db) {}

  files(id: string): FileRow[] {
    return this.db.all<FileRow>('SELECT * FROM knowledge_files WHERE kb_id = ?', [id]);
  }

  /** The first `limit` files as the page lists them (refused first), each with its chunks. */
  listedFiles(id: string, limit: number): Array<FileRow & { chunks: number; embedded: number }> {
    // The files listed first, then the chunks of those alone: counting every file's chunks
    // read every chunk of the base (a quarter of a second at 50,000) for rows never shown.
    const files = this.db.all<FileRow>(
      'SELECT * FROM knowledge_files WHERE kb_id = ? ORDER BY status DESC, path LIMIT ?',
      [id, limit],
    );
    const counts = new Map(
      files.length === 0
        ? []
        : this.db
            .all<{ file_id: string; chunks: number; embedded: number }>(
              `SELECT file_id, COUNT(*) AS chunks, COUNT(vector) AS embedded FROM knowledge_chunks
                WHERE file_id IN (${files.map(() => '?').join(',')}) GROUP BY file_id`,
              files.map((f) => f.id),
            )
            .map((c) => [c.file_id, c]),
    );
    return files.map((f) => ({
      ...f,
      chunks: Number(counts.get(f.id)?.chunks ?? 0),
      embedded: Number(counts.get(f.id)?.embedded ?? 0),
    }));
  }

  file(id: string, fileId: string): { path: string; name: string } | undefined {
    return this.db.one<{ path: string; name: string }>(
      'SELECT path, name FROM knowledge_files WHERE kb_id = ? AND id = ?',
      [id, fileId],
    );
  }

  readyFileCount(id: string): number {
    const row = this.db.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM knowledge_files WHERE kb_id = ? AND status = 'ready'`,
      [id],
    );
    return Number(row?.n ?? 0);
  }

  /** Drops files (no longer found) with their chunks. */
  deleteFiles(fileIds: readonly string[]): void {
    this.db.transaction(() => {
      for (const fileId of fileIds)
        this.db.run('DELETE FROM knowledge_files WHERE id = ?', [fileId]);
    });
  }

  /** A file found unchanged by its hash: only its size and time are new. */
  touchFile(fileId: string, size: number, mtimeMs: number): void {
    this.db.run('UPDATE knowledge_files SET size = ?, mtime_ms = ? WHERE id = ?', [
      size,
      mtimeMs,
      fileId,
    ]);
  }

  /**
   * Saves one file's reading under `fileId` (`known`: the file as read before, else new): its
   * chunks (`chunks`, for a file that read), keeping the vectors of unchanged text, or its
   * refusal.
   */
  saveFile(
    id: string,
    { fileId, known }: { fileId: string; known: boolean },
    file: ReadFile,
    result: DocumentResult,
    chunks: readonly Chunk[],
    now: string,
  ): ChunkChange {
    const change = { chunks: 0, embedded: 0 };
    this.db.transaction(() => {
      const kept = new Map<string, Uint8Array>();
      if (known) {
        const before = this.db.one<{ chunks: number; embedded: number }>(
          'SELECT COUNT(*) AS chunks, COUNT(vector) AS embedded FROM knowledge_chunks WHERE file_id = ?',
          [fileId],
        );
        change.chunks -= Number(before?.chunks ?? 0);
        change.embedded -= Number(before?.embedded ?? 0);
        for (const c of this.db.all<{ hash: string; vector: ArrayBuffer | Uint8Array | null }>(
          'SELECT hash, vector FROM knowledge_chunks WHERE file_id = ? AND vector IS NOT NULL',
          [fileId],
        )) {
          if (c.vector) kept.set(c.hash, new Uint8Array(c.vector as ArrayBuffer));
        }
        this.db.run('DELETE FROM knowledge_chunks WHERE file_id = ?', [fileId]);
      }
      const refused = result.ok ? undefined : result.refusal;
      this.db.run(
        `INSERT INTO knowledge_files (id, kb_id, path, name, size, mtime_ms, content_hash, status,
           reason, message, message_id, message_values, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
           content_hash = excluded.content_hash, status = excluded.status,
           reason = excluded.reason, message = excluded.message,
           message_id = excluded.message_id, message_values = excluded.message_values,
           updated_at = excluded.updated_at`,
        [
          fileId,
          id,
          file.path,
          file.name,
          file.size,
          file.mtimeMs,
          file.hash ?? null,
          refused ? 'refused' : 'ready',
          refused?.reason ?? null,
          refused?.message ?? null,
          refused?.messageId ?? null,
          refused?.values === undefined ? null : JSON.stringify(refused.values),
          now,
        ],
      );
      if (refused) return;
      change.chunks += chunks.length;
      change.embedded += chunks.filter((chunk) => kept.has(chunk.hash)).length;
      chunks.forEach((chunk, ord) => {
        this.db.run(
          `INSERT INTO knowledge_chunks (kb_id, file_id, ord, text, hash, page, headings,
             line_start, line_end, vector)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            id,
            fileId,
            ord,
            chunk.text,
            chunk.hash,
            chunk.page,
            JSON.stringify(chunk.headings),
            chunk.lineStart,
            chunk.lineEnd,
            kept.get(chunk.hash) ?? null,
          ],
        );
      });
    });
    return change;
  }

  // Chunks and vectors

  /**
   * A base's chunks and how many are embedded, from the index on (kb_id, vector IS NULL) alone:
   * `COUNT(vector)` would read every row (its text and vector) from the table instead.
   */
  chunkCounts(id: string): ChunkChange {
    const row = this.db.one<{ chunks: number; pending: number | null }>(
      'SELECT COUNT(*) AS chunks, SUM(vector IS NULL) AS pending FROM knowledge_chunks WHERE kb_id = ?',
      [id],
    );
    const chunks = Number(row?.chunks ?? 0);
    return { chunks, embedded: chunks - Number(row?.pending ?? 0) };
  }

  /** The base's chunks and their characters, for an estimate of embedding them again. */
  chunkTotals(id: string): { chunks: number; chars: number } {
    const totals = this.db.one<{ chunks: number; chars: number | null }>(
      'SELECT COUNT(*) AS chunks, SUM(LENGTH(text)) AS chars FROM knowledge_chunks WHERE kb_id = ?',
      [id],
    );
    return { chunks: Number(totals?.chunks ?? 0), chars: Number(totals?.chars ?? 0) };
  }

  /** The text of the base's first chunk, to try a model on; undefined for a base with none. */
  sampleText(id: string): string | undefined {
    return this.db.one<{ text: string }>(
      'SELECT text FROM knowledge_chunks WHERE kb_id = ? ORDER BY id LIMIT 1',
      [id],
    )?.text;
  }

  /** The ids of the chunks without a vector, in file order. */
  pendingChunks(id: string): number[] {
    // `(vector IS NULL) = 1` is the indexed expression, so only the rows to embed are read.
    return this.db
      .all<{ id: number }>(
        'SELECT id FROM knowledge_chunks WHERE kb_id = ? AND (vector IS NULL) = 1 ORDER BY file_id, ord',
        [id],
      )
      .map((r) => Number(r.id));
  }

  /** The texts of those of `chunkIds` still without a vector. */
  unembedded(chunkIds: readonly number[]): Array<{ id: number; text: string }> {
    return this.db.all<{ id: number; text: string }>(
      `SELECT id, text FROM knowledge_chunks WHERE id IN (${chunkIds.map(() => '?').join(',')})
         AND vector IS NULL`,
      chunkIds,
    );
  }

  /**
   * Saves a batch's vectors (`vectors[i]` for `chunkIds[i]`) and counts its tokens on the base,
   * whose dimensions are set by its first batch; returns how many chunks were saved.
   */
  saveVectors(
    id: string,
    chunkIds: readonly number[],
    vectors: readonly (readonly number[])[],
    dimensions: number | undefined,
    tokens: number,
  ): number {
    let saved = 0;
    this.db.transaction(() => {
      chunkIds.forEach((chunkId, i) => {
        const vector = vectors[i];
        if (vector)
          saved += this.db.run('UPDATE knowledge_chunks SET vector = ? WHERE id = ?', [
            vectorToBytes(vector),
            chunkId,
          ]).changes;
      });
      this.db.run(
        'UPDATE knowledge_bases SET dimensions = COALESCE(dimensions, ?), tokens = tokens + ? WHERE id = ?',
        [dimensions ?? null, tokens, id],
      );
    });
    return saved;
  }

  /** Every stored vector of the base, by chunk id. */
  vectors(id: string): Array<{ id: number; vector: ArrayBuffer | Uint8Array }> {
    return this.db.all<{ id: number; vector: ArrayBuffer | Uint8Array }>(
      'SELECT id, vector FROM knowledge_chunks WHERE kb_id = ? AND vector IS NOT NULL ORDER BY id',
      [id],
    );
  }

  /** A chunk of the base with its file; undefined when it is not (any more). */
  chunk(id: string, chunkId: number): ChunkRow | undefined {
    return this.db.one<ChunkRow>(
      `SELECT c.text, c.page, c.headings, c.line_start, c.line_end, c.vector, f.path, f.name
         FROM knowledge_chunks c JOIN knowledge_files f ON f.id = c.file_id
        WHERE c.id = ? AND c.kb_id = ?`,
      [chunkId, id],
    );
  }
}
