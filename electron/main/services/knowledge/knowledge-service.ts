/**
 * Knowledge bases (see migrations.ts for the tables): create, rename and delete them, add files
 * and folders, index them, and search them by meaning.
 *
 * Indexing, one base at a time, in two phases:
 * 1. Reading: the sources are walked; a file whose size and modification time are as last read
 *    is left alone, else its bytes are hashed, and only a file whose hash changed is read for its
 *    text (in the document worker), chunked (chunking.ts) and its chunks replaced. A chunk whose
 *    text is unchanged keeps its vector. A file no longer found drops with its chunks; a file
 *    that cannot be read is kept as refused, by name and reason, and the others go in.
 * 2. Embedding: every chunk without a vector goes to the relay in batches, through the
 *    connection's request limiter behind the person's own requests, several at once; each batch
 *    is saved as it arrives. Cancel, a failure (402, a 429 that outlasted the retries) or the app
 *    closing stops the batches still to go and keeps the saved ones: indexing again resumes.
 *
 * Search embeds the question with the base's model and ranks the chunks by cosine similarity
 * (vector-search.ts says why a scan).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import type { Emit, Events } from '../../../shared/ipc/contract';
import { messageRefFields, type IpcError, type PayloadOf } from '../../../shared/ipc/define';
import { KNOWLEDGE_LIMITS } from '../../../shared/limits';
import {
  type KnowledgeBase,
  type KnowledgeBaseDetail,
  type KnowledgeHit,
  type KnowledgeStatus,
  type KnowledgeFile,
} from '../../../shared/ipc/routes/knowledge';
import { AppError, errorInfo, faultInfo, refusal, type Refusal } from '../app-error';
import { CHARS_PER_TOKEN } from '../chat/attachments';
import { migrate, type Db } from '../database';
import type { DocumentResult } from '../documents/document-text';
import type { ReadDocuments } from '../documents/read-documents';
import { bytesToVector, vectorToBytes } from '../embeddings/run-store';
import { MAX_CONCURRENT_REQUESTS } from '../relay/limiter';
import { RelayError, type RelayClient } from '../relay/relay-client';
import { CHUNK_OPTIONS, chunkDocument, isHeadingsOnly, type ChunkOptions } from './chunking';
import { KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS } from './migrations';
import { ProgressPacer } from './progress-pacer';
import { PackedVectors } from './vector-search';
import { Listeners } from '../listeners';
import { nativeText, said } from '../words';

export const KNOWLEDGE_BATCH_SIZE = 64;
/** At most ten progress events a second: enough for a progress bar, and ten renders at most. */
export const KNOWLEDGE_PROGRESS_INTERVAL_MS = 100;
/** The most files one base holds; a folder with more is cut there, and the person told. */
export const MAX_KNOWLEDGE_FILES = 10_000;

export interface KnowledgeDialogs {
  chooseOpenPaths(options: { title: string; multiple?: boolean }): Promise<string[]>;
  chooseFolder?(options: { title: string }): Promise<string | undefined>;
}

export interface KnowledgeServiceOptions {
  db: Db;
  emit: Emit;
  /** A relay client for a saved connection; retries are reported under `requestId`. */
  client(connectionId: string, requestId: string): Promise<RelayClient>;
  /** The active connection's id, for a new base. */
  activeConnection(): Promise<string | undefined>;
  /** Connection names by id, for the list. */
  connectionNames(): Promise<Map<string, string>>;
  readDocuments: ReadDocuments;
  dialogs: KnowledgeDialogs;
  /** Shows a file in the system's file manager; absent where there is no desktop. */
  showInFolder?(path: string): void;
  /** The input price of a model per million tokens, when the person entered one. */
  inputPrice?(model: string): Promise<{ perMillion: number; currency: string } | undefined>;
  batchSize?: number;
  concurrency?: number;
  /** The least time between two progress events of one indexing phase (default 100 ms). */
  progressIntervalMs?: number;
  chunking?: ChunkOptions;
  now?: () => Date;
}

