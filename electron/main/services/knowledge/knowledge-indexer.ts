/**
 * Indexing a knowledge base, one base at a time, in two phases:
 * 1. Reading: the sources are walked (source-walk.ts); a file whose size and modification time
 *    are as last read is left alone, else its bytes are hashed, and only a file whose hash
 *    changed is read for its text (in the document worker), chunked (chunking.ts) and its chunks
 *    replaced. A chunk whose text is unchanged keeps its vector. A file no longer found drops
 *    with its chunks; a file that cannot be read is kept as refused, by name and reason, and the
 *    others go in.
 * 2. Embedding: every chunk without a vector goes to the relay in batches, through the
 *    connection's request limiter behind the person's own requests, several at once; each batch
 *    is saved as it arrives. Cancel, a failure (402, a 429 that outlasted the retries) or the app
 *    closing stops the batches still to go and keeps the saved ones: indexing again resumes.
 *
 * Progress comes as paced `knowledgeProgress` events, the end as one `knowledgeIndexEnded`.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Emit, Events } from '../../../shared/ipc/contract';
import type { IpcError, PayloadOf } from '../../../shared/ipc/define';
import { faultInfo } from '../app-error';
import type { ReadDocuments } from '../documents/read-documents';
import { MAX_CONCURRENT_REQUESTS } from '../relay/limiter';
import { RelayError, type RelayClient } from '../relay/relay-client';
import { CHUNK_OPTIONS, chunkDocument, type ChunkOptions } from './chunking';
import type { FileRow, ReadFile } from './document-store';
import type { KnowledgeStore } from './knowledge-store';
import { ProgressPacer } from './progress-pacer';
import { hashFile, walkSources } from './source-walk';
import { said } from '../words';

export const KNOWLEDGE_BATCH_SIZE = 64;
/** At most ten progress events a second: enough for a progress bar, and ten renders at most. */
export const KNOWLEDGE_PROGRESS_INTERVAL_MS = 100;

export interface KnowledgeIndexerOptions {
  store: KnowledgeStore;
  emit: Emit;
  /** A relay client for a saved connection; retries are reported under `requestId`. */
  client(connectionId: string, requestId: string): Promise<RelayClient>;
  readDocuments: ReadDocuments;
  /** The base's chunks or vectors changed: what search packed of it is stale. */
  chunksChanged(id: string): void;
  /** The base's status changed (tells the page, not sync). */
  statusChanged(id: string): void;
  batchSize?: number;
  concurrency?: number;
  /** The least time between two progress events of one indexing phase (default 100 ms). */
  progressIntervalMs?: number;
  chunking?: ChunkOptions;
  now?: () => Date;
}

type Progress = PayloadOf<Events['knowledgeProgress']>;

/** Why indexing stopped: the relay's error or the app's refusal; a fault, said plainly. */
function indexError(error: unknown): IpcError {
  return faultInfo(error, 'app.fault.indexing');
}

export class KnowledgeIndexer {
  readonly #options: KnowledgeIndexerOptions;
  readonly #store: KnowledgeStore;
  readonly #running = new Map<string, { controller: AbortController; finished: Promise<void> }>();

  constructor(options: KnowledgeIndexerOptions) {
    this.#options = options;
    this.#store = options.store;
  }

  #now(): string {
    return (this.#options.now?.() ?? new Date()).toISOString();
  }

  isRunning(id: string): boolean {
    return this.#running.has(id);
  }

  /** Starts indexing in the background (a base already indexing goes on as it is). */
  async start(id: string): Promise<void> {
    const row = this.#store.row(id);
    if (this.#running.has(id)) return;
    // Say now that the connection is gone, rather than as a failed indexing.
    await this.#options.client(row.connection_id, `knowledge-${id}`);
    this.#store.setIndexing(id, this.#now());
    const controller = new AbortController();
    const finished = this.#process(id, controller.signal).finally(() => this.#running.delete(id));
    this.#running.set(id, { controller, finished });
    this.#options.statusChanged(id);
  }

  /** Stops the base's indexing, if it runs, and settles once it stopped. */
  async stop(id: string): Promise<void> {
    const running = this.#running.get(id);
    running?.controller.abort();
    await running?.finished;
  }

  cancel(id: string): void {
    this.#running.get(id)?.controller.abort();
  }

  /** Settles once indexing stops (for tests and for closing the app). */
  async whenIdle(id?: string): Promise<void> {
    const runs = id === undefined ? [...this.#running.values()] : [this.#running.get(id)];
    await Promise.all(runs.map((run) => run?.finished));
  }

  async close(): Promise<void> {
    for (const { controller } of this.#running.values()) controller.abort();
    await this.whenIdle();
  }

  async #process(id: string, signal: AbortSignal): Promise<void> {
    const end = (status: 'ready' | 'cancelled' | 'failed', error?: IpcError) => {
      this.#store.endIndexing(id, status, error, this.#now());
      this.#options.emit('knowledgeIndexEnded', {
        kbId: id,
        ...(error ? { status, error } : { status }),
      });
      this.#options.statusChanged(id);
    };
    try {
      await this.#read(id, signal);
      signal.throwIfAborted();
      await this.#embed(id, signal);
      if (signal.aborted) return end('cancelled');
      end('ready');
    } catch (error) {
      if (signal.aborted || (error instanceof RelayError && error.kind === 'aborted'))
        return end('cancelled');
      end('failed', indexError(error));
    }
  }

