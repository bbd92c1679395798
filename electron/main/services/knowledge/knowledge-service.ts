/**
 * Knowledge bases: create, rename and delete them, add files and folders, index them, and search
 * them by meaning. The work is done by three parts, built together in index.ts:
 * - the store (knowledge-store.ts): every statement over the tables (see migrations.ts);
 * - the indexer (knowledge-indexer.ts): the file walk, reading, chunking and embedding, with
 *   progress;
 * - the search (knowledge-search.ts): a question embedded and the chunks ranked by cosine.
 * This class checks what the person asked, asks the parts, and says what changed.
 */
import { randomUUID } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import type { Emit } from '../../../shared/ipc/contract';
import { KNOWLEDGE_LIMITS } from '../../../shared/limits';
import type {
  KnowledgeBase,
  KnowledgeBaseDetail,
  KnowledgeHit,
} from '../../../shared/ipc/routes/knowledge';
import { AppError, refusal, type Refusal } from '../app-error';
import { CHARS_PER_TOKEN } from '../chat/attachment-format';
import { RelayError, type RelayClient } from '../relay/relay-client';
import type { KnowledgeIndexer } from './knowledge-indexer';
import type { FoundChunk, KnowledgeSearch } from './knowledge-search';
import { storedWords } from './document-store';
import type { BaseRow, KnowledgeStore, SourceKind } from './knowledge-store';
import { Listeners } from '../listeners';
import { nativeText, said } from '../words';

export interface KnowledgeDialogs {
  chooseOpenPaths(options: { title: string; multiple?: boolean }): Promise<string[]>;
  chooseFolder?(options: { title: string }): Promise<string | undefined>;
}

/** What the service asks of the app beside its parts. */
export interface KnowledgeServiceDeps {
  emit: Emit;
  /** A relay client for a saved connection; retries are reported under `requestId`. */
  client(connectionId: string, requestId: string): Promise<RelayClient>;
  /** The active connection's id, for a new base. */
  activeConnection(): Promise<string | undefined>;
  /** Connection names by id, for the list. */
  connectionNames(): Promise<Map<string, string>>;
  dialogs: KnowledgeDialogs;
  /** Shows a file in the system's file manager; absent where there is no desktop. */
  showInFolder?(path: string): void;
  /** The input price of a model per million tokens, when the person entered one. */
  inputPrice?(model: string): Promise<{ perMillion: number; currency: string } | undefined>;
  now?: () => Date;
}

export interface KnowledgeParts {
  store: KnowledgeStore;
  indexer: KnowledgeIndexer;
  search: KnowledgeSearch;
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

export class KnowledgeService {
  readonly #deps: KnowledgeServiceDeps;
  readonly #store: KnowledgeStore;
  readonly #indexer: KnowledgeIndexer;
  readonly #search: KnowledgeSearch;
  readonly #listeners = new Listeners();

  constructor(deps: KnowledgeServiceDeps, parts: KnowledgeParts) {
    this.#deps = deps;
    this.#store = parts.store;
    this.#indexer = parts.indexer;
    this.#search = parts.search;
  }

  #now(): string {
    return (this.#deps.now?.() ?? new Date()).toISOString();
  }

  /**
   * Tells the page a base changed; `synced` (a base made, renamed, deleted, its sources or model
   * changed, not its indexing) also tells whoever listens with `onChange`: sync.
   */
  #changed(kbId: string | null, synced = true): void {
    this.#deps.emit('knowledgeChanged', { kbId });
    if (synced) this.#listeners.tell();
  }

