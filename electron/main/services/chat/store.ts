/**
 * Conversations and messages in the app's SQLite file: plain reads and writes, no network.
 *
 * Every write is one statement or one transaction, so a process killed at any moment leaves
 * either the state before or the state after, never half of it.
 *
 * A conversation is a tree of messages (see migrations.ts, version 3). A message row is never
 * rewritten into another message: an edit is a new row beside the old one, a regenerate too, so
 * whatever another domain keeps by message id (attachments) stays with the message it belongs
 * to. Paths are read by walking parents up from a message (one index lookup a step), and a
 * version's most recent last message by walking children down; both stop as soon as they can.
 */
import { randomUUID } from 'node:crypto';
import { plainSnippet } from './snippet-text';
import {
  MAX_TITLE_CHARS,
  replyToolsSchema,
  type Branch,
  type ChatMessageRecord,
  type ChatUsage,
  type ConversationCursor,
  type ConversationSummary,
  type MessageStatus,
  type ReplyError,
  type ReplyTiming,
  type ReplyTools,
  type SearchHit,
} from '../../../shared/ipc/routes/chat';
import { BRANCH_SUFFIX, DEFAULT_TITLE } from '../../../shared/conversation-titles';
import { migrate, type Db } from '../database';
import { CHAT_DOMAIN, CHAT_MIGRATIONS } from './migrations';

export { DEFAULT_TITLE };

/** The title of a conversation branched off another (the page shows its mark translated). */
export function forkTitle(title: string): string {
  const suffix = BRANCH_SUFFIX;
  return title.length + suffix.length <= MAX_TITLE_CHARS
    ? `${title}${suffix}`
    : `${title.slice(0, MAX_TITLE_CHARS - suffix.length - 1).trimEnd()}…${suffix}`;
}

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
  forked_from: string | null;
  tool_servers: string | null;
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
  parent_id: string | null;
  batch_id: string | null;
  temperature: number | null;
  first_token_ms: number | null;
  duration_ms: number | null;
  tool_calls: string | null;
}

/** Counts and sums are kept in each conversation's row by triggers (migration 2). */
const SUMMARY_SQL = `SELECT c.id, c.title, c.created_at, c.updated_at, c.pinned, c.model,
    c.system_prompt, c.temperature, c.max_tokens, c.forked_from, c.message_count,
    c.prompt_tokens, c.completion_tokens, c.total_tokens, c.tool_servers
  FROM chat_conversations c`;

const MESSAGE_COLUMNS = `id, conversation_id, seq, role, content, status, error, prompt_tokens,
  completion_tokens, total_tokens, model, finish_reason, created_at, parent_id, batch_id,
  temperature, first_token_ms, duration_ms, tool_calls`;

/** The same columns, read from the table aliased `m`. */
const M_COLUMNS = MESSAGE_COLUMNS.split(',')
  .map((column) => `m.${column.trim()}`)
  .join(', ');

/** Messages loaded before a search hit opened in an older part, so that it can be centred. */
const HIT_CONTEXT = 5;
/** Matches read per hit asked for: versions of one message count once (see `search`). */
const VERSIONS_READ = 4;

/** Marks the start and end of a search hit inside a snippet; stripped from text before. */
const HIT_START = '\u0002';
/** What a search hit reads of its message and conversation, whichever index found it. */
const HIT_MESSAGE_COLUMNS =
  'm.rowid, m.id, m.conversation_id, c.title, m.seq, m.role, m.created_at, m.parent_id';
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
    forkedFrom: row.forked_from === null ? null : forkOrigin(row.forked_from),
    toolServerIds: jsonStrings(row.tool_servers),
  };
}

