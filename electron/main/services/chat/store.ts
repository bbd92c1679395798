/**
 * Conversations and messages in the app's SQLite file: plain reads and writes, no network.
 *
 * Every write is one statement or one transaction, so a process killed at any moment leaves
 * either the state before or the state after, never half of it.
 */
import { randomUUID } from 'node:crypto';
import { plainSnippet } from './snippet-text';
import type {
  ChatMessageRecord,
  ChatUsage,
  ConversationCursor,
  ConversationSummary,
  MessageStatus,
  ReplyError,
  SearchHit,
} from '../../../shared/ipc/routes/chat';
import { migrate, type Db } from '../database';
import { CHAT_DOMAIN, CHAT_MIGRATIONS } from './migrations';

export const DEFAULT_TITLE = 'New conversation';

interface ConversationRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  pinned: number;
  model: string | null;
  system_prompt: string;
  temperature: number | null;
  max_tokens: number | null;
  message_count: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

interface MessageRow {
  id: string;
  conversation_id: string;
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  error: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  model: string | null;
  finish_reason: string | null;
  created_at: string;
}

/** Counts and sums are kept in each conversation's row by triggers (migration 2). */
const SUMMARY_SQL = `SELECT c.id, c.title, c.created_at, c.updated_at, c.pinned, c.model,
    c.system_prompt, c.temperature, c.max_tokens, c.message_count, c.prompt_tokens,
    c.completion_tokens, c.total_tokens
  FROM chat_conversations c`;

const MESSAGE_COLUMNS = `id, conversation_id, seq, role, content, status, error, prompt_tokens,
  completion_tokens, total_tokens, model, finish_reason, created_at`;

/** Marks the start and end of a search hit inside a snippet; stripped from text before. */
const HIT_START = '\u0002';
const HIT_END = '\u0003';

function toSummary(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    pinned: row.pinned === 1,
    model: row.model,
    systemPrompt: row.system_prompt,
    temperature: row.temperature,
    maxTokens: row.max_tokens,
    messageCount: row.message_count,
    usage: {
      promptTokens: row.prompt_tokens,
      completionTokens: row.completion_tokens,
      totalTokens: row.total_tokens,
    },
  };
}

function toMessage(row: MessageRow): ChatMessageRecord {
  const message: ChatMessageRecord = {
    id: row.id,
    conversationId: row.conversation_id,
    seq: row.seq,
    role: row.role,
    content: row.content,
    status: row.status,
    createdAt: row.created_at,
  };
  if (row.error !== null) message.error = JSON.parse(row.error) as ReplyError;
  const usage: ChatUsage = {};
  if (row.prompt_tokens !== null) usage.promptTokens = row.prompt_tokens;
  if (row.completion_tokens !== null) usage.completionTokens = row.completion_tokens;
  if (row.total_tokens !== null) usage.totalTokens = row.total_tokens;
  if (Object.keys(usage).length > 0) message.usage = usage;
  if (row.model !== null) message.model = row.model;
  if (row.finish_reason !== null) message.finishReason = row.finish_reason;
  return message;
}

/**
 * Turns what a person types into an FTS5 query: each word quoted (so `AND`, `NEAR(`, `"` or `*`
 * typed by the person are plain text), all words required, the last one as a prefix.
 */
export function ftsQuery(input: string): string | undefined {
  const words = input.match(/[\p{L}\p{M}\p{N}_]+/gu);
  if (words === null) return undefined;
  return words
    .slice(0, 32)
    .map((word, index, all) => `"${word}"${index === all.length - 1 ? '*' : ''}`)
    .join(' ');
}

/** Splits an FTS5 snippet with our markers into plain segments, markdown syntax removed. */
export function snippetSegments(snippet: string): SearchHit['snippet'] {
  const segments: SearchHit['snippet'] = [];
  let hit = false;
  let text = '';
  for (const char of plainSnippet(snippet)) {
    if (char === HIT_START || char === HIT_END) {
      if (text !== '') segments.push({ text, hit });
      text = '';
      hit = char === HIT_START;
    } else text += char;
  }
  if (text !== '') segments.push({ text, hit });
  return segments;
}