  async #read(id: string, signal: AbortSignal): Promise<void> {
    const found = await walkSources(this.#store.sourcePaths(id));
    const known = new Map(this.#store.documents.files(id).map((f) => [f.path, f]));
    // Files no longer found drop with their chunks.
    const present = new Set(found.map((f) => f.path));
    const gone = [...known.values()].filter((f) => !present.has(f.path));
    if (gone.length > 0) {
      this.#store.documents.deleteFiles(gone.map((f) => f.id));
      this.#options.chunksChanged(id);
    }

    const toRead: ReadFile[] = [];
    for (const file of found) {
      signal.throwIfAborted();
      const row = known.get(file.path);
      if (row && Number(row.size) === file.size && Number(row.mtime_ms) === file.mtimeMs) continue;
      const hash = await hashFile(file.path);
      if (row && hash !== undefined && row.content_hash === hash) {
        this.#store.documents.touchFile(row.id, file.size, file.mtimeMs);
        continue;
      }
      toRead.push({ ...file, name: basename(file.path), hash });
    }

    // Counted once, then kept up to date file by file (a count over 50,000 rows per file read
    // was most of main's time while reading).
    const counts = this.#store.documents.chunkCounts(id);
    const tokens = Number(this.#store.row(id).tokens);
    const pacer = this.#progressPacer();
    const progress = (filesDone: number) =>
      pacer.update({
        kbId: id,
        phase: 'reading',
        files: { done: filesDone, total: toRead.length },
        chunks: { done: counts.embedded, total: counts.chunks },
        tokens,
      });
    progress(0);
    let done = 0;
    try {
      await this.#options.readDocuments(
        toRead.map((f) => f.path),
        {
          signal,
          onResult: (index, result) => {
            const file = toRead[index] as ReadFile;
            const previous: FileRow | undefined = known.get(file.path);
            const chunks = result.ok
              ? chunkDocument(result.document, this.#options.chunking ?? CHUNK_OPTIONS)
              : [];
            const change = this.#store.documents.saveFile(
              id,
              { fileId: previous?.id ?? randomUUID(), known: previous !== undefined },
              file,
              result,
              chunks,
              this.#now(),
            );
            this.#options.chunksChanged(id);
            counts.chunks += change.chunks;
            counts.embedded += change.embedded;
            done++;
            progress(done);
          },
        },
      );
    } finally {
      pacer.flush();
    }
  }

  /** Progress events of one phase, paced (progress-pacer.ts); flush it when the phase ends. */
  #progressPacer(): ProgressPacer<Progress> {
    return new ProgressPacer(
      (progress) => this.#options.emit('knowledgeProgress', progress),
      this.#options.progressIntervalMs ?? KNOWLEDGE_PROGRESS_INTERVAL_MS,
    );
  }

  async #embed(id: string, signal: AbortSignal): Promise<void> {
    const store = this.#store;
    const base = store.row(id);
    const pending = store.documents.pendingChunks(id);
    const files = store.documents.readyFileCount(id);
    // Counted once, then kept up to date batch by batch, as the batches are saved.
    const counts = store.documents.chunkCounts(id);
    let tokens = Number(base.tokens);
    const pacer = this.#progressPacer();
    const progress = () =>
      pacer.update({
        kbId: id,
        phase: 'embedding',
        files: { done: files, total: files },
        chunks: { done: counts.embedded, total: counts.chunks },
        tokens,
      });
    progress();
    if (pending.length === 0) return pacer.flush();
    const client = await this.#options.client(base.connection_id, `knowledge-${id}`);
    let dimensions = base.dimensions === null ? undefined : Number(base.dimensions);
    const size = Math.max(1, this.#options.batchSize ?? KNOWLEDGE_BATCH_SIZE);
    const batches: number[][] = [];
    for (let i = 0; i < pending.length; i += size) batches.push(pending.slice(i, i + size));
    // The batches stop together: the person cancelled, or one failed.
    const stop = new AbortController();
    const onCancel = () => stop.abort();
    signal.addEventListener('abort', onCancel, { once: true });
    let failure: unknown;
    const worker = async () => {
      for (let batch = batches.shift(); batch !== undefined; batch = batches.shift()) {
        if (stop.signal.aborted) return;
        const rows = store.documents.unembedded(batch);
        if (rows.length === 0) continue;
        let result;
        try {
          result = await client.embed(
            { model: base.model, input: rows.map((r) => r.text) },
            { signal: stop.signal, priority: 'background' },
          );
          for (const vector of result.vectors) {
            if (dimensions === undefined) dimensions = vector.length;
            else if (vector.length !== dimensions)
              throw new RelayError(
                'bad_response',
                said('knowledge.dimensions', {
                  got: vector.length,
                  want: dimensions,
                }),
              );
          }
        } catch (error) {
          if (!stop.signal.aborted) {
            failure = error;
            stop.abort();
          }
          return;
        }
        // A batch that arrived is kept, even if indexing stopped meanwhile.
        const batchTokens = result.usage?.promptTokens ?? 0;
        counts.embedded += store.documents.saveVectors(
          id,
          rows.map((r) => r.id),
          result.vectors,
          dimensions,
          batchTokens,
        );
        tokens += batchTokens;
        this.#options.chunksChanged(id);
        progress();
      }
    };
    try {
      const workers = Math.max(1, Math.floor(this.#options.concurrency ?? MAX_CONCURRENT_REQUESTS));
      await Promise.all(Array.from({ length: Math.min(workers, batches.length) }, worker));
    } finally {
      signal.removeEventListener('abort', onCancel);
      pacer.flush();
    }
    if (failure !== undefined && !signal.aborted) throw failure;
  }
}
