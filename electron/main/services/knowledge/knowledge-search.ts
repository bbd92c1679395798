/**
 * The query side of the knowledge bases: a question embedded with its base's model, the base's
 * embedded chunks ranked by cosine similarity to it (vector-search.ts says why a scan), and the
 * chunks found read back with their files. The retrieval before a reply (retrieval.ts) asks
 * through the same calls.
 */
import { randomUUID } from 'node:crypto';
import { KNOWLEDGE_LIMITS } from '../../../shared/limits';
import type { KnowledgeHit } from '../../../shared/ipc/routes/knowledge';
import { AppError } from '../app-error';
import { bytesToVector } from '../embeddings/run-store';
import { RelayError, type RelayClient } from '../relay/relay-client';
import { z } from 'zod';
import { parseStoredJson } from '../database';
import { isHeadingsOnly } from './chunking';
import type { KnowledgeStore } from './knowledge-store';
import { PackedVectors } from './vector-search';
import { said } from '../words';

/** How many chunks past `k` a search looks at, to have passages to rank before a heading. */
const HEADING_SPARES = 4;

export type FoundChunk = Omit<KnowledgeHit, 'rank' | 'score'> & { vector: Float32Array | null };

const headingsSchema = z.array(z.string());

/** A chunk's stored headings; a damaged value reads as none, the chunk's text kept. */
function storedHeadings(json: string): string[] {
  return parseStoredJson(json, headingsSchema) ?? [];
}

export class KnowledgeSearch {
  /** Each base's vectors, packed for search; dropped when its chunks change. */
  readonly #packs = new Map<string, PackedVectors>();

  constructor(
    private readonly store: KnowledgeStore,
    /** A relay client for a saved connection; retries are reported under `requestId`. */
    private readonly client: (connectionId: string, requestId: string) => Promise<RelayClient>,
  ) {}

  /** Forgets a base's packed vectors: its chunks or vectors changed. */
  invalidate(id: string): void {
    this.#packs.delete(id);
  }

  #pack(id: string, dimensions: number): PackedVectors {
    let pack = this.#packs.get(id);
    if (pack === undefined || pack.dimensions !== dimensions) {
      pack = PackedVectors.fromBlobs(dimensions, this.store.documents.vectors(id));
      this.#packs.set(id, pack);
    }
    return pack;
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
    const base = this.store.row(id);
    const text = question.trim();
    if (text === '') throw new AppError('invalid_request', said('knowledge.writeQuestion'));
    const dimensions = base.dimensions === null ? undefined : Number(base.dimensions);
    if (dimensions === undefined || this.store.documents.chunkCounts(id).embedded === 0)
      throw new AppError('invalid_request', said('knowledge.nothingEmbedded', { name: base.name }));
    const client = await this.client(base.connection_id, requestId);
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
  chunks(id: string, chunkIds: readonly string[]): FoundChunk[] {
    return chunkIds.flatMap((chunkId) => {
      const row = this.store.documents.chunk(id, Number(chunkId));
      if (row === undefined) return [];
      return [
        {
          chunkId: String(chunkId),
          fileName: row.name,
          path: row.path,
          position: {
            page: row.page === null ? null : Number(row.page),
            headings: storedHeadings(row.headings),
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
    const base = this.store.row(id);
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
    // `nearest` ranks them; the page is sent them without their vectors.
    const hits = this.nearest(id, vector, Math.min(topK, KNOWLEDGE_LIMITS.topK)).map(
      ({ vector: _vector, ...hit }) => hit,
    );
    return tokens === undefined ? { hits } : { hits, tokens };
  }
}
