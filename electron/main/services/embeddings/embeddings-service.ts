/**
 * The embeddings playground's logic: runs of many inputs, sent in batches of a bounded size,
 * several batches at once (as many as the connection's request limiter lets through, behind the
 * person's own requests), each saved as soon as it arrives. A run can be cancelled between or
 * during batches; a failure (a used-up balance, a rate limit that outlasted the retries, a relay
 * that broke) stops the batches still to go, ends the run with the relay's error, and keeps every
 * batch that had already succeeded.
 */
import { randomUUID } from 'node:crypto';
import type { Emit } from '../../../shared/ipc/contract';
import type { IpcError } from '../../../shared/ipc/define';
import {
  EMBEDDING_PREVIEW_VALUES,
  MAX_VECTOR_PAGE_VALUES,
} from '../../../shared/ipc/routes/embeddings';
import type { Db } from '../database';
import { migrate } from '../database';
import { writeFileAtomic } from '../data-files';
import { AppError, errorInfo, faultInfo } from '../app-error';
import { RelayError, type RelayClient } from '../relay/relay-client';
import { MAX_CONCURRENT_REQUESTS } from '../relay/limiter';
import { runToCsv, runToJson } from './export-run';
import { readInputFile, type InputFile } from './input-file';
import { EMBEDDINGS_MIGRATIONS, RunStore, type RunRow, type RunStatus } from './run-store';
import { vectorStats } from './vector-stats';
import { said } from '../words';

export const DEFAULT_BATCH_SIZE = 64;

/** A refusal the person can act on: an unknown run, a run that is still going. */

export interface EmbeddingsServiceOptions {
  db: Db;
  /** A client for the active connection; retries are reported under `requestId`. */
  client(requestId: string): Promise<RelayClient>;
  emit: Emit;
  batchSize?: number;
  /**
   * Batches of one run in flight at once; default `MAX_CONCURRENT_REQUESTS`, what the connection's
   * limiter lets through (1 sends them one after another).
   */
  concurrency?: number;
  now?: () => Date;
}

/** Why a run ended: the relay's error or the app's refusal; a fault in the app, said plainly. */
function runError(error: unknown): IpcError {
  return faultInfo(error, 'app.fault.embedding');
}

export class EmbeddingsService {
  readonly #store: RunStore;
  readonly #options: EmbeddingsServiceOptions;
  readonly #running = new Map<string, { controller: AbortController; finished: Promise<void> }>();

  private constructor(options: EmbeddingsServiceOptions) {
    this.#options = options;
    this.#store = new RunStore(options.db);
  }

