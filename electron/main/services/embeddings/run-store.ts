/**
 * Embeddings runs in the app's SQLite file: a run (model, date, status, why it stopped) and its
 * inputs, each with its vector once embedded, stored as little-endian float32 bytes.
 */
import type { Db, Migration } from '../database';
import type { IpcError } from '../../../shared/ipc/define';
import { AppError, errorInfo } from '../app-error';
import { said } from '../words';

export type RunStatus = 'running' | 'done' | 'cancelled' | 'failed';

export const EMBEDDINGS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs and their inputs',
    up(db) {
      db.exec(`CREATE TABLE embedding_runs (
        id TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL,
        total INTEGER NOT NULL,
        done INTEGER NOT NULL DEFAULT 0,
        dimensions INTEGER,
        prompt_tokens INTEGER,
        error TEXT
      )`);
      db.exec(`CREATE TABLE embedding_items (
        run_id TEXT NOT NULL REFERENCES embedding_runs(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        text TEXT NOT NULL,
        vector BLOB,
        tokens INTEGER,
        PRIMARY KEY (run_id, idx)
      )`);
      db.exec('CREATE INDEX embedding_runs_created ON embedding_runs (created_at DESC)');
    },
  },
];

export interface RunRow {
  id: string;
  model: string;
  createdAt: string;
  status: RunStatus;
  total: number;
  done: number;
  dimensions?: number;
  promptTokens?: number;
  error?: IpcError;
}

interface RawRun {
  id: string;
  model: string;
  created_at: string;
  status: string;
  total: number;
  done: number;
  dimensions: number | null;
  prompt_tokens: number | null;
  error: string | null;
}

export interface ItemRow {
  index: number;
  text: string;
  vector?: Float32Array;
  tokens?: number;
}

function toRun(raw: RawRun): RunRow {
  const run: RunRow = {
    id: raw.id,
    model: raw.model,
    createdAt: raw.created_at,
    status: raw.status as RunStatus,
    total: Number(raw.total),
    done: Number(raw.done),
  };
  if (raw.dimensions !== null) run.dimensions = Number(raw.dimensions);
  if (raw.prompt_tokens !== null) run.promptTokens = Number(raw.prompt_tokens);
  if (raw.error !== null) {
    try {
      run.error = JSON.parse(raw.error) as IpcError;
    } catch {
      run.error = errorInfo(new AppError('internal', said('embeddings.stoppedEarly')))!;
    }
  }
  return run;
}

export function vectorToBytes(vector: readonly number[]): Uint8Array {
  const floats = Float32Array.from(vector);
  return new Uint8Array(floats.buffer);
}

/** Reads a stored vector; libsql hands blobs back as an ArrayBuffer (a view, in other drivers). */
export function bytesToVector(blob: ArrayBuffer | ArrayBufferView): Float32Array {
  const bytes =
    blob instanceof ArrayBuffer
      ? new Uint8Array(blob)
      : new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength);
  // Copied so the floats are aligned whatever offset the driver's buffer has.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

const RUN_COLUMNS = 'id, model, created_at, status, total, done, dimensions, prompt_tokens, error';

export class RunStore {
  constructor(private readonly db: Db) {}

  create(run: { id: string; model: string; createdAt: string; inputs: readonly string[] }): void {
    this.db.transaction(() => {
      this.db.run(
        'INSERT INTO embedding_runs (id, model, created_at, status, total) VALUES (?, ?, ?, ?, ?)',
        [run.id, run.model, run.createdAt, 'running', run.inputs.length],
      );
      run.inputs.forEach((text, index) =>
        this.db.run('INSERT INTO embedding_items (run_id, idx, text) VALUES (?, ?, ?)', [
          run.id,
          index,
          text,
        ]),
      );
    });
  }

  get(id: string): RunRow | undefined {
    const raw = this.db.one<RawRun>(`SELECT ${RUN_COLUMNS} FROM embedding_runs WHERE id = ?`, [id]);
    return raw && toRun(raw);
  }