interface BaseRow {
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

interface FileRow {
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

/** A file found under the sources, as the disk has it now. */
interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new AppError('invalid_request', said('knowledge.nameMissing'));
  if (trimmed.length > KNOWLEDGE_LIMITS.name)
    throw new AppError(
      'invalid_request',
      said('knowledge.nameTooLong', { max: KNOWLEDGE_LIMITS.name }),
    );
  return trimmed;
}

/** A refused file's key and values as stored; nothing when it has none or they do not read. */
function storedWords(
  row: Pick<FileRow, 'message_id' | 'message_values'>,
): Pick<KnowledgeFile, 'messageId' | 'values'> {
  if (row.message_id === null) return {};
  if (row.message_values === null) return { messageId: row.message_id };
  const values = messageRefFields.values.safeParse(parseJson(row.message_values));
  return values.success && values.data !== undefined
    ? { messageId: row.message_id, values: values.data }
    : { messageId: row.message_id };
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

function parseError(json: string | null): IpcError | undefined {
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as IpcError;
  } catch {
    return undefined;
  }
}

/** Why indexing stopped: the relay's error or the app's refusal; a fault, said plainly. */
function indexError(error: unknown): IpcError {
  return faultInfo(error, 'app.fault.indexing');
}

/** sha256 of a file's bytes, read as a stream (a large PDF never sits whole in main). */
function hashFile(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (data) => hash.update(data))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', () => resolve(undefined));
  });
}

/** How many chunks past `k` a search looks at, to have passages to rank before a heading. */
const HEADING_SPARES = 4;

export class KnowledgeService {
  readonly #options: KnowledgeServiceOptions;
  readonly #running = new Map<string, { controller: AbortController; finished: Promise<void> }>();
  /** Each base's vectors, packed for search; dropped when its chunks change. */
  readonly #packs = new Map<string, PackedVectors>();

  private constructor(options: KnowledgeServiceOptions) {
    this.#options = options;
  }

  static async open(options: KnowledgeServiceOptions): Promise<KnowledgeService> {
    await migrate(options.db, KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS);
    const service = new KnowledgeService(options);
    // Indexing cut short by the app closing: its saved chunks and vectors stay; Index resumes.
    options.db.run(
      `UPDATE knowledge_bases SET status = 'cancelled', error = ? WHERE status = 'indexing'`,
      [JSON.stringify(errorInfo(new AppError('aborted', said('knowledge.closedWhileIndexing'))))],
    );
    return service;
  }