  /** Calls `listener` after each change of what syncs of a base; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  async #summary(row: BaseRow): Promise<KnowledgeBase> {
    return this.#store.summary(row, await this.#deps.connectionNames());
  }

  async list(): Promise<KnowledgeBase[]> {
    const names = await this.#deps.connectionNames();
    return this.#store.rows().map((row) => this.#store.summary(row, names));
  }

  async get(id: string): Promise<KnowledgeBaseDetail> {
    const summary = await this.#summary(this.#store.row(id));
    // A source is named to the page by its row id: the page removes it by that, never by path.
    // A source not on this computer (synced from another where it is) is said to be missing.
    const sources = await Promise.all(
      this.#store.sources(id).map(async (source) => {
        const found = await lstat(source.path).then(
          (info) => (source.kind === 'folder' ? info.isDirectory() : info.isFile()),
          () => false,
        );
        return { ...source, id: String(source.id), ...(found ? {} : { missing: true }) };
      }),
    );
    const fileList = this.#store.documents
      .listedFiles(id, KNOWLEDGE_LIMITS.filesListed)
      .map((f) => ({
        id: f.id,
        path: f.path,
        name: f.name,
        status: f.status,
        reason: f.reason,
        message: f.message,
        ...(f.status === 'refused' ? storedWords(f) : {}),
        chunks: f.chunks,
        embedded: f.embedded,
      }));
    return { ...summary, sources, fileList };
  }

  /** A new, empty base embedding through `connection` (by default the active connection). */
  async create(name: string, model: string, connection?: string): Promise<KnowledgeBase> {
    const checked = checkName(name);
    const trimmedModel = model.trim();
    if (trimmedModel === '')
      throw new AppError('invalid_request', said('knowledge.chooseModelToBuild'));
    const connectionId = connection ?? (await this.#deps.activeConnection());
    if (connectionId === undefined) throw new AppError('not_found', said('app.connectFirst'));
    const id = randomUUID();
    this.#store.insert({ id, name: checked, model: trimmedModel, connectionId, now: this.#now() });
    this.#changed(id);
    return this.#summary(this.#store.row(id));
  }

  async rename(id: string, name: string): Promise<KnowledgeBase> {
    const checked = checkName(name);
    this.#store.row(id);
    this.#store.rename(id, checked, this.#now());
    this.#changed(id);
    return this.#summary(this.#store.row(id));
  }

  async delete(id: string): Promise<void> {
    this.#store.row(id);
    await this.#indexer.stop(id);
    this.#store.delete(id);
    this.#search.invalidate(id);
    this.#changed(null);
  }

  /** Asks for files or a folder, adds them as sources and starts indexing. */
  async addFromDialog(
    id: string,
    kind: 'files' | 'folder',
  ): Promise<{ chosen: boolean; added: number }> {
    const row = this.#store.row(id);
    const title = nativeText('dialog.addToKnowledgeBase', { name: row.name });
    let paths: string[];
    if (kind === 'folder') {
      const folder = await this.#deps.dialogs.chooseFolder?.({ title });
      paths = folder === undefined ? [] : [folder];
    } else {
      paths = await this.#deps.dialogs.chooseOpenPaths({ title, multiple: true });
    }
    if (paths.length === 0) return { chosen: false, added: 0 };
    return {
      chosen: true,
      added: await this.addSources(id, paths, kind === 'folder' ? 'folder' : 'file'),
    };
  }

  /** Adds sources (already chosen by the person in main's dialog) and starts indexing. */
  async addSources(id: string, paths: readonly string[], kind: SourceKind): Promise<number> {
    return this.#addSources(
      id,
      paths.map((path) => ({ path, kind })),
    );
  }

