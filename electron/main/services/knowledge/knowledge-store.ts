/**
 * The knowledge bases' tables (see migrations.ts): the bases and their sources here, the files
 * read from them and the files' chunks with their vectors in `documents` (document-store.ts).
 * Every statement the knowledge service runs is in these two; the indexer, the search and the
 * service ask in the domain's words.
 *
 * A stored error that does not read (not JSON) reads as if the base had none, rather than
 * failing the list.
 */
import type { IpcError } from '../../../shared/ipc/define';
import type { KnowledgeBase, KnowledgeStatus } from '../../../shared/ipc/routes/knowledge';
import { AppError } from '../app-error';
import { parseStoredJson, type Db } from '../database';
import { KnowledgeDocumentStore } from './document-store';
import { said } from '../words';

export interface BaseRow {
  id: string;
  name: string;
  model: string;
  connection_id: string;
  dimensions: number | null;
  status: KnowledgeStatus;
  error: string | null;
  tokens: number;
  created_at: string;
  updated_at: string;
}

export type SourceKind = 'file' | 'folder';

/** A base's stored error; undefined when it has none or it does not read. */
function parseError(json: string | null): IpcError | undefined {
  if (json === null) return undefined;
  return parseStoredJson(json) as IpcError | undefined;
}
export class KnowledgeStore {
  /** The files read from the bases' sources, and their chunks and vectors. */
  readonly documents: KnowledgeDocumentStore;

  constructor(private readonly db: Db) {
    this.documents = new KnowledgeDocumentStore(db);
  }

  // Bases

  /** Bases left indexing when the app closed are said to be cancelled with `error`. */
  cancelInterrupted(error: IpcError | undefined): void {
    this.db.run(
      `UPDATE knowledge_bases SET status = 'cancelled', error = ? WHERE status = 'indexing'`,
      [JSON.stringify(error)],
    );
  }

  find(id: string): BaseRow | undefined {
    return this.db.one<BaseRow>('SELECT * FROM knowledge_bases WHERE id = ?', [id]);
  }

  /** The base's row; refuses a base that does not exist (any more). */
  row(id: string): BaseRow {
    const row = this.find(id);
    if (row === undefined) throw new AppError('not_found', said('knowledge.gone'));
    return row;
  }

  rows(): BaseRow[] {
    return this.db.all<BaseRow>(
      'SELECT * FROM knowledge_bases ORDER BY name COLLATE NOCASE, created_at',
    );
  }

  /** The base as the page lists it, `names` naming the connections. */
  summary(row: BaseRow, names: Map<string, string>): KnowledgeBase {
    const counts = this.db.one<{ files: number; refused: number }>(
      `SELECT COUNT(*) FILTER (WHERE status = 'ready') AS files,
              COUNT(*) FILTER (WHERE status = 'refused') AS refused
         FROM knowledge_files WHERE kb_id = ?`,
      [row.id],
    );
    const chunks = this.documents.chunkCounts(row.id);
    const error = parseError(row.error);
    return {
      id: row.id,
      name: row.name,
      model: row.model,
      connectionId: row.connection_id,
      connectionName: names.get(row.connection_id) ?? null,
      dimensions: row.dimensions === null ? null : Number(row.dimensions),
      status: row.status,
      ...(error ? { error } : {}),
      files: Number(counts?.files ?? 0),
      refused: Number(counts?.refused ?? 0),
      chunks: chunks.chunks,
      embedded: chunks.embedded,
      tokens: Number(row.tokens),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  insert(base: { id: string; name: string; model: string; connectionId: string; now: string }) {
    this.db.run(
      `INSERT INTO knowledge_bases (id, name, model, connection_id, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'empty', ?, ?)`,
      [base.id, base.name, base.model, base.connectionId, base.now, base.now],
    );
  }

  rename(id: string, name: string, now: string): void {
    this.db.run('UPDATE knowledge_bases SET name = ?, updated_at = ? WHERE id = ?', [
      name,
      now,
      id,
    ]);
  }

  /** Deletes the base; its sources, files and chunks go with it. */
  delete(id: string): void {
    this.db.run('DELETE FROM knowledge_bases WHERE id = ?', [id]);
  }

  setIndexing(id: string, now: string): void {
    this.db.run(
      `UPDATE knowledge_bases SET status = 'indexing', error = NULL, updated_at = ? WHERE id = ?`,
      [now, id],
    );
  }

  endIndexing(
    id: string,
    status: 'ready' | 'cancelled' | 'failed',
    error: IpcError | undefined,
    now: string,
  ): void {
    this.db.run('UPDATE knowledge_bases SET status = ?, error = ?, updated_at = ? WHERE id = ?', [
      status,
      error ? JSON.stringify(error) : null,
      now,
      id,
    ]);
  }

  /** Moves the base to `model`: every vector dropped, to be embedded again. */
  switchModel(id: string, model: string, now: string): void {
    this.db.transaction(() => {
      this.db.run(
        `UPDATE knowledge_bases SET model = ?, dimensions = NULL, tokens = 0, updated_at = ?
          WHERE id = ?`,
        [model, now, id],
      );
      this.db.run('UPDATE knowledge_chunks SET vector = NULL WHERE kb_id = ?', [id]);
    });
  }

  /** A new empty base `copyId` over the same sources as `id`. */
  copy(
    id: string,
    copy: { id: string; name: string; model: string; connectionId: string; now: string },
  ): void {
    this.db.transaction(() => {
      this.insert(copy);
      this.db.run(
        `INSERT INTO knowledge_sources (kb_id, path, kind, added_at)
         SELECT ?, path, kind, ? FROM knowledge_sources WHERE kb_id = ?`,
        [copy.id, copy.now, id],
      );
    });
  }

  // Sources

  /** The sources named by row id, in the order they were added. */
  sources(id: string): Array<{ id: number; path: string; kind: SourceKind }> {
    return this.db.all<{ id: number; path: string; kind: SourceKind }>(
      'SELECT rowid AS id, path, kind FROM knowledge_sources WHERE kb_id = ? ORDER BY added_at, path',
      [id],
    );
  }

  /** The sources in path order, as indexing walks them. */
  sourcePaths(id: string): Array<{ path: string; kind: SourceKind }> {
    return this.db.all<{ path: string; kind: SourceKind }>(
      'SELECT path, kind FROM knowledge_sources WHERE kb_id = ? ORDER BY path',
      [id],
    );
  }

  hasSources(id: string): boolean {
    return (
      this.db.one('SELECT 1 FROM knowledge_sources WHERE kb_id = ? LIMIT 1', [id]) !== undefined
    );
  }

  /** Adds the sources not already there; returns how many were added. */
  addSources(id: string, sources: readonly { path: string; kind: SourceKind }[], now: string) {
    let added = 0;
    this.db.transaction(() => {
      for (const { path, kind } of sources) {
        added += this.db.run(
          'INSERT OR IGNORE INTO knowledge_sources (kb_id, path, kind, added_at) VALUES (?, ?, ?, ?)',
          [id, path, kind, now],
        ).changes;
      }
    });
    return added;
  }

  /** Removes a source by the id `sources` gave it; false when there is none by that id. */
  removeSource(id: string, sourceId: string): boolean {
    const { changes } = this.db.run('DELETE FROM knowledge_sources WHERE kb_id = ? AND rowid = ?', [
      id,
      /^\d{1,15}$/.test(sourceId) ? Number(sourceId) : -1,
    ]);
    return changes > 0;
  }
}