  get #db(): Db {
    return this.#options.db;
  }

  #now(): string {
    return (this.#options.now?.() ?? new Date()).toISOString();
  }

  #row(id: string): BaseRow {
    const row = this.#db.one<BaseRow>('SELECT * FROM knowledge_bases WHERE id = ?', [id]);
    if (row === undefined) throw new AppError('not_found', said('knowledge.gone'));
    return row;
  }

  /**
   * Tells the page a base changed; `synced` (a base made, renamed, deleted, its sources or model
   * changed, not its indexing) also tells whoever listens with `onChange`: sync.
   */
  #changed(kbId: string | null, synced = true): void {
    this.#options.emit('knowledgeChanged', { kbId });
    if (synced) this.#listeners.tell();
  }

  readonly #listeners = new Listeners();

  /** Calls `listener` after each change of what syncs of a base; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  #summary(row: BaseRow, names: Map<string, string>): KnowledgeBase {
    const counts = this.#db.one<{ files: number; refused: number }>(
      `SELECT COUNT(*) FILTER (WHERE status = 'ready') AS files,
              COUNT(*) FILTER (WHERE status = 'refused') AS refused
         FROM knowledge_files WHERE kb_id = ?`,
      [row.id],
    );
    const chunks = this.#chunkCounts(row.id);
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

  async list(): Promise<KnowledgeBase[]> {
    const names = await this.#options.connectionNames();
    return this.#db
      .all<BaseRow>('SELECT * FROM knowledge_bases ORDER BY name COLLATE NOCASE, created_at')
      .map((row) => this.#summary(row, names));
  }

  async get(id: string): Promise<KnowledgeBaseDetail> {
    const row = this.#row(id);
    const summary = this.#summary(row, await this.#options.connectionNames());
    // A source is named to the page by its row id: the page removes it by that, never by path.
    const rows = this.#db.all<{ id: number; path: string; kind: 'file' | 'folder' }>(
      'SELECT rowid AS id, path, kind FROM knowledge_sources WHERE kb_id = ? ORDER BY added_at, path',
      [id],
    );
    // A source not on this computer (synced from another where it is) is said to be missing.
    const sources = await Promise.all(
      rows.map(async (source) => {
        const found = await lstat(source.path).then(
          (info) => (source.kind === 'folder' ? info.isDirectory() : info.isFile()),
          () => false,
        );
        return { ...source, id: String(source.id), ...(found ? {} : { missing: true }) };
      }),
    );
    // The files listed first, then the chunks of those alone: counting every file's chunks
    // read every chunk of the base (a quarter of a second at 50,000) for rows never shown.
    const files = this.#db.all<FileRow>(
      'SELECT * FROM knowledge_files WHERE kb_id = ? ORDER BY status DESC, path LIMIT ?',
      [id, KNOWLEDGE_LIMITS.filesListed],
    );
    const counts = new Map(
      files.length === 0
        ? []
        : this.#db
            .all<{ file_id: string; chunks: number; embedded: number }>(
              `SELECT file_id, COUNT(*) AS chunks, COUNT(vector) AS embedded FROM knowledge_chunks
                WHERE file_id IN (${files.map(() => '?').join(',')}) GROUP BY file_id`,
              files.map((f) => f.id),
            )
            .map((c) => [c.file_id, c]),
    );
    const fileList = files.map((f) => ({
      id: f.id,
      path: f.path,
      name: f.name,
      status: f.status,
      reason: f.reason,
      message: f.message,
      ...(f.status === 'refused' ? storedWords(f) : {}),
      chunks: Number(counts.get(f.id)?.chunks ?? 0),
      embedded: Number(counts.get(f.id)?.embedded ?? 0),
    }));
    return { ...summary, sources, fileList };
  }

  /** A new, empty base embedding through `connection` (by default the active connection). */
  async create(name: string, model: string, connection?: string): Promise<KnowledgeBase> {
    const checked = checkName(name);
    const trimmedModel = model.trim();
    if (trimmedModel === '')
      throw new AppError('invalid_request', said('knowledge.chooseModelToBuild'));
    const connectionId = connection ?? (await this.#options.activeConnection());
    if (connectionId === undefined) throw new AppError('not_found', said('app.connectFirst'));
    const id = randomUUID();
    const now = this.#now();
    this.#db.run(
      `INSERT INTO knowledge_bases (id, name, model, connection_id, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'empty', ?, ?)`,
      [id, checked, trimmedModel, connectionId, now, now],
    );
    this.#changed(id);
    return this.#summary(this.#row(id), await this.#options.connectionNames());
  }

  async rename(id: string, name: string): Promise<KnowledgeBase> {
    const checked = checkName(name);
    this.#row(id);
    this.#db.run('UPDATE knowledge_bases SET name = ?, updated_at = ? WHERE id = ?', [
      checked,
      this.#now(),
      id,
    ]);
    this.#changed(id);
    return this.#summary(this.#row(id), await this.#options.connectionNames());
  }

  async delete(id: string): Promise<void> {
    this.#row(id);
    const running = this.#running.get(id);
    running?.controller.abort();
    await running?.finished;
    this.#db.run('DELETE FROM knowledge_bases WHERE id = ?', [id]);
    this.#packs.delete(id);
    this.#changed(null);
  }

  /** Asks for files or a folder, adds them as sources and starts indexing. */
  async addFromDialog(
    id: string,
    kind: 'files' | 'folder',
  ): Promise<{ chosen: boolean; added: number }> {
    const row = this.#row(id);
    const title = nativeText('dialog.addToKnowledgeBase', { name: row.name });
    let paths: string[];
    if (kind === 'folder') {
      const folder = await this.#options.dialogs.chooseFolder?.({ title });
      paths = folder === undefined ? [] : [folder];
    } else {
      paths = await this.#options.dialogs.chooseOpenPaths({ title, multiple: true });
    }
    if (paths.length === 0) return { chosen: false, added: 0 };
    return {
      chosen: true,
      added: await this.addSources(id, paths, kind === 'folder' ? 'folder' : 'file'),
    };
  }

  /** Adds sources (already chosen by the person in main's dialog) and starts indexing. */
  async addSources(id: string, paths: readonly string[], kind: 'file' | 'folder'): Promise<number> {
    return this.#addSources(
      id,
      paths.map((path) => ({ path, kind })),
    );
  }

  async #addSources(
    id: string,
    sources: readonly { path: string; kind: 'file' | 'folder' }[],
  ): Promise<number> {
    this.#row(id);
    const now = this.#now();
    let added = 0;
    this.#db.transaction(() => {
      for (const { path, kind } of sources) {
        added += this.#db.run(
          'INSERT OR IGNORE INTO knowledge_sources (kb_id, path, kind, added_at) VALUES (?, ?, ?, ?)',
          [id, path, kind, now],
        ).changes;
      }
    });
    this.#changed(id);
    await this.index(id);
    return added;
  }

  /**
   * Adds files and folders the person dropped on the page, by the paths of the grants main gave
   * for the drop (never a path the page named): each is looked at on disk (a file or a folder);
   * anything else is refused by name.
   */
  async addDropped(
    id: string,
    paths: readonly string[],
  ): Promise<{ added: number; refused: Refusal[] }> {
    this.#row(id);
    const sources: { path: string; kind: 'file' | 'folder' }[] = [];
    const refused: Refusal[] = [];
    for (const path of paths) {
      const name = basename(path) || path;
      if (!isAbsolute(path)) {
        refused.push(refusal(name, said('knowledge.notAFileHere', { name })));
        continue;
      }
      const stat = await lstat(path).catch(() => undefined);
      if (stat?.isDirectory()) sources.push({ path, kind: 'folder' });
      else if (stat?.isFile()) sources.push({ path, kind: 'file' });
      else
        refused.push(
          refusal(
            name,
            stat === undefined
              ? said('knowledge.notFound', { name })
              : said('knowledge.notFileOrFolder', { name }),
          ),
        );
    }
    const added = sources.length > 0 ? await this.#addSources(id, sources) : 0;
    return { added, refused };
  }

  /** Stops adding a source, named by the id `get` gave it. */
  async removeSource(id: string, sourceId: string): Promise<void> {
    this.#row(id);
    const { changes } = this.#db.run(
      'DELETE FROM knowledge_sources WHERE kb_id = ? AND rowid = ?',
      [id, /^\d{1,15}$/.test(sourceId) ? Number(sourceId) : -1],
    );
    if (changes === 0) throw new AppError('not_found', said('knowledge.sourceGone'));
    this.#changed(id);
    await this.index(id);
  }

  /** Starts indexing in the background (a base already indexing goes on as it is). */
  async index(id: string): Promise<void> {
    const row = this.#row(id);
    if (this.#running.has(id)) return;
    // Say now that the connection is gone, rather than as a failed indexing.
    await this.#options.client(row.connection_id, `knowledge-${id}`);
    this.#db.run(
      `UPDATE knowledge_bases SET status = 'indexing', error = NULL, updated_at = ? WHERE id = ?`,
      [this.#now(), id],
    );
    const controller = new AbortController();
    const finished = this.#process(id, controller.signal).finally(() => this.#running.delete(id));
    this.#running.set(id, { controller, finished });
    this.#changed(id, false);
  }

  cancel(id: string): void {
    this.#row(id);
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
      this.#db.run(
        'UPDATE knowledge_bases SET status = ?, error = ?, updated_at = ? WHERE id = ?',
        [status, error ? JSON.stringify(error) : null, this.#now(), id],
      );
      this.#options.emit('knowledgeIndexEnded', {
        kbId: id,
        ...(error ? { status, error } : { status }),
      });
      this.#changed(id, false);
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

  /** The files under the base's sources now, in a stable order; hidden files are left out. */
  async #walk(id: string): Promise<FoundFile[]> {
    const sources = this.#db.all<{ path: string; kind: 'file' | 'folder' }>(
      'SELECT path, kind FROM knowledge_sources WHERE kb_id = ? ORDER BY path',
      [id],
    );
    const found = new Map<string, FoundFile>();
    const visit = async (path: string, depth: number): Promise<void> => {
      if (found.size >= MAX_KNOWLEDGE_FILES || depth > 32) return;
      let info;
      try {
        info = await lstat(path);
      } catch {
        return; // gone: its file drops out below
      }
      if (info.isDirectory()) {
        let entries: string[];
        try {
          entries = (await readdir(path)).sort();
        } catch {
          return;
        }
        for (const entry of entries) {
          if (entry.startsWith('.')) continue;
          await visit(join(path, entry), depth + 1);
        }
      } else if (info.isFile()) {
        found.set(path, { path, size: info.size, mtimeMs: info.mtimeMs });
      }
      // Links are not followed: a link loop, or a link out of the folder, adds nothing.
    };
    for (const source of sources) await visit(source.path, 0);
    return [...found.values()];
  }

  async #read(id: string, signal: AbortSignal): Promise<void> {
    const found = await this.#walk(id);
    const known = new Map(
      this.#db
        .all<FileRow>('SELECT * FROM knowledge_files WHERE kb_id = ?', [id])
        .map((f) => [f.path, f]),
    );
    // Files no longer found drop with their chunks.
    const present = new Set(found.map((f) => f.path));
    const gone = [...known.values()].filter((f) => !present.has(f.path));
    if (gone.length > 0) {
      this.#db.transaction(() => {
        for (const f of gone) this.#db.run('DELETE FROM knowledge_files WHERE id = ?', [f.id]);
      });
      this.#packs.delete(id);
    }

    const toRead: Array<FoundFile & { hash: string | undefined }> = [];
    for (const file of found) {
      signal.throwIfAborted();
      const row = known.get(file.path);
      if (row && Number(row.size) === file.size && Number(row.mtime_ms) === file.mtimeMs) continue;
      const hash = await hashFile(file.path);
      if (row && hash !== undefined && row.content_hash === hash) {
        this.#db.run('UPDATE knowledge_files SET size = ?, mtime_ms = ? WHERE id = ?', [
          file.size,
          file.mtimeMs,
          row.id,
        ]);
        continue;
      }
      toRead.push({ ...file, hash });
    }

    // Counted once, then kept up to date file by file (a count over 50,000 rows per file read
    // was most of main's time while reading).
    const counts = this.#chunkCounts(id);
    const tokens = Number(this.#row(id).tokens);
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
            const file = toRead[index] as (typeof toRead)[number];
            const change = this.#storeFile(id, file, known.get(file.path), result);
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

  /**
   * Saves one file's reading: its chunks (keeping the vectors of unchanged text), or its refusal.
   * Returns how many chunks, and embedded chunks, the base gained (negative: lost).
   */
  #storeFile(
    id: string,
    file: FoundFile & { hash: string | undefined },
    previous: FileRow | undefined,
    result: DocumentResult,
  ): { chunks: number; embedded: number } {
    const fileId = previous?.id ?? randomUUID();
    const now = this.#now();
    const name = basename(file.path);
    const change = { chunks: 0, embedded: 0 };
    this.#db.transaction(() => {
      const kept = new Map<string, Uint8Array>();
      if (previous) {
        const before = this.#db.one<{ chunks: number; embedded: number }>(
          'SELECT COUNT(*) AS chunks, COUNT(vector) AS embedded FROM knowledge_chunks WHERE file_id = ?',
          [fileId],
        );
        change.chunks -= Number(before?.chunks ?? 0);
        change.embedded -= Number(before?.embedded ?? 0);
        for (const c of this.#db.all<{ hash: string; vector: ArrayBuffer | Uint8Array | null }>(
          'SELECT hash, vector FROM knowledge_chunks WHERE file_id = ? AND vector IS NOT NULL',
          [fileId],
        )) {
          if (c.vector) kept.set(c.hash, new Uint8Array(c.vector as ArrayBuffer));
        }
        this.#db.run('DELETE FROM knowledge_chunks WHERE file_id = ?', [fileId]);
      }
      const status = result.ok ? 'ready' : 'refused';
      const reason = result.ok ? null : result.refusal.reason;
      const message = result.ok ? null : result.refusal.message;
      const messageId = result.ok ? null : (result.refusal.messageId ?? null);
      const messageValues =
        result.ok || result.refusal.values === undefined
          ? null
          : JSON.stringify(result.refusal.values);
      this.#db.run(
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
          name,
          file.size,
          file.mtimeMs,
          file.hash ?? null,
          status,
          reason,
          message,
          messageId,
          messageValues,
          now,
        ],
      );
      if (!result.ok) return;
      const chunks = chunkDocument(result.document, this.#options.chunking ?? CHUNK_OPTIONS);
      change.chunks += chunks.length;
      change.embedded += chunks.filter((chunk) => kept.has(chunk.hash)).length;
      chunks.forEach((chunk, ord) => {
        this.#db.run(
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
    this.#packs.delete(id);
    return change;
  }

  /** Progress events of one phase, paced (progress-pacer.ts); flush it when the phase ends. */
  #progressPacer(): ProgressPacer<PayloadOf<Events['knowledgeProgress']>> {
    return new ProgressPacer(
      (progress) => this.#options.emit('knowledgeProgress', progress),
      this.#options.progressIntervalMs ?? KNOWLEDGE_PROGRESS_INTERVAL_MS,
    );
  }

  /**
   * A base's chunks and how many are embedded, from the index on (kb_id, vector IS NULL) alone:
   * `COUNT(vector)` would read every row (its text and vector) from the table instead.
   */
  #chunkCounts(id: string): { chunks: number; embedded: number } {
    const row = this.#db.one<{ chunks: number; pending: number | null }>(
      'SELECT COUNT(*) AS chunks, SUM(vector IS NULL) AS pending FROM knowledge_chunks WHERE kb_id = ?',
      [id],
    );
    const chunks = Number(row?.chunks ?? 0);
    return { chunks, embedded: chunks - Number(row?.pending ?? 0) };
  }

  async #embed(id: string, signal: AbortSignal): Promise<void> {
    const base = this.#row(id);
    // `(vector IS NULL) = 1` is the indexed expression, so only the rows to embed are read.
    const pending = this.#db
      .all<{ id: number }>(
        'SELECT id FROM knowledge_chunks WHERE kb_id = ? AND (vector IS NULL) = 1 ORDER BY file_id, ord',
        [id],
      )
      .map((r) => Number(r.id));
    const files = this.#db.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM knowledge_files WHERE kb_id = ? AND status = 'ready'`,
      [id],
    );
    // Counted once, then kept up to date batch by batch, as the batches are saved.
    const counts = this.#chunkCounts(id);
    let tokens = Number(base.tokens);
    const pacer = this.#progressPacer();
    const progress = () =>
      pacer.update({
        kbId: id,
        phase: 'embedding',
        files: { done: Number(files?.n ?? 0), total: Number(files?.n ?? 0) },
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
        const rows = this.#db.all<{ id: number; text: string }>(
          `SELECT id, text FROM knowledge_chunks WHERE id IN (${batch.map(() => '?').join(',')})
             AND vector IS NULL`,
          batch,
        );
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
        let saved = 0;
        this.#db.transaction(() => {
          rows.forEach((row, i) => {
            const vector = result.vectors[i];
            if (vector)
              saved += this.#db.run('UPDATE knowledge_chunks SET vector = ? WHERE id = ?', [
                vectorToBytes(vector),
                row.id,
              ]).changes;
          });
          this.#db.run(
            'UPDATE knowledge_bases SET dimensions = COALESCE(dimensions, ?), tokens = tokens + ? WHERE id = ?',
            [dimensions ?? null, result.usage?.promptTokens ?? 0, id],
          );
        });
        counts.embedded += saved;
        tokens += result.usage?.promptTokens ?? 0;
        this.#packs.delete(id);
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

  #pack(id: string, dimensions: number): PackedVectors {
    let pack = this.#packs.get(id);
    if (pack === undefined || pack.dimensions !== dimensions) {
      const rows = this.#db.all<{ id: number; vector: ArrayBuffer | Uint8Array }>(
        'SELECT id, vector FROM knowledge_chunks WHERE kb_id = ? AND vector IS NOT NULL ORDER BY id',
        [id],
      );
      pack = PackedVectors.fromBlobs(dimensions, rows);
      this.#packs.set(id, pack);
    }
    return pack;
  }

  /** A base's model and dimensions, or undefined when it does not exist (any more). */
  base(
    id: string,
  ): { id: string; name: string; model: string; dimensions: number | null } | undefined {
    const row = this.#db.one<BaseRow>('SELECT * FROM knowledge_bases WHERE id = ?', [id]);
    if (row === undefined) return undefined;
    return {
      id: row.id,
      name: row.name,
      model: row.model,
      dimensions: row.dimensions === null ? null : Number(row.dimensions),
    };
  }

  /**
   * Embeds a question with the base's model, through its connection's request limiter (with the
   * app's 402 and 429 behaviour); refuses a base with nothing embedded yet.
   */
  async questionVector(
    id: string,
    question: string,
    requestId: string = randomUUID(),
  ): Promise<{ vector: number[]; tokens?: number }> {
    const base = this.#row(id);
    const text = question.trim();
    if (text === '') throw new AppError('invalid_request', said('knowledge.writeQuestion'));
    const dimensions = base.dimensions === null ? undefined : Number(base.dimensions);
    if (dimensions === undefined || this.#chunkCounts(id).embedded === 0)
      throw new AppError('invalid_request', said('knowledge.nothingEmbedded', { name: base.name }));
    const client = await this.#options.client(base.connection_id, requestId);
    const result = await client.embed({ model: base.model, input: [text] });
    const vector = result.vectors[0] ?? [];
    if (vector.length !== dimensions)
      throw new RelayError(
        'bad_response',
        said('knowledge.questionDimensions', { got: vector.length, want: dimensions }),
      );
    const tokens = result.usage?.promptTokens;
    return tokens === undefined ? { vector } : { vector, tokens };
  }

  /** Chunks by id with their file, position and vector; ids not found (any more) are left out. */
  chunks(
    id: string,
    chunkIds: readonly string[],
  ): Array<Omit<KnowledgeHit, 'rank' | 'score'> & { vector: Float32Array | null }> {
    return chunkIds.flatMap((chunkId) => {
      const row = this.#db.one<{
        text: string;
        page: number | null;
        headings: string;
        line_start: number;
        line_end: number;
        path: string;
        name: string;
        vector: ArrayBuffer | Uint8Array | null;
      }>(
        `SELECT c.text, c.page, c.headings, c.line_start, c.line_end, c.vector, f.path, f.name
           FROM knowledge_chunks c JOIN knowledge_files f ON f.id = c.file_id
          WHERE c.id = ? AND c.kb_id = ?`,
        [Number(chunkId), id],
      );
      if (row === undefined) return [];
      return [
        {
          chunkId: String(chunkId),
          fileName: row.name,
          path: row.path,
          position: {
            page: row.page === null ? null : Number(row.page),
            headings: JSON.parse(row.headings) as string[],
            lineStart: Number(row.line_start),
            lineEnd: Number(row.line_end),
          },
          text: row.text,
          vector: row.vector === null ? null : bytesToVector(row.vector),
        },
      ];
    });
  }

  /**
   * The `k` embedded chunks most similar to `vector`, best first, with their vectors. A chunk
   * that is only headings (a base indexed before headings were folded into the text under them,
   * or a heading before a section too long to share its chunk) ranks after the passages found
   * with it, keeping its own score: a heading's few words resemble a question more than the
   * passage that answers it.
   */
  nearest(
    id: string,
    vector: readonly number[],
    k: number,
  ): Array<KnowledgeHit & { vector: Float32Array | null }> {
    const base = this.#row(id);
    if (base.dimensions === null) return [];
    const top = this.#pack(id, Number(base.dimensions)).top(vector, k + HEADING_SPARES);
    const found = new Map(
      this.chunks(
        id,
        top.map((t) => String(t.id)),
      ).map((c) => [c.chunkId, c]),
    );
    const scored = top.flatMap(({ id: chunkId, score }) => {
      const chunk = found.get(String(chunkId));
      return chunk ? [{ ...chunk, score, headingsOnly: isHeadingsOnly(chunk.text) }] : [];
    });
    const ranked = [
      ...scored.filter((hit) => !hit.headingsOnly),
      ...scored.filter((hit) => hit.headingsOnly),
    ].slice(0, k);
    return ranked.map(({ headingsOnly: _headingsOnly, ...hit }, i) => ({ ...hit, rank: i + 1 }));
  }

  /** Embeds the question with the base's model and ranks its embedded chunks by cosine. */
  async search(
    id: string,
    question: string,
    topK = 5,
  ): Promise<{ hits: KnowledgeHit[]; tokens?: number }> {
    const { vector, tokens } = await this.questionVector(id, question);
    const hits = this.nearest(id, vector, Math.min(topK, KNOWLEDGE_LIMITS.topK)).map(
      ({ vector: _vector, ...hit }, i) => ({ ...hit, rank: i + 1 }),
    );
    return tokens === undefined ? { hits } : { hits, tokens };
  }
  /** Shows a file of the base in the system's file manager, if it is still where it was read. */
  async revealFile(id: string, fileId: string): Promise<void> {
    this.#row(id);
    const file = this.#db.one<{ path: string; name: string }>(
      'SELECT path, name FROM knowledge_files WHERE kb_id = ? AND id = ?',
      [id, fileId],
    );
    if (file === undefined) throw new AppError('not_found', said('knowledge.fileGone'));
    const stat = await lstat(file.path).catch(() => undefined);
    if (stat === undefined)
      throw new AppError(
        'not_found',
        said('knowledge.fileMoved', { name: file.name, path: file.path }),
      );
    if (this.#options.showInFolder === undefined)
      throw new AppError('invalid_request', said('knowledge.noFileManager'));
    this.#options.showInFolder(file.path);
  }

  /**
   * What embedding every chunk again with another model sends: the chunks, an estimate of their
   * tokens (about four characters a token), and its cost where the person priced the model.
   */
  async estimateModelChange(
    id: string,
    model: string,
  ): Promise<{
    chunks: number;
    tokens: number;
    cost: { amount: number; currency: string } | null;
  }> {
    this.#row(id);
    const totals = this.#db.one<{ chunks: number; chars: number | null }>(
      'SELECT COUNT(*) AS chunks, SUM(LENGTH(text)) AS chars FROM knowledge_chunks WHERE kb_id = ?',
      [id],
    );
    const chunks = Number(totals?.chunks ?? 0);
    const tokens = Math.ceil(Number(totals?.chars ?? 0) / CHARS_PER_TOKEN);
    const price = await this.#options.inputPrice?.(model.trim());
    return {
      chunks,
      tokens,
      cost: price
        ? { amount: (tokens / 1_000_000) * price.perMillion, currency: price.currency }
        : null,
    };
  }

  /**
   * Moves the base to another embeddings model: the model is tried first on one chunk (a model
   * the relay refuses changes nothing), then every vector is dropped and indexing embeds the
   * chunks again. The files are not read again: their chunks stay.
   */
  async changeModel(id: string, model: string): Promise<KnowledgeBase> {
    const row = this.#row(id);
    const next = model.trim();
    if (next === '') throw new AppError('invalid_request', said('knowledge.chooseModel'));
    if (next === row.model)
      throw new AppError(
        'invalid_request',
        said('knowledge.alreadyUses', { name: row.name, model: next }),
      );
    if (this.#running.has(id))
      throw new AppError('invalid_request', said('knowledge.indexingRunning'));
    const sample = this.#db.one<{ text: string }>(
      'SELECT text FROM knowledge_chunks WHERE kb_id = ? ORDER BY id LIMIT 1',
      [id],
    );
    if (sample !== undefined) {
      const client = await this.#options.client(row.connection_id, randomUUID());
      const probe = await client.embed({ model: next, input: [sample.text] });
      if ((probe.vectors[0]?.length ?? 0) === 0)
        throw new RelayError('bad_response', said('knowledge.noVector', { model: next }));
    }
    this.#db.transaction(() => {
      this.#db.run(
        `UPDATE knowledge_bases SET model = ?, dimensions = NULL, tokens = 0, updated_at = ?
          WHERE id = ?`,
        [next, this.#now(), id],
      );
      this.#db.run('UPDATE knowledge_chunks SET vector = NULL WHERE kb_id = ?', [id]);
    });
    this.#packs.delete(id);
    this.#changed(id);
    if (sample !== undefined) await this.index(id);
    return this.#summary(this.#row(id), await this.#options.connectionNames());
  }
  /**
   * A second base over the same files and folders with another embeddings model, indexed at
   * once: to see side by side what each model finds for the person's own questions.
   */
  async copyWithModel(id: string, model: string): Promise<KnowledgeBase> {
    const row = this.#row(id);
    const next = model.trim();
    if (next === '') throw new AppError('invalid_request', said('knowledge.chooseModel'));
    if (next === row.model)
      throw new AppError(
        'invalid_request',
        said('knowledge.alreadyUsesChoose', { name: row.name, model: next }),
      );
    const suffix = ` · ${next}`;
    const name = row.name.slice(0, Math.max(1, KNOWLEDGE_LIMITS.name - suffix.length)) + suffix;
    const copyId = randomUUID();
    const now = this.#now();
    this.#db.transaction(() => {
      this.#db.run(
        `INSERT INTO knowledge_bases (id, name, model, connection_id, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'empty', ?, ?)`,
        [copyId, name.slice(0, KNOWLEDGE_LIMITS.name), next, row.connection_id, now, now],
      );
      this.#db.run(
        `INSERT INTO knowledge_sources (kb_id, path, kind, added_at)
         SELECT ?, path, kind, ? FROM knowledge_sources WHERE kb_id = ?`,
        [copyId, now, id],
      );
    });
    this.#changed(copyId);
    if (this.#db.one('SELECT 1 FROM knowledge_sources WHERE kb_id = ? LIMIT 1', [copyId]))
      await this.index(copyId);
    return this.#summary(this.#row(copyId), await this.#options.connectionNames());
  }
}