  static async open(options: EmbeddingsServiceOptions): Promise<EmbeddingsService> {
    await migrate(options.db, 'embeddings', EMBEDDINGS_MIGRATIONS);
    const service = new EmbeddingsService(options);
    service.#store.endInterrupted(
      errorInfo(new AppError('aborted', said('embeddings.closedWhileRunning')))!,
    );
    return service;
  }

  get #batchSize(): number {
    return Math.max(1, this.#options.batchSize ?? DEFAULT_BATCH_SIZE);
  }

  #now(): string {
    return (this.#options.now?.() ?? new Date()).toISOString();
  }

  #require(runId: string): RunRow {
    const run = this.#store.get(runId);
    if (run === undefined) throw new AppError('not_found', said('embeddings.runGone'));
    return run;
  }

  /** Starts a run and returns its id at once; the batches go on in the background. */
  start(model: string, inputs: readonly string[]): string {
    const id = randomUUID();
    this.#store.create({ id, model, createdAt: this.#now(), inputs });
    this.#launch(id, model);
    return id;
  }

  rerun(runId: string, model?: string): string {
    const run = this.#require(runId);
    const inputs = this.#store.items(runId, false).map((item) => item.text);
    return this.start(model ?? run.model, inputs);
  }

  /** Goes on with a run that stopped early, sending only what has no vector yet. */
  resume(runId: string): string {
    const run = this.#require(runId);
    if (this.#running.has(runId))
      throw new AppError('invalid_request', said('embeddings.stillRunning'));
    if (run.status === 'done') return runId;
    this.#store.setStatus(runId, 'running');
    this.#launch(runId, run.model);
    return runId;
  }

  cancel(runId: string): void {
    this.#require(runId);
    this.#running.get(runId)?.controller.abort();
  }

  /** Settles once the run's batches stop (for tests and for closing the app). */
  async whenIdle(runId?: string): Promise<void> {
    const runs = runId === undefined ? [...this.#running.values()] : [this.#running.get(runId)];
    await Promise.all(runs.map((run) => run?.finished));
  }

  #launch(runId: string, model: string): void {
    const controller = new AbortController();
    const finished = this.#process(runId, model, controller.signal).finally(() => {
      this.#running.delete(runId);
    });
    this.#running.set(runId, { controller, finished });
  }

  async #process(runId: string, model: string, signal: AbortSignal): Promise<void> {
    const pending = this.#store.pendingIndexes(runId);
    const total = this.#store.get(runId)?.total ?? 0;
    let done = total - pending.length;
    const end = (status: RunStatus, error?: IpcError) => {
      this.#store.setStatus(runId, status, error);
      this.#options.emit('embeddingRunEnded', {
        runId,
        status,
        done,
        total,
        ...(error ? { error } : {}),
      });
    };
    // The run's batches stop together: the person cancelled, or one batch failed.
    const stop = new AbortController();
    const onCancel = () => stop.abort();
    signal.addEventListener('abort', onCancel, { once: true });
    let failure: unknown;
    try {
      const client = await this.#options.client(runId);
      let dimensions = this.#store.get(runId)?.dimensions;
      const starts: number[] = [];
      for (let start = 0; start < pending.length; start += this.#batchSize) starts.push(start);
      const worker = async () => {
        for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
          if (stop.signal.aborted) return;
          const indexes = pending.slice(start, start + this.#batchSize);
          const texts = this.#store.texts(runId, indexes);
          let result;
          try {
            result = await client.embed(
              { model, input: texts },
              { signal: stop.signal, priority: 'background' },
            );
            const size = result.vectors[0]?.length;
            if (dimensions === undefined) dimensions = size;
            else if (size !== dimensions) {
              throw new RelayError(
                'bad_response',
                said('embeddings.dimensionsChanged', { got: size ?? 0, before: dimensions }),
              );
            }
          } catch (error) {
            // The first failure is the run's; the batches it stops end as aborted.
            if (!stop.signal.aborted) {
              failure = error;
              stop.abort();
            }
            return;
          }
          // A batch that arrived is kept, even if the run stopped meanwhile.
          done = this.#store.saveBatch(runId, indexes, result.vectors, result.usage?.promptTokens);
          this.#options.emit('embeddingProgress', { runId, done, total });
        }
      };
      const workers = Math.max(1, Math.floor(this.#options.concurrency ?? MAX_CONCURRENT_REQUESTS));
      await Promise.all(Array.from({ length: Math.min(workers, starts.length) }, worker));
    } catch (error) {
      failure ??= error;
    } finally {
      signal.removeEventListener('abort', onCancel);
    }
    if (signal.aborted) return end('cancelled');
    if (failure === undefined) return end('done');
    if (failure instanceof RelayError && failure.kind === 'aborted') return end('cancelled');
    end('failed', runError(failure));
  }

  list() {
    return this.#store.list().map((run) => {
      const { dimensions: _d, promptTokens: _p, ...summary } = run;
      return summary;
    });
  }

  get(runId: string, offset = 0, limit = -1) {
    const run = this.#require(runId);
    const firstInput = this.#store.items(runId, false, 0, 1)[0]?.text.slice(0, 120) ?? '';
    const items = this.#store.items(runId, true, offset, limit).map((item) => {
      const out: {
        index: number;
        text: string;
        dimensions?: number;
        norm?: number;
        preview?: number[];
        tokens?: number;
      } = { index: item.index, text: item.text };
      if (item.vector) Object.assign(out, vectorStats(item.vector, EMBEDDING_PREVIEW_VALUES));
      if (item.tokens !== undefined) out.tokens = item.tokens;
      return out;
    });
    return { ...run, firstInput, items };
  }

  /**
   * A bounded page of vectors for the page's pictures, as one block of float32 (rows of
   * `dimensions` values): IPC copies it as bytes, where lists of numbers cost a conversion of
   * every value on each side.
   */
  vectors(runId: string, offset: number, limit: number) {
    const run = this.#require(runId);
    const dimensions = run.dimensions ?? 0;
    const rows = Math.max(
      1,
      Math.min(limit, Math.floor(MAX_VECTOR_PAGE_VALUES / Math.max(1, dimensions))),
    );
    const items = this.#store.items(runId, true, offset, rows);
    const values = new Float32Array(items.length * dimensions);
    const missing: number[] = [];
    items.forEach((item, row) => {
      if (item.vector && item.vector.length === dimensions)
        values.set(item.vector, row * dimensions);
      else missing.push(item.index);
    });
    return { offset, dimensions, count: items.length, values, missing };
  }

  async embedQuery(model: string, text: string, requestId: string = randomUUID()) {
    const client = await this.#options.client(requestId);
    const result = await client.embed({ model, input: [text] });
    const vector = result.vectors[0] ?? [];
    return result.usage?.promptTokens !== undefined
      ? { vector, tokens: result.usage.promptTokens }
      : { vector };
  }

  delete(runId: string): void {
    this.#running.get(runId)?.controller.abort();
    if (!this.#store.delete(runId)) throw new AppError('not_found', said('embeddings.runGone'));
  }

  /** Writes the export to `path`, whole or not at all (a saved file like any other program's). */
  async export(runId: string, format: 'json' | 'csv', path: string): Promise<number> {
    const run = this.#require(runId);
    const items = this.#store.items(runId, true);
    const body = format === 'json' ? runToJson(run, items) : runToCsv(run, items);
    await writeFileAtomic(path, body, { mode: 0o666 });
    return items.filter((item) => item.vector !== undefined).length;
  }

  readInputFile(path: string): Promise<InputFile> {
    return readInputFile(path);
  }

  /** Stops every run; each keeps its finished batches and is marked cancelled. */
  async close(): Promise<void> {
    for (const { controller } of this.#running.values()) controller.abort();
    await this.whenIdle();
  }
}
