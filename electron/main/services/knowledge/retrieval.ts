/**
 * Asking with knowledge bases: which bases a conversation asks with and how (top-k, the score
 * threshold, the token budget, the chunks pinned and excluded), the retrieval step before each
 * reply, and the record of it kept with the reply (tables in migrations.ts, version 2).
 *
 * Before a reply, `prepare` embeds the question with each linked base's model (once per model
 * and connection, through the connection's request limiter), takes each base's nearest chunks,
 * merges them by cosine score, and places each: pinned chunks first, then the top-k by score;
 * a chunk under the threshold, or excluded by the person, stays out; the rest go in as numbered
 * sources until the token budget is spent, and the ones after are cut. Anything that stops it
 * (a base deleted since it was linked, nothing embedded yet, the relay refusing) throws before
 * the reply is written, so nothing is sent and the person's text stays in the message box.
 *
 * The prompt format (docs/design/knowledge.md): a system message saying how to use and cite the
 * sources, and the question followed by a `<knowledge-sources>` block with one
 * `[n] file · where` header and the chunk's text per source.
 */
import { lstat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ChatMessage } from '../../../shared/relay-requests';
import { KNOWLEDGE_LIMITS, RETRIEVAL_DEFAULTS, RETRIEVAL_LIMITS } from '../../../shared/limits';
import {
  type ChunkPosition,
  type ConversationKnowledge,
  type RetrievalRecord,
  type RetrievedChunk,
} from '../../../shared/ipc/routes/knowledge';
import { AppError } from '../app-error';
import type { Db } from '../database';
import { estimateTokens } from '../chat/attachments';
import type { KeptRetrieval, RetrievalRecords } from '../chat/transfer';
import { bytesToVector, vectorToBytes } from '../embeddings/run-store';
import { RelayError } from '../relay/relay-error';
import type { KnowledgeService } from './knowledge-service';
import { said, wordsOf } from '../words';

/** What the chat service asks of the retrieval step (chat-service.ts calls it from one place). */
export interface ReplyRetrieval {
  /**
   * The retrieval for a reply to `question`, or undefined when the conversation asks with no
   * knowledge base. Throws, before anything is written, when it cannot retrieve.
   */
  prepare(conversationId: string, question: string): Promise<PreparedRetrieval | undefined>;
  /**
   * What a reply was asked with, from its record, to ask with it again (a stopped reply
   * continued): the same sources, nothing embedded or searched. Undefined for a reply asked
   * without a knowledge base.
   */
  recorded(replyId: string): RecordedRetrieval | undefined;
}

export interface RecordedRetrieval {
  /** The messages to send: the history with the instructions and the sources added. */
  messages(history: ChatMessage[]): ChatMessage[];
}

export interface PreparedRetrieval extends RecordedRetrieval {
  /** Keeps the record with the reply, by its message id (each reply asked with it, once). */
  save(replyId: string): void;
}

export const SOURCES_INSTRUCTIONS = [
  'The person’s question is followed by numbered sources from their own files, in a',
  '<knowledge-sources> block. Answer from those sources where they help, cite each source you',
  'use as [n] (its number), and say so when the sources do not answer the question.',
].join(' ');

/** Where a chunk sits, as its source header says it: page, lines, heading path. */
export function whereOf(position: ChunkPosition): string {
  const parts: string[] = [];
  if (position.page !== null) parts.push(`page ${position.page}`);
  parts.push(
    position.lineStart === position.lineEnd
      ? `line ${position.lineStart}`
      : `lines ${position.lineStart}-${position.lineEnd}`,
  );
  if (position.headings.length > 0) parts.push(position.headings.join(' › '));
  return parts.join(' · ');
}

/** One source as the model reads it. */
export function sourceBlock(
  n: number,
  chunk: { fileName: string; position: ChunkPosition; text: string },
): string {
  const name = chunk.fileName.replace(/[\r\n[\]]/g, ' ');
  return `[${n}] ${name} · ${whereOf(chunk.position)}\n${chunk.text.trim()}`;
}