/** A stored JSON list of strings; anything else reads as none. */
function jsonStrings(json: string | null): string[] {
  if (json === null) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** A reply's stored tool calls, checked as they are read; a damaged record reads as none. */
function storedTools(json: string | null): ReplyTools | undefined {
  if (json === null) return undefined;
  try {
    const parsed = replyToolsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function forkOrigin(json: string): ConversationSummary['forkedFrom'] {
  try {
    const origin = JSON.parse(json) as NonNullable<ConversationSummary['forkedFrom']>;
    return typeof origin.conversationId === 'string' &&
      typeof origin.messageId === 'string' &&
      typeof origin.title === 'string'
      ? { conversationId: origin.conversationId, messageId: origin.messageId, title: origin.title }
      : null;
  } catch {
    return null;
  }
}

function toMessage(row: MessageRow): ChatMessageRecord {
  const message: ChatMessageRecord = {
    id: row.id,
    conversationId: row.conversation_id,
    seq: row.seq,
    role: row.role,
    parentId: row.parent_id,
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
  if (row.temperature !== null) message.temperature = row.temperature;
  const timing: ReplyTiming = {};
  if (row.first_token_ms !== null) timing.firstTokenMs = row.first_token_ms;
  if (row.duration_ms !== null) timing.durationMs = row.duration_ms;
  if (Object.keys(timing).length > 0) message.timing = timing;
  if (row.batch_id !== null) message.batchId = row.batch_id;
  const tools = storedTools(row.tool_calls);
  if (tools !== undefined) message.tools = tools;
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
  /** Chosen by the caller when the conversation already has one (it came from another device). */
  id?: string;
  title?: string | undefined;
  model?: string | null | undefined;
  systemPrompt?: string | undefined;
  temperature?: number | null | undefined;
  maxTokens?: number | null | undefined;
  pinned?: boolean | undefined;
  createdAt?: string;
  updatedAt?: string;
  forkedFrom?: ConversationSummary['forkedFrom'];
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
  temperature?: number;
  timing?: ReplyTiming;
  batchId?: string;
  tools?: ReplyTools;
}

export interface ReplyUpdate {
  content: string;
  status: MessageStatus;
  error?: ReplyError;
  usage?: ChatUsage;
  finishReason?: string | null;
  timing?: ReplyTiming;
  /** The reply's tool calls (kept as they were when absent). */
  tools?: ReplyTools;
}

/** A page of a path, oldest first. */
export interface PathPage {
  messages: ChatMessageRecord[];
  hasOlder: boolean;
}

/** Tokens of a model's replies, summed. */
export interface ModelUsage {
  model: string;
  replies: number;
  promptTokens: number;
  completionTokens: number;
}

export class ChatStore {
  constructor(
    readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Brings the tables up to date and repairs what a crash left: streaming replies, hidden rows.
   * A deleted conversation is purged at the next start, or, with `trashDays` (sync keeps a
   * restorable trash), once it has been deleted that many days.
   */
  static async open(
    db: Db,
    now?: () => Date,
    options: { trashDays?: number } = {},
  ): Promise<ChatStore> {
    await migrate(db, CHAT_DOMAIN, CHAT_MIGRATIONS, now);
    const store = new ChatStore(db, now);
    store.recover(options.trashDays ?? 0);
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
  recover(trashDays = 0): { interrupted: number; purged: number } {
    return this.transaction(() => {
      const interrupted = this.db.run(
        `UPDATE chat_messages SET status = 'interrupted' WHERE status = 'streaming'`,
      ).changes;
      return { interrupted, purged: this.purgeDeleted(trashDays) };
    });
  }

  /** Deletes for good the conversations deleted at least `days` days ago; returns how many. */
  purgeDeleted(days: number): number {
    const before = new Date(this.now().getTime() - days * 86_400_000).toISOString();
    return this.db.run(
      'DELETE FROM chat_conversations WHERE deleted_at IS NOT NULL AND deleted_at <= ?',
      [before],
    ).changes;
  }

  /** The conversations in the trash (deleted, not yet purged), most recently deleted first. */
  deleted(): Array<ConversationSummary & { deletedAt: string }> {
    return this.db
      .all<ConversationRow & { deleted_at: string }>(
        `${SUMMARY_SQL.replace('SELECT ', 'SELECT c.deleted_at, ')}
          WHERE c.deleted_at IS NOT NULL ORDER BY c.deleted_at DESC, c.id DESC`,
      )
      .map((row) => ({ ...toSummary(row), deletedAt: row.deleted_at }));
  }

  /**
   * The conversations, pinned first, then by last activity, newest first (then by id, so that
   * the order is total): all, or a page of `limit` after a cursor (keyset, along an index).
   */
  list(
    page: { limit?: number | undefined; after?: ConversationCursor | undefined } = {},
  ): ConversationSummary[] {
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
    const id = draft.id ?? randomUUID();
    const stamp = this.#stamp();
    this.db.run(
      `INSERT INTO chat_conversations
        (id, title, created_at, updated_at, pinned, model, system_prompt, temperature, max_tokens,
          forked_from)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        draft.forkedFrom ? JSON.stringify(draft.forkedFrom) : null,
      ],
    );
    return this.get(id) as ConversationSummary;
  }

  update(
    id: string,
    changes: {
      title?: string | undefined;
      pinned?: boolean | undefined;
      model?: string | null | undefined;
      systemPrompt?: string | undefined;
      temperature?: number | null | undefined;
      maxTokens?: number | null | undefined;
      toolServerIds?: readonly string[] | undefined;
      /** Set by sync: the last activity as the device it came from had it. */
      updatedAt?: string | undefined;
    },
    /** Sync changes a conversation in the trash too, so that it comes back as it was left. */
    options: { evenIfDeleted?: boolean } = {},
  ): ConversationSummary | undefined {
    const columns: Record<string, unknown> = {
      updated_at: changes.updatedAt,
      title: changes.title,
      pinned: changes.pinned === undefined ? undefined : changes.pinned ? 1 : 0,
      model: changes.model,
      system_prompt: changes.systemPrompt,
      temperature: changes.temperature,
      max_tokens: changes.maxTokens,
      tool_servers:
        changes.toolServerIds === undefined
          ? undefined
          : JSON.stringify([...new Set(changes.toolServerIds)]),
    };
    const set = Object.entries(columns).filter(([, value]) => value !== undefined);
    if (set.length > 0) {
      this.db.run(
        `UPDATE chat_conversations SET ${set.map(([name]) => `${name} = ?`).join(', ')}
          WHERE id = ?${options.evenIfDeleted ? '' : ' AND deleted_at IS NULL'}`,
        [...set.map(([, value]) => value as string | number | null), id],
      );
    }
    return this.get(id);
  }

  /** The tools allowed for the rest of a conversation (`grantKey`s of the tool loop). */
  toolGrants(conversationId: string): string[] {
    const row = this.db.one<{ tool_grants: string | null }>(
      'SELECT tool_grants FROM chat_conversations WHERE id = ?',
      [conversationId],
    );
    return jsonStrings(row?.tool_grants ?? null);
  }

  setToolGrants(conversationId: string, grants: readonly string[]): void {
    this.db.run('UPDATE chat_conversations SET tool_grants = ? WHERE id = ?', [
      JSON.stringify([...new Set(grants)]),
      conversationId,
    ]);
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

  /** Deletes one conversation for good, its messages and files with it (another computer purged it). */
  purge(id: string): boolean {
    return this.db.run('DELETE FROM chat_conversations WHERE id = ?', [id]).changes > 0;
  }

  restore(id: string): ConversationSummary | undefined {
    this.db.run('UPDATE chat_conversations SET deleted_at = NULL WHERE id = ?', [id]);
    return this.get(id);
  }

  touch(id: string): void {
    this.db.run('UPDATE chat_conversations SET updated_at = ? WHERE id = ?', [this.#stamp(), id]);
  }

  /**
   * The path a conversation shows ends here: its remembered last message, or (if that is gone,
   * or was never set) the message written last.
   */
  leafOf(conversationId: string): string | undefined {
    const row = this.db.one<{ id: string | null }>(
      `SELECT coalesce(
          (SELECT m.id FROM chat_messages m
            WHERE m.id = c.current_leaf_id AND m.conversation_id = c.id),
          (SELECT m.id FROM chat_messages m WHERE m.conversation_id = c.id
            ORDER BY m.seq DESC LIMIT 1)) AS id
        FROM chat_conversations c WHERE c.id = ?`,
      [conversationId],
    );
    return row?.id ?? undefined;
  }

  setLeaf(conversationId: string, messageId: string): void {
    this.db.run('UPDATE chat_conversations SET current_leaf_id = ? WHERE id = ?', [
      messageId,
      conversationId,
    ]);
  }

  /**
   * `from` and its ancestors, oldest first: at most `max` of them, and none above `stop` (which
   * is included when it is one of them).
   */
  #walkUp(from: string, max = Number.MAX_SAFE_INTEGER, stop: string | null = null): MessageRow[] {
    return this.db.all<MessageRow>(
      `WITH RECURSIVE up(id, parent_id, n) AS (
          SELECT id, parent_id, 1 FROM chat_messages WHERE id = ?
          UNION ALL
          SELECT p.id, p.parent_id, up.n + 1 FROM up JOIN chat_messages p ON p.id = up.parent_id
            WHERE up.n < ? AND up.id IS NOT ?
        )
        SELECT ${M_COLUMNS} FROM up JOIN chat_messages m ON m.id = up.id ORDER BY m.seq`,
      [from, max, stop],
    );
  }

  /** A message and the ones before it on its path, oldest first (what a reply is asked with). */
  ancestors(messageId: string): ChatMessageRecord[] {
    return this.#walkUp(messageId).map(toMessage);
  }

  /**
   * The shown path of a conversation, oldest first: all of it, or with `limit` the last `limit`
   * messages before `beforeId`, stretched back to `fromId` when that is older (a search hit).
   * Each message with other versions carries its `branch`.
   */
  path(
    conversationId: string,
    page: {
      limit?: number | undefined;
      beforeId?: string | undefined;
      fromId?: string | undefined;
    } = {},
  ): PathPage {
    let start: string | undefined;
    if (page.beforeId === undefined) start = this.leafOf(conversationId);
    else {
      const before = this.#row(page.beforeId);
      if (before === undefined || before.conversation_id !== conversationId)
        return { messages: [], hasOlder: false };
      start = before.parent_id ?? undefined;
    }
    if (start === undefined) return { messages: [], hasOlder: false };
    if (page.limit === undefined) {
      return { messages: this.#withBranches(this.#walkUp(start)), hasOlder: false };
    }
    const limit = page.limit;
    if (page.fromId !== undefined) {
      // Up to the hit (it may be far) and a few messages before it, so that it can be shown in
      // the middle of the view; at least a page.
      const rows = this.#walkUp(start, Number.MAX_SAFE_INTEGER, page.fromId);
      const hit = rows.findIndex((row) => row.id === page.fromId);
      if (hit >= 0 && rows.length - hit >= limit) {
        const parent = rows[hit]!.parent_id;
        const context = parent === null ? [] : this.#walkUp(parent, HIT_CONTEXT);
        return {
          messages: this.#withBranches([...context, ...rows.slice(hit)]),
          hasOlder: (context[0] ?? rows[hit]!).parent_id !== null,
        };
      }
    }
    const rows = this.#walkUp(start, limit + 1);
    const hasOlder = rows.length > limit;
    return { messages: this.#withBranches(hasOlder ? rows.slice(1) : rows), hasOlder };
  }

  /** The shown path from `messageId` (which must be on it) to its end. */
  pathFrom(conversationId: string, messageId: string): ChatMessageRecord[] {
    const leaf = this.leafOf(conversationId);
    if (leaf === undefined) return [];
    const rows = this.#walkUp(leaf, Number.MAX_SAFE_INTEGER, messageId);
    const hit = rows.findIndex((row) => row.id === messageId);
    return hit < 0 ? [] : this.#withBranches(rows.slice(hit));
  }

  /**
   * A page of the shown path going forward: the `limit` messages from `fromId` on (`inclusive`)
   * or after it, and whether the path goes on after them. Only the ids of the path are walked;
   * only the page's messages are read whole. Undefined when `fromId` is not on the path.
   */
  pathAfter(
    conversationId: string,
    fromId: string,
    page: { limit: number; inclusive: boolean },
  ): { messages: ChatMessageRecord[]; hasNewer: boolean } | undefined {
    const leaf = this.leafOf(conversationId);
    const from = this.#row(fromId);
    if (leaf === undefined || from === undefined || from.conversation_id !== conversationId)
      return undefined;
    // From the leaf up to `fromId`: ancestors of the leaf written before it cannot be it.
    const ids = this.db
      .all<{ id: string }>(
        `WITH RECURSIVE up(id, parent_id, seq, n) AS (
            SELECT id, parent_id, seq, 0 FROM chat_messages WHERE id = ?
            UNION ALL
            SELECT p.id, p.parent_id, p.seq, up.n + 1 FROM up JOIN chat_messages p
              ON p.id = up.parent_id WHERE up.seq > ?
          )
          SELECT id FROM up ORDER BY n DESC`,
        [leaf, from.seq],
      )
      .map((row) => row.id);
    if (ids[0] !== fromId) return undefined;
    const start = page.inclusive ? 0 : 1;
    const wanted = ids.slice(start, start + page.limit);
    const rows = this.db.all<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_messages
        WHERE id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
      [JSON.stringify(wanted)],
    );
    return {
      messages: this.#withBranches(rows),
      hasNewer: start + page.limit < ids.length,
    };
  }

  /** Adds to each message that has other versions its place among them. */
  #withBranches(rows: MessageRow[]): ChatMessageRecord[] {
    if (rows.length === 0) return [];
    const parents = [...new Set(rows.map((r) => r.parent_id).filter((p) => p !== null))];
    const siblings = new Map<string | null, string[]>();
    for (const row of this.db.all<{ parent_id: string; id: string }>(
      `SELECT parent_id, id FROM chat_messages
        WHERE parent_id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
      [JSON.stringify(parents)],
    )) {
      const list = siblings.get(row.parent_id);
      if (list) list.push(row.id);
      else siblings.set(row.parent_id, [row.id]);
    }
    const root = rows.find((r) => r.parent_id === null);
    if (root !== undefined)
      siblings.set(
        null,
        this.db
          .all<{ id: string }>(
            'SELECT id FROM chat_messages WHERE conversation_id = ? AND parent_id IS NULL ORDER BY seq',
            [root.conversation_id],
          )
          .map((r) => r.id),
      );
    return rows.map((row) => {
      const message = toMessage(row);
      const versions = siblings.get(row.parent_id) ?? [];
      const index = versions.indexOf(row.id);
      if (versions.length > 1 && index >= 0) {
        const branch: Branch = {
          index,
          count: versions.length,
          previousId: versions[index - 1] ?? null,
          nextId: versions[index + 1] ?? null,
        };
        message.branch = branch;
      }
      return message;
    });
  }

  /** The message written last under `messageId` (itself when it has none): a path's end. */
  latestLeafUnder(messageId: string): string {
    const row = this.db.one<{ id: string }>(
      `WITH RECURSIVE down(id, seq) AS (
          SELECT id, seq FROM chat_messages WHERE id = ?
          UNION ALL
          SELECT c.id, c.seq FROM down JOIN chat_messages c ON c.parent_id = down.id
        )
        SELECT id FROM down ORDER BY seq DESC LIMIT 1`,
      [messageId],
    );
    return row?.id ?? messageId;
  }

  /** Whether `messageId` is on the shown path of its conversation. */
  onPath(conversationId: string, messageId: string): boolean {
    const leaf = this.leafOf(conversationId);
    if (leaf === undefined) return false;
    const target = this.#row(messageId);
    if (target === undefined) return false;
    // Only ancestors of the leaf with a seq at least the target's can be it: stop there.
    const found = this.db.one<{ id: string }>(
      `WITH RECURSIVE up(id, parent_id, seq) AS (
          SELECT id, parent_id, seq FROM chat_messages WHERE id = ?
          UNION ALL
          SELECT p.id, p.parent_id, p.seq FROM up JOIN chat_messages p ON p.id = up.parent_id
            WHERE up.seq > ?
        )
        SELECT id FROM up WHERE id = ?`,
      [leaf, target.seq, messageId],
    );
    return found !== undefined;
  }

  /**
   * Puts a message on its conversation's path: when it is not there already, the path moves to
   * the most recent last message under it. Returns the path's end.
   */
  showMessage(messageId: string): { conversationId: string; leafId: string } | undefined {
    return this.transaction(() => {
      const row = this.#row(messageId);
      if (row === undefined) return undefined;
      if (this.onPath(row.conversation_id, messageId))
        return { conversationId: row.conversation_id, leafId: this.leafOf(row.conversation_id)! };
      const leafId = this.latestLeafUnder(messageId);
      this.setLeaf(row.conversation_id, leafId);
      return { conversationId: row.conversation_id, leafId };
    });
  }

  /**
   * When the path ends at a message with replies under it (a compare waiting for the person to
   * choose), that message and its replies.
   */
  openCompare(
    conversationId: string,
  ): { userMessageId: string; replies: ChatMessageRecord[] } | undefined {
    const leaf = this.leafOf(conversationId);
    if (leaf === undefined) return undefined;
    const message = this.#row(leaf);
    if (message?.role !== 'user') return undefined;
    const replies = this.children(leaf);
    return replies.length === 0 ? undefined : { userMessageId: leaf, replies };
  }

  /** A conversation's messages, every branch, in the order they were written (for exports). */
  allMessages(conversationId: string): ChatMessageRecord[] {
    return this.db
      .all<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM chat_messages WHERE conversation_id = ? ORDER BY seq`,
        [conversationId],
      )
      .map(toMessage);
  }

  /** The messages directly under `parentId`, oldest first. */
  children(parentId: string): ChatMessageRecord[] {
    return this.db
      .all<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM chat_messages WHERE parent_id = ? ORDER BY seq`,
        [parentId],
      )
      .map(toMessage);
  }

  #row(id: string): MessageRow | undefined {
    return this.db.one<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM chat_messages WHERE id = ?`, [
      id,
    ]);
  }

  message(id: string): ChatMessageRecord | undefined {
    const row = this.#row(id);
    return row === undefined ? undefined : toMessage(row);
  }

  #insert(conversationId: string, parentId: string | null, message: NewMessage, stamp: string) {
    const id = message.id ?? randomUUID();
    const last = this.db.one<{ seq: number | null }>(
      'SELECT max(seq) AS seq FROM chat_messages WHERE conversation_id = ?',
      [conversationId],
    );
    this.db.run(
      `INSERT INTO chat_messages (id, conversation_id, seq, role, content, status, error,
        prompt_tokens, completion_tokens, total_tokens, model, finish_reason, created_at,
        parent_id, batch_id, temperature, first_token_ms, duration_ms, tool_calls)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        conversationId,
        (last?.seq ?? -1) + 1,
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
        parentId,
        message.batchId ?? null,
        message.temperature ?? null,
        message.timing?.firstTokenMs ?? null,
        message.timing?.durationMs ?? null,
        message.tools === undefined ? null : JSON.stringify(message.tools),
      ],
    );
    return id;
  }

  /** Writes one message under `parentId`, as it is (an import): nothing else changes. */
  insertMessage(conversationId: string, parentId: string | null, message: NewMessage): string {
    return this.#insert(conversationId, parentId, message, this.#stamp());
  }

  /**
   * Adds messages one after the other at the end of the shown path (the first one under the
   * path's end, or under `after` when given), makes the last one the path's end, and marks the
   * conversation active, in one transaction.
   */
  append(
    conversationId: string,
    messages: readonly NewMessage[],
    after?: string | null,
  ): ChatMessageRecord[] {
    return this.transaction(() => {
      const stamp = this.#stamp();
      let parent = after === undefined ? (this.leafOf(conversationId) ?? null) : after;
      const ids: string[] = [];
      for (const message of messages) {
        parent = this.#insert(conversationId, parent, message, stamp);
        ids.push(parent);
      }
      if (parent !== null) this.setLeaf(conversationId, parent);
      this.db.run('UPDATE chat_conversations SET updated_at = ? WHERE id = ?', [
        stamp,
        conversationId,
      ]);
      return ids.map((id) => this.message(id) as ChatMessageRecord);
    });
  }

  /**
   * Adds messages side by side under one parent (new versions of a reply, the replies of a
   * compare), without moving the path; marks the conversation active.
   */
  addChildren(
    conversationId: string,
    parentId: string | null,
    messages: readonly NewMessage[],
  ): ChatMessageRecord[] {
    return this.transaction(() => {
      const stamp = this.#stamp();
      const ids = messages.map((message) => this.#insert(conversationId, parentId, message, stamp));
      this.db.run('UPDATE chat_conversations SET updated_at = ? WHERE id = ?', [
        stamp,
        conversationId,
      ]);
      return ids.map((id) => this.message(id) as ChatMessageRecord);
    });
  }

  /**
   * A new conversation with a copy of the path up to and including `messageId`, and the same
   * settings. Copies rather than shared rows: deleting either conversation never touches the
   * other. The copies' usage is not recorded again (it was spent once). Returns the pairs of
   * ids, so that what other domains keep per message can follow the copies.
   */
  fork(messageId: string): {
    conversation: ConversationSummary;
    copied: Array<{ from: string; to: string }>;
  } {
    return this.transaction(() => {
      const message = this.#row(messageId);
      if (message === undefined) throw new Error(`no message ${messageId}`);
      const source = this.get(message.conversation_id);
      if (source === undefined) throw new Error(`no conversation ${message.conversation_id}`);
      const path = this.#walkUp(messageId);
      const created = this.create({
        title: forkTitle(source.title),
        model: source.model,
        systemPrompt: source.systemPrompt,
        temperature: source.temperature,
        maxTokens: source.maxTokens,
      });
      if ((source.toolServerIds ?? []).length > 0)
        this.db.run('UPDATE chat_conversations SET tool_servers = ? WHERE id = ?', [
          JSON.stringify(source.toolServerIds),
          created.id,
        ]);
      this.db.run('UPDATE chat_conversations SET forked_from = ? WHERE id = ?', [
        JSON.stringify({
          conversationId: source.id,
          messageId,
          title: source.title,
        }),
        created.id,
      ]);
      const copied: Array<{ from: string; to: string }> = [];
      let parent: string | null = null;
      for (const row of path) {
        const copy = toMessage(row);
        const to: string = this.#insert(
          created.id,
          parent,
          {
            role: copy.role,
            content: copy.content,
            status: copy.status === 'streaming' ? 'interrupted' : copy.status,
            createdAt: copy.createdAt,
            ...(copy.error === undefined ? {} : { error: copy.error }),
            ...(copy.usage === undefined ? {} : { usage: copy.usage }),
            ...(copy.model === undefined ? {} : { model: copy.model }),
            ...(copy.finishReason === undefined ? {} : { finishReason: copy.finishReason }),
            ...(copy.temperature === undefined ? {} : { temperature: copy.temperature }),
            ...(copy.timing === undefined ? {} : { timing: copy.timing }),
            ...(copy.tools === undefined ? {} : { tools: copy.tools }),
          },
          this.#stamp(),
        );
        copied.push({ from: row.id, to });
        parent = to;
      }
      if (parent !== null) this.setLeaf(created.id, parent);
      return { conversation: this.get(created.id) as ConversationSummary, copied };
    });
  }

  /** Saves a reply's text so far (while streaming) or its end; a final usage is kept in `chat_usage`. */
  saveReply(id: string, update: ReplyUpdate): void {
    this.transaction(() => {
      this.db.run(
        `UPDATE chat_messages SET content = ?, status = ?, error = ?, prompt_tokens = ?,
          completion_tokens = ?, total_tokens = ?, finish_reason = ?,
          first_token_ms = coalesce(?, first_token_ms), duration_ms = coalesce(?, duration_ms),
          tool_calls = coalesce(?, tool_calls)
          WHERE id = ?`,
        [
          update.content,
          update.status,
          update.error === undefined ? null : JSON.stringify(update.error),
          update.usage?.promptTokens ?? null,
          update.usage?.completionTokens ?? null,
          update.usage?.totalTokens ?? null,
          update.finishReason ?? null,
          update.timing?.firstTokenMs ?? null,
          update.timing?.durationMs ?? null,
          update.tools === undefined ? null : JSON.stringify(update.tools),
          id,
        ],
      );
      if (update.usage === undefined || update.status === 'streaming') return;
      this.#countUsage('REPLACE', id, update.usage, this.#stamp());
    });
  }

  /**
   * Counts a reply's usage in `chat_usage` as spent at `at`, once: a reply made on another
   * computer, arrived by sync. A reply counted already is left as it is.
   */
  addUsage(id: string, usage: ChatUsage, at: string): void {
    this.#countUsage('IGNORE', id, usage, at);
  }

  /** Writes a reply's row of `chat_usage`, replacing one already there or leaving it. */
  #countUsage(existing: 'REPLACE' | 'IGNORE', id: string, usage: ChatUsage, at: string): void {
    const prompt = usage.promptTokens ?? 0;
    const completion =
      usage.completionTokens ?? Math.max(0, (usage.totalTokens ?? prompt) - prompt);
    this.db.run(
      `INSERT OR ${existing} INTO chat_usage
          (message_id, conversation_id, model, prompt_tokens, completion_tokens, created_at)
        SELECT id, conversation_id, coalesce(model, ''), ?, ?, ? FROM chat_messages WHERE id = ?`,
      [prompt, completion, at, id],
    );
  }

  /** Tokens per model over a conversation's replies, every branch. */
  usageByModel(conversationId: string): ModelUsage[] {
    return this.db.all<ModelUsage>(
      `SELECT coalesce(model, '') AS model, count(*) AS replies,
          coalesce(sum(prompt_tokens), 0) AS promptTokens,
          coalesce(sum(coalesce(completion_tokens,
            total_tokens - coalesce(prompt_tokens, 0))), 0) AS completionTokens
        FROM chat_messages
        WHERE conversation_id = ? AND role = 'assistant'
          AND (prompt_tokens IS NOT NULL OR completion_tokens IS NOT NULL OR total_tokens IS NOT NULL)
        GROUP BY coalesce(model, '') ORDER BY model`,
      [conversationId],
    );
  }

  /**
   * Tokens per model and per day (in this machine's time zone) of every reply asked for since
   * `since`, deleted conversations included.
   */
  usageByDay(since: Date): Array<ModelUsage & { date: string }> {
    return this.db.all<ModelUsage & { date: string }>(
      `SELECT date(created_at, 'localtime') AS date, model, count(*) AS replies,
          sum(prompt_tokens) AS promptTokens, sum(completion_tokens) AS completionTokens
        FROM chat_usage WHERE created_at >= ?
        GROUP BY date, model ORDER BY date, model`,
      [since.toISOString()],
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
   *
   * One hit per message, not one per version of it: versions (a regenerated reply, an edited
   * message) share their parent, and only the newest matching one is kept. Matches are read a few
   * times over `limit` so that versions left out still leave `limit` hits.
   */
  search(input: string, limit = 50): SearchHit[] {
    /** Where a message stands in its conversation's tree: its versions share it. */
    const placeOf = (row: { conversation_id: string; parent_id: string | null; role: string }) =>
      `${row.conversation_id}/${row.parent_id ?? ''}/${row.role}`;
    const query = ftsQuery(input);
    if (query === undefined) return [];
    const rows = this.db.all<{
      rowid: number;
      id: string;
      conversation_id: string;
      title: string;
      seq: number;
      role: 'user' | 'assistant';
      created_at: string;
      parent_id: string | null;
      snippet: string;
    }>(
      `SELECT ${HIT_MESSAGE_COLUMNS},
          snippet(chat_messages_fts, 0, '${HIT_START}', '${HIT_END}', '…', 16) AS snippet
        FROM chat_messages_fts
        JOIN chat_messages m ON m.rowid = chat_messages_fts.rowid
        JOIN chat_conversations c ON c.id = m.conversation_id
        WHERE chat_messages_fts MATCH ? AND c.deleted_at IS NULL
        ORDER BY chat_messages_fts.rowid DESC LIMIT ?`,
      [query, limit * VERSIONS_READ],
    );
    // The text of files sent with messages (migration 4) is searched too: a hit in a file is a
    // hit on its message, its snippet led by the file's name.
    const files = this.db.all<(typeof rows)[number] & { name: string }>(
      `SELECT ${HIT_MESSAGE_COLUMNS},
          a.name,
          snippet(chat_attachments_fts, 0, '${HIT_START}', '${HIT_END}', '…', 16) AS snippet
        FROM chat_attachments_fts
        JOIN chat_attachments a ON a.rowid = chat_attachments_fts.rowid
        JOIN chat_messages m ON m.id = a.message_id
        JOIN chat_conversations c ON c.id = m.conversation_id
        WHERE chat_attachments_fts MATCH ? AND c.deleted_at IS NULL
        ORDER BY m.rowid DESC LIMIT ?`,
      [query, limit * VERSIONS_READ],
    );
    // The tool calls of replies (migration 6) too: a hit in a call's arguments or result is a
    // hit on the reply, its snippet led by the names of the tools it called.
    const calls = this.db.all<(typeof rows)[number] & { name: string | null }>(
      `SELECT ${HIT_MESSAGE_COLUMNS},
          (SELECT group_concat(name, ', ') FROM (SELECT DISTINCT coalesce(
              json_extract(k.value, '$.tool'), json_extract(k.value, '$.functionName')) AS name
            FROM json_each(CASE WHEN json_valid(m.tool_calls) THEN m.tool_calls ELSE '{}' END,
                '$.steps') s,
              json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END, '$.calls') k
            WHERE k.type = 'object' AND name IS NOT NULL)) AS name,
          snippet(chat_tool_calls_fts, 0, '${HIT_START}', '${HIT_END}', '…', 16) AS snippet
        FROM chat_tool_calls_fts
        JOIN chat_messages m ON m.rowid = chat_tool_calls_fts.rowid
        JOIN chat_conversations c ON c.id = m.conversation_id
        WHERE chat_tool_calls_fts MATCH ? AND c.deleted_at IS NULL
        ORDER BY chat_tool_calls_fts.rowid DESC LIMIT ?`,
      [query, limit * VERSIONS_READ],
    );
    /** A hit on a message; one in a file has its snippet led by the file's name. */
    const toHit = (row: (typeof rows)[number], file?: string) => ({
      rowid: row.rowid,
      hit: {
        conversationId: row.conversation_id,
        conversationTitle: row.title,
        messageId: row.id,
        seq: row.seq,
        role: row.role,
        createdAt: row.created_at,
        snippet: [
          ...(file === undefined ? [] : [{ text: `${file}: `, hit: false }]),
          ...snippetSegments(row.snippet),
        ],
      } satisfies SearchHit,
    });
    const hits = rows.map((row) => ({ ...toHit(row), place: placeOf(row) }));
    const seen = new Set(hits.map((h) => h.hit.messageId));
    for (const row of files) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      hits.push({ ...toHit(row, row.name), place: placeOf(row) });
    }
    for (const row of calls) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      hits.push({ ...toHit(row, row.name ?? undefined), place: placeOf(row) });
    }
    // Newest first, then the first hit of each place in the tree: the newest version's.
    const places = new Set<string>();
    return hits
      .sort((a, b) => b.rowid - a.rowid)
      .filter((h) => !places.has(h.place) && places.add(h.place))
      .slice(0, limit)
      .map((h) => h.hit);
  }
}