  async #addSources(
    id: string,
    sources: readonly { path: string; kind: SourceKind }[],
  ): Promise<number> {
    this.#store.row(id);
    const added = this.#store.addSources(id, sources, this.#now());
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
    this.#store.row(id);
    const sources: { path: string; kind: SourceKind }[] = [];
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
    this.#store.row(id);
    if (!this.#store.removeSource(id, sourceId))
      throw new AppError('not_found', said('knowledge.sourceGone'));
    this.#changed(id);
    await this.index(id);
  }

  /** Starts indexing in the background (a base already indexing goes on as it is). */
  index(id: string): Promise<void> {
    return this.#indexer.start(id);
  }

  cancel(id: string): void {
    this.#store.row(id);
    this.#indexer.cancel(id);
  }

  /** Settles once indexing stops (for tests and for closing the app). */
  whenIdle(id?: string): Promise<void> {
    return this.#indexer.whenIdle(id);
  }

  close(): Promise<void> {
    return this.#indexer.close();
  }

  /** A base's model and dimensions, or undefined when it does not exist (any more). */
  base(
    id: string,
  ): { id: string; name: string; model: string; dimensions: number | null } | undefined {
    const row = this.#store.find(id);
    if (row === undefined) return undefined;
    return {
      id: row.id,
      name: row.name,
      model: row.model,
      dimensions: row.dimensions === null ? null : Number(row.dimensions),
    };
  }

  /** See KnowledgeSearch.questionVector. */
  questionVector(
    id: string,
    question: string,
    requestId?: string,
  ): Promise<{ vector: number[]; tokens?: number }> {
    return this.#search.questionVector(id, question, requestId);
  }

  /** Chunks by id with their file, position and vector; ids not found (any more) are left out. */
  chunks(id: string, chunkIds: readonly string[]): FoundChunk[] {
    return this.#search.chunks(id, chunkIds);
  }

  /** The `k` embedded chunks most similar to `vector`, best first (KnowledgeSearch.nearest). */
  nearest(
    id: string,
    vector: readonly number[],
    k: number,
  ): Array<KnowledgeHit & { vector: Float32Array | null }> {
    return this.#search.nearest(id, vector, k);
  }

  /** Embeds the question with the base's model and ranks its embedded chunks by cosine. */
  search(id: string, question: string, topK?: number) {
    return this.#search.search(id, question, topK);
  }

  /** Shows a file of the base in the system's file manager, if it is still where it was read. */
  async revealFile(id: string, fileId: string): Promise<void> {
    this.#store.row(id);
    const file = this.#store.documents.file(id, fileId);
    if (file === undefined) throw new AppError('not_found', said('knowledge.fileGone'));
    const stat = await lstat(file.path).catch(() => undefined);
    if (stat === undefined)
      throw new AppError(
        'not_found',
        said('knowledge.fileMoved', { name: file.name, path: file.path }),
      );
    if (this.#deps.showInFolder === undefined)
      throw new AppError('invalid_request', said('knowledge.noFileManager'));
    this.#deps.showInFolder(file.path);
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
    this.#store.row(id);
    const totals = this.#store.documents.chunkTotals(id);
    const tokens = Math.ceil(totals.chars / CHARS_PER_TOKEN);
    const price = await this.#deps.inputPrice?.(model.trim());
    return {
      chunks: totals.chunks,
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
    const row = this.#store.row(id);
    const next = model.trim();
    if (next === '') throw new AppError('invalid_request', said('knowledge.chooseModel'));
    if (next === row.model)
      throw new AppError(
        'invalid_request',
        said('knowledge.alreadyUses', { name: row.name, model: next }),
      );
    if (this.#indexer.isRunning(id))
      throw new AppError('invalid_request', said('knowledge.indexingRunning'));
    const sample = this.#store.documents.sampleText(id);
    if (sample !== undefined) {
      const client = await this.#deps.client(row.connection_id, randomUUID());
      const probe = await client.embed({ model: next, input: [sample] });
      if ((probe.vectors[0]?.length ?? 0) === 0)
        throw new RelayError('bad_response', said('knowledge.noVector', { model: next }));
    }
    this.#store.switchModel(id, next, this.#now());
    this.#search.invalidate(id);
    this.#changed(id);
    if (sample !== undefined) await this.index(id);
    return this.#summary(this.#store.row(id));
  }

  /**
   * A second base over the same files and folders with another embeddings model, indexed at
   * once: to see side by side what each model finds for the person's own questions.
   */
  async copyWithModel(id: string, model: string): Promise<KnowledgeBase> {
    const row = this.#store.row(id);
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
    this.#store.copy(id, {
      id: copyId,
      name: name.slice(0, KNOWLEDGE_LIMITS.name),
      model: next,
      connectionId: row.connection_id,
      now: this.#now(),
    });
    this.#changed(copyId);
    if (this.#store.hasSources(copyId)) await this.index(copyId);
    return this.#summary(this.#store.row(copyId));
  }
}