/** The question with its sources, as the last user message is sent. */
export function questionWithSources(question: string, sources: readonly string[]): string {
  if (sources.length === 0) return question;
  return `${question}\n\n<knowledge-sources>\n${sources.join('\n\n')}\n</knowledge-sources>`;
}

interface SettingsRow {
  top_k: number;
  min_score: number;
  budget_tokens: number;
  pinned: string;
  excluded: string;
}

type Candidate = Omit<RetrievedChunk, 'rank' | 'placement' | 'source' | 'tokens'> & {
  vector: Float32Array | null;
};

function ids(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** A record as kept: an imported one is marked (`imported`), which the page never sees. */
type StoredRecord = RetrievalRecord & { imported?: boolean };

export class KnowledgeRetrieval implements ReplyRetrieval, RetrievalRecords {
  readonly #db: Db;
  readonly #knowledge: KnowledgeService;
  readonly #now: () => Date;

  constructor(db: Db, knowledge: KnowledgeService, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#knowledge = knowledge;
    this.#now = now;
  }

  get(conversationId: string): ConversationKnowledge {
    const links = this.#db.all<{ kb_id: string; kb_name: string }>(
      'SELECT kb_id, kb_name FROM knowledge_links WHERE conversation_id = ? ORDER BY linked_at, rowid',
      [conversationId],
    );
    const row = this.#db.one<SettingsRow>(
      'SELECT * FROM knowledge_conversations WHERE conversation_id = ?',
      [conversationId],
    );
    return {
      conversationId,
      bases: links.map((link) => {
        const base = this.#knowledge.base(link.kb_id);
        return { id: link.kb_id, name: base?.name ?? link.kb_name, missing: base === undefined };
      }),
      topK: row ? Number(row.top_k) : RETRIEVAL_DEFAULTS.topK,
      minScore: row ? Number(row.min_score) : RETRIEVAL_DEFAULTS.minScore,
      budgetTokens: row ? Number(row.budget_tokens) : RETRIEVAL_DEFAULTS.budgetTokens,
      pinned: row ? ids(row.pinned) : [],
      excluded: row ? ids(row.excluded) : [],
    };
  }

  #saveSettings(settings: ConversationKnowledge): void {
    this.#db.run(
      `INSERT INTO knowledge_conversations (conversation_id, top_k, min_score, budget_tokens, pinned, excluded)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (conversation_id) DO UPDATE SET top_k = excluded.top_k,
         min_score = excluded.min_score, budget_tokens = excluded.budget_tokens,
         pinned = excluded.pinned, excluded = excluded.excluded`,
      [
        settings.conversationId,
        settings.topK,
        settings.minScore,
        settings.budgetTokens,
        JSON.stringify(settings.pinned),
        JSON.stringify(settings.excluded),
      ],
    );
  }

  /** Links the bases (the list replaces the one before) and changes the settings given. */
  set(
    conversationId: string,
    changes: {
      kbIds?: readonly string[] | undefined;
      topK?: number | undefined;
      minScore?: number | undefined;
      budgetTokens?: number | undefined;
    },
  ): ConversationKnowledge {
    const current = this.get(conversationId);
    this.#db.transaction(() => {
      if (changes.kbIds !== undefined) {
        const wanted = [...new Set(changes.kbIds)];
        const known = new Set(current.bases.map((b) => b.id));
        for (const id of wanted) {
          if (known.has(id)) continue;
          const base = this.#knowledge.base(id);
          if (base === undefined) throw new AppError('not_found', said('knowledge.gone.that'));
          this.#db.run(
            'INSERT INTO knowledge_links (conversation_id, kb_id, kb_name, linked_at) VALUES (?, ?, ?, ?)',
            [conversationId, id, base.name, this.#now().toISOString()],
          );
        }
        for (const id of known) {
          if (!wanted.includes(id))
            this.#db.run('DELETE FROM knowledge_links WHERE conversation_id = ? AND kb_id = ?', [
              conversationId,
              id,
            ]);
        }
      }
      if (
        changes.topK !== undefined ||
        changes.minScore !== undefined ||
        changes.budgetTokens !== undefined
      )
        this.#saveSettings({
          ...current,
          topK: Math.min(KNOWLEDGE_LIMITS.topK, changes.topK ?? current.topK),
          minScore: changes.minScore ?? current.minScore,
          budgetTokens: changes.budgetTokens ?? current.budgetTokens,
        });
    });
    return this.get(conversationId);
  }

  /** Pins a chunk (always in the prompt), excludes it (never), or undoes either. */
  steer(
    conversationId: string,
    chunkId: string,
    action: 'pin' | 'unpin' | 'exclude' | 'include',
  ): ConversationKnowledge {
    const current = this.get(conversationId);
    const pinned = current.pinned.filter((id) => id !== chunkId);
    const excluded = current.excluded.filter((id) => id !== chunkId);
    if (action === 'pin') pinned.push(chunkId);
    if (action === 'exclude') excluded.push(chunkId);
    if (pinned.length > RETRIEVAL_LIMITS.steered || excluded.length > RETRIEVAL_LIMITS.steered)
      throw new AppError(
        'invalid_request',
        said('knowledge.tooManySteered', { max: RETRIEVAL_LIMITS.steered }),
      );
    this.#saveSettings({ ...current, pinned, excluded });
    return this.get(conversationId);
  }

  async prepare(conversationId: string, question: string): Promise<PreparedRetrieval | undefined> {
    const settings = this.get(conversationId);
    if (settings.bases.length === 0) return undefined;
    const gone = settings.bases.find((b) => b.missing);
    if (gone) throw new AppError('not_found', said('knowledge.linkedDeleted', { name: gone.name }));
    if (question.trim() === '')
      throw new AppError('invalid_request', said('knowledge.writeQuestionToAsk'));

    // The question embedded once per model (bases of one model share the vector).
    const vectors = new Map<string, number[]>();
    const candidates: Candidate[] = [];
    const pinnedIds = new Set(settings.pinned);
    const excludedIds = new Set(settings.excluded);
    let questionVector: number[] | undefined;
    let dimensions: number | null | undefined;
    for (const link of settings.bases) {
      const base = this.#knowledge.base(link.id)!;
      let vector = vectors.get(base.model);
      if (vector === undefined) {
        try {
          vector = (await this.#knowledge.questionVector(base.id, question)).vector;
        } catch (error) {
          // The relay's own error (402, a 429 that outlasted the retries…), saying where it came from.
          if (error instanceof RelayError)
            throw new RelayError(
              error.kind,
              said('knowledge.searchFailed', {
                name: base.name,
                reason: wordsOf(error),
              }),
              error.details(),
            );
          throw error;
        }
        vectors.set(base.model, vector);
      }
      questionVector ??= vector;
      dimensions = dimensions === undefined || dimensions === vector.length ? vector.length : null;
      const excludedHere = settings.excluded.length;
      const near = this.#knowledge.nearest(base.id, vector, settings.topK + excludedHere);
      const seen = new Set(near.map((c) => c.chunkId));
      const pins = this.#knowledge
        .chunks(
          base.id,
          settings.pinned.filter((id) => !seen.has(id)),
        )
        .map((c) => ({ ...c, score: c.vector ? cosine(vector!, c.vector) : 0 }));
      for (const c of [...near, ...pins])
        candidates.push({
          chunkId: c.chunkId,
          score: c.score,
          fileName: c.fileName,
          path: c.path,
          position: c.position,
          text: c.text,
          kbId: base.id,
          kbName: base.name,
          pinned: pinnedIds.has(c.chunkId),
          vector: c.vector,
        });
    }

    // Pinned first, then by score; the top-k counts the chunks not excluded.
    candidates.sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.score - a.score);
    const chunks: Array<RetrievedChunk & { vector: Float32Array | null }> = [];
    const sources: string[] = [];
    let ranked = 0;
    let promptTokens = 0;
    for (const c of candidates) {
      const excluded = excludedIds.has(c.chunkId) && !c.pinned;
      if (!c.pinned && !excluded && ranked >= settings.topK) continue;
      if (!c.pinned && !excluded) ranked++;
      const block = sourceBlock(sources.length + 1, c);
      const tokens = estimateTokens(block);
      let placement: RetrievedChunk['placement'];
      if (excluded) placement = 'excluded';
      else if (!c.pinned && c.score < settings.minScore) placement = 'threshold';
      else if (promptTokens + tokens > settings.budgetTokens) placement = 'budget';
      else placement = 'prompt';
      let source: number | null = null;
      if (placement === 'prompt') {
        sources.push(block);
        source = sources.length;
        promptTokens += tokens;
      }
      chunks.push({ ...c, rank: chunks.length + 1, placement, source, tokens });
    }

    const record: RetrievalRecord = {
      messageId: '',
      conversationId,
      question,
      createdAt: this.#now().toISOString(),
      topK: settings.topK,
      minScore: settings.minScore,
      budgetTokens: settings.budgetTokens,
      promptTokens,
      chunks: chunks.map(({ vector: _vector, ...chunk }) => chunk),
      map: null,
    };
    const mapped =
      dimensions !== null &&
      questionVector !== undefined &&
      chunks.every((c) => c.vector !== null && c.vector.length === questionVector!.length);
    const packed = mapped
      ? vectorToBytes([...questionVector!, ...chunks.flatMap((c) => [...c.vector!])])
      : null;
    return {
      messages: (history) => withSources(history, question, sources),
      save: (replyId) => {
        this.#db.run(
          `INSERT INTO knowledge_retrievals (message_id, conversation_id, record, vectors, created_at)
           VALUES (?, ?, ?, ?, ?)`,
          [replyId, conversationId, JSON.stringify(record), packed, record.createdAt],
        );
      },
    };
  }

  recorded(replyId: string): RecordedRetrieval | undefined {
    const record = this.record(replyId);
    if (record === null) return undefined;
    // The sources as they were numbered in the reply's prompt, from the copies kept with it.
    const sources = record.chunks
      .filter((c): c is RetrievedChunk & { source: number } => c.source !== null)
      .sort((a, b) => a.source - b.source)
      .map((c) => sourceBlock(c.source, c));
    return { messages: (history) => withSources(history, record.question, sources) };
  }

  /** What a reply was asked with, or null when it was asked without a knowledge base. */
  record(messageId: string): RetrievalRecord | null {
    const row = this.#db.one<{ record: string; vectors: ArrayBuffer | Uint8Array | null }>(
      'SELECT record, vectors FROM knowledge_retrievals WHERE message_id = ?',
      [messageId],
    );
    if (row === undefined) return null;
    const record = JSON.parse(row.record) as RetrievalRecord;
    record.messageId = messageId;
    if (row.vectors !== null) {
      const values = [...bytesToVector(row.vectors)];
      const rows = record.chunks.length + 1;
      const d = values.length / rows;
      if (Number.isInteger(d) && d > 0)
        record.map = {
          question: values.slice(0, d),
          chunks: record.chunks.map((_, i) => values.slice((i + 1) * d, (i + 2) * d)),
        };
    }
    return record;
  }

  /** The replies of a conversation asked with a knowledge base. */
  replies(conversationId: string): string[] {
    return this.#db
      .all<{ message_id: string }>(
        'SELECT message_id FROM knowledge_retrievals WHERE conversation_id = ? ORDER BY created_at',
        [conversationId],
      )
      .map((r) => r.message_id);
  }

  /** The records of those replies that have one, as kept (for an export). */
  read(messageIds: readonly string[]): Map<string, KeptRetrieval> {
    const out = new Map<string, KeptRetrieval>();
    if (messageIds.length === 0) return out;
    for (const row of this.#db.all<{
      message_id: string;
      record: string;
      vectors: ArrayBuffer | Uint8Array | null;
    }>(
      `SELECT message_id, record, vectors FROM knowledge_retrievals
        WHERE message_id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(messageIds)],
    )) {
      const {
        messageId: _messageId,
        conversationId: _conversationId,
        map: _map,
        imported: _imported,
        ...record
      } = JSON.parse(row.record) as StoredRecord;
      const vectors =
        row.vectors === null ? null : new Uint8Array(bytesToVector(row.vectors).buffer);
      out.set(row.message_id, { record, vectors });
    }
    return out;
  }

  /** Keeps an imported reply's record, as `prepare` keeps one (call inside the import's transaction). */
  write(messageId: string, conversationId: string, kept: KeptRetrieval): void {
    // Marked as imported: the files it names were named by the file imported, not by the person.
    const record: StoredRecord = {
      messageId: '',
      conversationId,
      ...kept.record,
      map: null,
      imported: true,
    };
    this.#db.run(
      `INSERT INTO knowledge_retrievals (message_id, conversation_id, record, vectors, created_at)
       VALUES (?, ?, ?, ?, ?)`,
      [messageId, conversationId, JSON.stringify(record), kept.vectors, record.createdAt],
    );
  }

  /** Drops the records of conversations whose import failed half-way. */
  discard(conversationIds: readonly string[]): void {
    this.#db.run(
      'DELETE FROM knowledge_retrievals WHERE conversation_id IN (SELECT value FROM json_each(?))',
      [JSON.stringify(conversationIds)],
    );
  }

  /** A retrieved chunk's file, from the record kept with the reply. */
  retrievedPath(messageId: string, chunkId: string): string {
    return this.#retrieved(messageId, chunkId).path;
  }

  #retrieved(messageId: string, chunkId: string): { path: string; imported: boolean } {
    const record = this.record(messageId) as StoredRecord | null;
    const chunk = record?.chunks.find((c) => c.chunkId === chunkId);
    if (chunk === undefined) throw new AppError('not_found', said('knowledge.sourceNotInReply'));
    return { path: chunk.path, imported: record?.imported === true };
  }

  /**
   * A retrieved chunk's file, when it is on this computer: a reply imported from another one (or
   * whose file was moved since) keeps its passages, and its file is refused by name, plainly. A
   * record that came with an import names files the import chose: such a file is used only
   * when it is a file of one of this computer's knowledge bases (one the person added), and
   * nothing else it names is looked at on disk.
   */
  async retrievedFile(messageId: string, chunkId: string): Promise<string> {
    const { path, imported } = this.#retrieved(messageId, chunkId);
    const known =
      !imported ||
      this.#db.one('SELECT 1 AS found FROM knowledge_files WHERE path = ? LIMIT 1', [path]) !==
        undefined;
    const stat = known ? await lstat(path).catch(() => undefined) : undefined;
    if (stat === undefined || !stat.isFile())
      throw new AppError(
        'not_found',
        said('knowledge.sourceFileGone', { name: basename(path), path }),
      );
    return path;
  }
}

function cosine(a: readonly number[], b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The history with the instructions after the system prompt and the sources after the question. */
/**
 * The sources after the question's text: a plain message gains them at its end; a message of
 * parts (text and images) gains them in its first text part, or in a text part of its own.
 */
function contentWithSources(
  content: ChatMessage['content'],
  sources: readonly string[],
): ChatMessage['content'] {
  if (typeof content === 'string') return questionWithSources(content, sources);
  const first = content.findIndex((part) => part.type === 'text');
  if (first === -1)
    return [{ type: 'text', text: questionWithSources('', sources).trimStart() }, ...content];
  return content.map((part, i) =>
    i === first && part.type === 'text'
      ? { ...part, text: questionWithSources(part.text, sources) }
      : part,
  );
}

export function withSources(
  history: ChatMessage[],
  question: string,
  sources: readonly string[],
): ChatMessage[] {
  const out = [...history];
  if (sources.length === 0) return out;
  let last = -1;
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]!.role === 'user') {
      last = i;
      break;
    }
  }
  if (last === -1) out.push({ role: 'user', content: questionWithSources(question, sources) });
  else {
    const message = out[last]!;
    out[last] = { ...message, content: contentWithSources(message.content, sources) };
  }
  const systems = out.findIndex((m) => m.role !== 'system');
  out.splice(systems === -1 ? out.length : systems, 0, {
    role: 'system',
    content: SOURCES_INSTRUCTIONS,
  });
  return out;
}