export interface NewConversation {
  title?: string;
  model?: string | null;
  systemPrompt?: string;
  temperature?: number | null;
  maxTokens?: number | null;
  pinned?: boolean;
  createdAt?: string;
  updatedAt?: string;
}

export interface NewMessage {
  /** Chosen by the caller when it must be known before the row exists (a reply's request id). */
  id?: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  error?: ReplyError;
  usage?: ChatUsage;
  model?: string;
  finishReason?: string;
  createdAt?: string;
}

export interface ReplyUpdate {
  content: string;
  status: MessageStatus;
  error?: ReplyError;
  usage?: ChatUsage;
  finishReason?: string | null;
}

export class ChatStore {
  constructor(
    readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Brings the tables up to date and repairs what a crash left: streaming replies, hidden rows. */
  static async open(db: Db, now?: () => Date): Promise<ChatStore> {
    await migrate(db, CHAT_DOMAIN, CHAT_MIGRATIONS, now);
    const store = new ChatStore(db, now);
    store.recover();
    return store;
  }

  #inTransaction = false;

  /** One transaction; nested calls join the outer one (SQLite has no nested BEGIN). */
  transaction<T>(work: () => T): T {
    if (this.#inTransaction) return work();
    this.#inTransaction = true;
    try {
      return this.db.transaction(work);
    } finally {
      this.#inTransaction = false;
    }
  }

  #stamp(): string {
    return this.now().toISOString();
  }

  /** Replies that were streaming when the app stopped are interrupted: their text stays. */
  recover(): { interrupted: number; purged: number } {
    return this.transaction(() => {
      const interrupted = this.db.run(
        `UPDATE chat_messages SET status = 'interrupted' WHERE status = 'streaming'`,
      ).changes;
      const purged = this.db.run(
        'DELETE FROM chat_conversations WHERE deleted_at IS NOT NULL',
      ).changes;
      return { interrupted, purged };
    });
  }

  /**
   * The conversations, pinned first, then by last activity, newest first (then by id, so that
   * the order is total): all, or a page of `limit` after a cursor (keyset, along an index).
   */
  list(page: { limit?: number; after?: ConversationCursor } = {}): ConversationSummary[] {
    const { limit, after } = page;
    const where = after ? ' AND (c.pinned, c.updated_at, c.id) < (?, ?, ?)' : '';
    const params: Array<string | number> = after
      ? [after.pinned ? 1 : 0, after.updatedAt, after.id]
      : [];
    if (limit !== undefined) params.push(limit);
    return this.db
      .all<ConversationRow>(
        `${SUMMARY_SQL} WHERE c.deleted_at IS NULL${where}
          ORDER BY c.pinned DESC, c.updated_at DESC, c.id DESC${limit === undefined ? '' : ' LIMIT ?'}`,
        params,
      )
      .map(toSummary);
  }

  get(id: string): ConversationSummary | undefined {
    const row = this.db.one<ConversationRow>(
      `${SUMMARY_SQL} WHERE c.id = ? AND c.deleted_at IS NULL`,
      [id],
    );
    return row === undefined ? undefined : toSummary(row);
  }

  create(draft: NewConversation = {}): ConversationSummary {
    const id = randomUUID();
    const stamp = this.#stamp();
    this.db.run(
      `INSERT INTO chat_conversations
        (id, title, created_at, updated_at, pinned, model, system_prompt, temperature, max_tokens)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        draft.title?.trim() || DEFAULT_TITLE,
        draft.createdAt ?? stamp,
        draft.updatedAt ?? stamp,
        draft.pinned ? 1 : 0,
        draft.model ?? null,
        draft.systemPrompt ?? '',
        draft.temperature ?? null,
        draft.maxTokens ?? null,
      ],
    );
    return this.get(id) as ConversationSummary;
  }

  update(
    id: string,
    changes: Partial<{
      title: string;
      pinned: boolean;
      model: string | null;
      systemPrompt: string;
      temperature: number | null;
      maxTokens: number | null;
    }>,
  ): ConversationSummary | undefined {
    const columns: Record<string, unknown> = {
      title: changes.title,
      pinned: changes.pinned === undefined ? undefined : changes.pinned ? 1 : 0,
      model: changes.model,
      system_prompt: changes.systemPrompt,
      temperature: changes.temperature,
      max_tokens: changes.maxTokens,
    };
    const set = Object.entries(columns).filter(([, value]) => value !== undefined);
    if (set.length > 0) {
      this.db.run(
        `UPDATE chat_conversations SET ${set.map(([name]) => `${name} = ?`).join(', ')}
          WHERE id = ? AND deleted_at IS NULL`,
        [...set.map(([, value]) => value as string | number | null), id],
      );
    }
    return this.get(id);
  }

  /** Hides a conversation until `restore`, or for good when the app next starts. */
  softDelete(id: string): boolean {
    return (
      this.db.run(
        'UPDATE chat_conversations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
        [this.#stamp(), id],
      ).changes > 0
    );
  }

  restore(id: string): ConversationSummary | undefined {
    this.db.run('UPDATE chat_conversations SET deleted_at = NULL WHERE id = ?', [id]);
    return this.get(id);
  }

  touch(id: string): void {
    this.db.run('UPDATE chat_conversations SET updated_at = ? WHERE id = ?', [this.#stamp(), id]);
  }

  /**
   * A conversation's messages in seq order: all of them, or with `limit` the last `limit` before
   * `beforeSeq`, stretched back to `fromSeq` when that is older (a search hit to show).
   */
  messages(
    conversationId: string,
    page: { limit?: number; beforeSeq?: number; fromSeq?: number } = {},
  ): { messages: ChatMessageRecord[]; hasOlder: boolean } {
    const before = page.beforeSeq ?? Number.MAX_SAFE_INTEGER;
    if (page.limit === undefined) {
      const rows = this.db.all<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM chat_messages
          WHERE conversation_id = ? AND seq < ? ORDER BY seq`,
        [conversationId, before],
      );
      return { messages: rows.map(toMessage), hasOlder: false };
    }
    const rows = this.db.all<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_messages
        WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      [conversationId, before, page.limit + 1],
    );
    const hasOlder = rows.length > page.limit;
    const newest = rows.slice(0, page.limit).reverse();
    const oldest = newest[0]?.seq;
    if (page.fromSeq !== undefined && hasOlder && oldest !== undefined && page.fromSeq < oldest) {
      const stretched = this.db.all<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM chat_messages
          WHERE conversation_id = ? AND seq >= ? AND seq < ? ORDER BY seq`,
        [conversationId, page.fromSeq, before],
      );
      const older = this.db.one<{ found: number }>(
        'SELECT 1 AS found FROM chat_messages WHERE conversation_id = ? AND seq < ? LIMIT 1',
        [conversationId, page.fromSeq],
      );
      return { messages: stretched.map(toMessage), hasOlder: older !== undefined };
    }
    return { messages: newest.map(toMessage), hasOlder };
  }

  message(id: string): ChatMessageRecord | undefined {
    const row = this.db.one<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_messages WHERE id = ?`,
      [id],
    );
    return row === undefined ? undefined : toMessage(row);
  }

  lastMessage(conversationId: string): ChatMessageRecord | undefined {
    const row = this.db.one<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_messages WHERE conversation_id = ?
        ORDER BY seq DESC LIMIT 1`,
      [conversationId],
    );
    return row === undefined ? undefined : toMessage(row);
  }

  /** Appends messages at the end of a conversation and marks it active, in one transaction. */
  append(conversationId: string, messages: readonly NewMessage[]): ChatMessageRecord[] {
    return this.transaction(() => {
      const last = this.db.one<{ seq: number | null }>(
        'SELECT max(seq) AS seq FROM chat_messages WHERE conversation_id = ?',
        [conversationId],
      );
      let seq = (last?.seq ?? -1) + 1;
      const stamp = this.#stamp();
      const ids: string[] = [];
      for (const message of messages) {
        const id = message.id ?? randomUUID();
        ids.push(id);
        this.db.run(
          `INSERT INTO chat_messages (id, conversation_id, seq, role, content, status, error,
            prompt_tokens, completion_tokens, total_tokens, model, finish_reason, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            id,
            conversationId,
            seq++,
            message.role,
            message.content,
            message.status,
            message.error === undefined ? null : JSON.stringify(message.error),
            message.usage?.promptTokens ?? null,
            message.usage?.completionTokens ?? null,
            message.usage?.totalTokens ?? null,
            message.model ?? null,
            message.finishReason ?? null,
            message.createdAt ?? stamp,
          ],
        );
      }
      this.db.run('UPDATE chat_conversations SET updated_at = ? WHERE id = ?', [
        stamp,
        conversationId,
      ]);
      return ids.map((id) => this.message(id) as ChatMessageRecord);
    });
  }

  /** Drops every message after `seq` in a conversation. */
  truncateAfter(conversationId: string, seq: number): void {
    this.db.run('DELETE FROM chat_messages WHERE conversation_id = ? AND seq > ?', [
      conversationId,
      seq,
    ]);
  }

  deleteMessage(id: string): void {
    this.db.run('DELETE FROM chat_messages WHERE id = ?', [id]);
  }

  setContent(id: string, content: string): void {
    this.db.run('UPDATE chat_messages SET content = ? WHERE id = ?', [content, id]);
  }

  /** Saves a reply's text so far (while streaming) or its end. */
  saveReply(id: string, update: ReplyUpdate): void {
    this.db.run(
      `UPDATE chat_messages SET content = ?, status = ?, error = ?, prompt_tokens = ?,
        completion_tokens = ?, total_tokens = ?, finish_reason = ? WHERE id = ?`,
      [
        update.content,
        update.status,
        update.error === undefined ? null : JSON.stringify(update.error),
        update.usage?.promptTokens ?? null,
        update.usage?.completionTokens ?? null,
        update.usage?.totalTokens ?? null,
        update.finishReason ?? null,
        id,
      ],
    );
  }

  /** Saves only the growing text of a streaming reply: the cheapest write, a few times a second. */
  saveProgress(id: string, content: string): void {
    this.db.run(`UPDATE chat_messages SET content = ? WHERE id = ? AND status = 'streaming'`, [
      content,
      id,
    ]);
  }

  /**
   * Messages holding every word typed (the last one as a prefix), newest first. Newest first
   * rather than by relevance: FTS5 then reads the index backwards and stops at `limit`, where
   * ranking would score every match of a common word.
   */
  search(input: string, limit = 50): SearchHit[] {
    const query = ftsQuery(input);
    if (query === undefined) return [];
    const rows = this.db.all<{
      id: string;
      conversation_id: string;
      title: string;
      seq: number;
      role: 'user' | 'assistant';
      created_at: string;
      snippet: string;
    }>(
      `SELECT m.id, m.conversation_id, c.title, m.seq, m.role, m.created_at,
          snippet(chat_messages_fts, 0, '${HIT_START}', '${HIT_END}', '…', 16) AS snippet
        FROM chat_messages_fts
        JOIN chat_messages m ON m.rowid = chat_messages_fts.rowid
        JOIN chat_conversations c ON c.id = m.conversation_id
        WHERE chat_messages_fts MATCH ? AND c.deleted_at IS NULL
        ORDER BY chat_messages_fts.rowid DESC LIMIT ?`,
      [query, limit],
    );
    return rows.map((row) => ({
      conversationId: row.conversation_id,
      conversationTitle: row.title,
      messageId: row.id,
      seq: row.seq,
      role: row.role,
      createdAt: row.created_at,
      snippet: snippetSegments(row.snippet),
    }));
  }
}