  list(limit = 200): Array<RunRow & { firstInput: string }> {
    return this.db
      .all<RawRun & { first_input: string | null }>(
        `SELECT ${RUN_COLUMNS.split(', ')
          .map((c) => `r.${c}`)
          .join(', ')},
          (SELECT substr(text, 1, 120) FROM embedding_items WHERE run_id = r.id AND idx = 0) AS first_input
         FROM embedding_runs r ORDER BY r.created_at DESC, r.rowid DESC LIMIT ?`,
        [limit],
      )
      .map((raw) => ({ ...toRun(raw), firstInput: raw.first_input ?? '' }));
  }

  items(id: string, withVectors: boolean, offset = 0, limit = -1): ItemRow[] {
    return this.db
      .all<{
        idx: number;
        text: string;
        vector: ArrayBuffer | Uint8Array | null;
        tokens: number | null;
      }>(
        `SELECT idx, text, ${withVectors ? 'vector' : 'NULL AS vector'}, tokens
         FROM embedding_items WHERE run_id = ? ORDER BY idx LIMIT ? OFFSET ?`,
        [id, limit, offset],
      )
      .map((raw) => {
        const item: ItemRow = { index: Number(raw.idx), text: raw.text };
        if (raw.vector !== null) item.vector = bytesToVector(raw.vector);
        if (raw.tokens !== null) item.tokens = Number(raw.tokens);
        return item;
      });
  }

  /** The inputs of a run that have no vector yet. */
  pendingIndexes(id: string): number[] {
    return this.db
      .all<{ idx: number }>(
        'SELECT idx FROM embedding_items WHERE run_id = ? AND vector IS NULL ORDER BY idx',
        [id],
      )
      .map((r) => Number(r.idx));
  }

  texts(id: string, indexes: readonly number[]): string[] {
    return indexes.map(
      (index) =>
        this.db.one<{ text: string }>(
          'SELECT text FROM embedding_items WHERE run_id = ? AND idx = ?',
          [id, index],
        )?.text ?? '',
    );
  }

  /** Saves one batch's vectors and the run's new count in one transaction. */
  saveBatch(
    id: string,
    indexes: readonly number[],
    vectors: readonly (readonly number[])[],
    promptTokens: number | undefined,
  ): number {
    return this.db.transaction(() => {
      // Only inputs still without a vector are set and counted: the run's count grows by what
      // this batch added, instead of counting the run's rows again at every batch (which made a
      // run of n inputs cost n²/64 row reads).
      let added = 0;
      indexes.forEach((index, position) => {
        const vector = vectors[position] as readonly number[];
        const tokens = indexes.length === 1 && promptTokens !== undefined ? promptTokens : null;
        added += this.db.run(
          'UPDATE embedding_items SET vector = ?, tokens = ? WHERE run_id = ? AND idx = ? AND vector IS NULL',
          [vectorToBytes(vector), tokens, id, index],
        ).changes;
      });
      const dimensions = vectors[0]?.length ?? null;
      const updated = this.db.one<{ done: number }>(
        `UPDATE embedding_runs SET
          done = done + ?,
          dimensions = coalesce(dimensions, ?),
          prompt_tokens = CASE WHEN ? IS NULL THEN prompt_tokens ELSE coalesce(prompt_tokens, 0) + ? END
         WHERE id = ?
         RETURNING done`,
        [added, dimensions, promptTokens ?? null, promptTokens ?? null, id],
      );
      return Number(updated?.done ?? 0);
    });
  }

  setStatus(id: string, status: RunStatus, error?: IpcError): void {
    this.db.run('UPDATE embedding_runs SET status = ?, error = ? WHERE id = ?', [
      status,
      error === undefined ? null : JSON.stringify(error),
      id,
    ]);
  }

  /** Runs left "running" by an app that closed or crashed: they are not running any more. */
  endInterrupted(error: IpcError): void {
    this.db.run(
      "UPDATE embedding_runs SET status = 'cancelled', error = ? WHERE status = 'running'",
      [JSON.stringify(error)],
    );
  }

  delete(id: string): boolean {
    return this.db.run('DELETE FROM embedding_runs WHERE id = ?', [id]).changes > 0;
  }
}
