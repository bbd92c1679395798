/**
 * Conversations and their messages, as sync sees them.
 *
 * - A conversation is an entity whose fields (title, pin, model, system prompt, temperature,
 *   max tokens, the path shown, its last activity, `deleted`) each take the last change by clock.
 * - A message is an entity of one field, its record: written once and never changed into
 *   another message (an edit or a regenerate is a new message beside it), so two devices that
 *   answered in the same conversation while apart simply both have their branch. Only a reply's
 *   own device changes its record (its end, a continue), and the later record wins.
 * - Deleting is a tombstone, `deleted` with its stamp: it wins over the edits made before it,
 *   and the conversation goes to the trash (restorable for 30 days) on every device. A message
 *   added after it (by stamp: on a device that had not seen the delete) brings the conversation
 *   back, since someone was still using it: every device works that out from the same stamps.
 * - Purging (deleted for good: a trash's 30 days passed) is a second tombstone, `purged`: every
 *   device that still has the conversation deletes it for good too, unless a message was added
 *   there after the purge (by stamp); a device that joins later never makes it, and a message
 *   that arrives for a conversation purged here is dropped, never kept waiting.
 * - A reply's usage travels in its record and is counted in the usage of every computer it
 *   reaches (`chat_usage`, once per reply), unless its own computer did not count it (a copy: a
 *   branch forked off, an import), which the record says (`unspent`).
 * - A file sent with a message travels as its record (name, kind, the text read from it) and its
 *   bytes once per SHA-256 (`b/` objects); a message whose bytes have not arrived yet is shown
 *   without them, and they are added the moment they do.
 */
import type { ChatMessageRecord, ReplyError } from '../../../../shared/ipc/routes/chat';
import type { DocumentPage } from '../../documents/document-text';
import type { AttachmentStore, SyncedAttachment } from '../../chat/attachments';
import { DEFAULT_TITLE, type ChatStore } from '../../chat/store';
import { parseStoredJson } from '../../database';
import type {
  ApplyResult,
  Change,
  DbSource,
  EntityState,
  Fields,
  JsonValue,
  ReadResult,
} from '../source';

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
  current_leaf_id: string | null;
  forked_from: string | null;
  deleted_at: string | null;
}

interface MessageRow {
  id: string;
  conversation_id: string;
  parent_id: string | null;
  role: 'user' | 'assistant';
  content: string;
  status: ChatMessageRecord['status'];
  error: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  model: string | null;
  finish_reason: string | null;
  created_at: string;
  batch_id: string | null;
  temperature: number | null;
  first_token_ms: number | null;
  duration_ms: number | null;
  counted: number;
}

interface FileRow {
  id: string;
  message_id: string;
  position: number;
  name: string;
  kind: SyncedAttachment['kind'];
  mime_type: string;
  bytes: number;
  sha256: string;
  text: string;
  pages: string | null;
  created_at: string;
}

/** A message as it travels: its record, files included. */
export interface MessageRecord {
  c: string;
  p: string | null;
  role: 'user' | 'assistant';
  content: string;
  status: ChatMessageRecord['status'];
  error: ReplyError | null;
  usage: { prompt: number | null; completion: number | null; total: number | null };
  model: string | null;
  finishReason: string | null;
  createdAt: string;
  batchId: string | null;
  temperature: number | null;
  timing: { first: number | null; duration: number | null };
  files: SyncedAttachment[];
  /** Present when the message has usage its computer did not count as spent (a copy). */
  unspent?: true;
}

const JSON_IDS = 'SELECT value FROM json_each(?)';

function parseJson<T>(text: string | null): T | null {
  return text === null ? null : ((parseStoredJson(text) ?? null) as T | null);
}

export interface BlobWanted {
  sha256: string;
  messageId: string;
  files: SyncedAttachment[];
}

export class ChatSource implements DbSource {
  readonly store = 'db' as const;
  readonly kinds = ['conversation', 'message'] as const;
  readonly unkeptFields = new Set(['m']);
  /** Files whose bytes must be fetched, told to the engine as messages are applied. */
  onBlobWanted: (wanted: BlobWanted) => void = () => undefined;

  constructor(
    private readonly chat: ChatStore,
    private readonly attachments: AttachmentStore,
  ) {}

  get #db() {
    return this.chat.db;
  }

  read(kind: string, ids: readonly string[]): Array<[string, ReadResult]> {
    return kind === 'conversation' ? this.#readConversations(ids) : this.#readMessages(ids);
  }

  #readConversations(ids: readonly string[]): Array<[string, ReadResult]> {
    const rows = new Map(
      this.#db
        .all<ConversationRow>(
          `SELECT id, title, created_at, updated_at, pinned, model, system_prompt, temperature,
            max_tokens, current_leaf_id, forked_from, deleted_at
            FROM chat_conversations WHERE id IN (${JSON_IDS})`,
          [JSON.stringify(ids)],
        )
        .map((row) => [row.id, row]),
    );
    return ids.map((id) => {
      const row = rows.get(id);
      if (row === undefined) return [id, undefined];
      const fields: Fields = {
        title: row.title,
        pinned: row.pinned === 1,
        model: row.model,
        systemPrompt: row.system_prompt,
        temperature: row.temperature,
        maxTokens: row.max_tokens,
        leaf: row.current_leaf_id,
        updatedAt: row.updated_at,
        createdAt: row.created_at,
        forkedFrom: parseJson<JsonValue>(row.forked_from),
        deleted: row.deleted_at !== null,
      };
      return [id, fields];
    });
  }

  #readMessages(ids: readonly string[]): Array<[string, ReadResult]> {
    const rows = this.#db.all<MessageRow>(
      `SELECT id, conversation_id, parent_id, role, content, status, error, prompt_tokens,
        completion_tokens, total_tokens, model, finish_reason, created_at, batch_id, temperature,
        first_token_ms, duration_ms,
        EXISTS (SELECT 1 FROM chat_usage u WHERE u.message_id = chat_messages.id) AS counted
        FROM chat_messages WHERE id IN (${JSON_IDS}) ORDER BY rowid`,
      [JSON.stringify(ids)],
    );
    const files = new Map<string, SyncedAttachment[]>();
    for (const row of this.#db.all<FileRow>(
      `SELECT id, message_id, position, name, kind, mime_type, bytes, sha256, text, pages, created_at
        FROM chat_attachments WHERE message_id IN (${JSON_IDS}) ORDER BY message_id, position`,
      [JSON.stringify(ids)],
    )) {
      const file: SyncedAttachment = {
        id: row.id,
        position: row.position,
        name: row.name,
        kind: row.kind,
        mimeType: row.mime_type,
        bytes: row.bytes,
        sha256: row.sha256,
        text: row.text,
        createdAt: row.created_at,
      };
      const pages = parseJson<DocumentPage[]>(row.pages);
      if (pages !== null) file.pages = pages;
      const list = files.get(row.message_id);
      if (list) list.push(file);
      else files.set(row.message_id, [file]);
    }
    const found = new Set(rows.map((row) => row.id));
    const out: Array<[string, ReadResult]> = rows.map((row) => {
      if (row.status === 'streaming') return [row.id, 'skip'];
      const record: MessageRecord = {
        c: row.conversation_id,
        p: row.parent_id,
        role: row.role,
        content: row.content,
        status: row.status,
        error: parseJson<ReplyError>(row.error),
        usage: {
          prompt: row.prompt_tokens,
          completion: row.completion_tokens,
          total: row.total_tokens,
        },
        model: row.model,
        finishReason: row.finish_reason,
        createdAt: row.created_at,
        batchId: row.batch_id,
        temperature: row.temperature,
        timing: { first: row.first_token_ms, duration: row.duration_ms },
        files: files.get(row.id) ?? [],
      };
      const hasUsage =
        row.prompt_tokens !== null || row.completion_tokens !== null || row.total_tokens !== null;
      if (row.role === 'assistant' && hasUsage && row.counted === 0) record.unspent = true;
      return [row.id, { m: record as unknown as JsonValue }];
    });
    for (const id of ids) if (!found.has(id)) out.push([id, undefined]);
    return out;
  }

  allIds(kind: string): string[] {
    return kind === 'conversation'
      ? this.#db
          .all<{ id: string }>('SELECT id FROM chat_conversations ORDER BY rowid')
          .map((r) => r.id)
      : this.#db
          .all<{ id: string }>(
            "SELECT id FROM chat_messages WHERE status != 'streaming' ORDER BY rowid",
          )
          .map((r) => r.id);
  }

  localView(kind: string, state: EntityState, activity: string | undefined): Fields {
    const view: Fields = {};
    for (const [field, entry] of Object.entries(state)) if ('v' in entry) view[field] = entry.v!;
    if (kind === 'conversation' && state.deleted !== undefined)
      view.deleted = conversationDeleted(state, activity);
    if (kind === 'conversation' && state.purged !== undefined)
      view.purged = conversationPurged(state, activity);
    return view;
  }

  gone(kind: string, _id: string, state: EntityState): Fields | undefined {
    // A conversation purged from the trash is purged everywhere; one deleted by other means
    // (an import undone) goes to the trash. Messages go only with their conversation.
    if (kind !== 'conversation') return undefined;
    return state.deleted?.v === true ? { deleted: true, purged: true } : { deleted: true };
  }

  activityOf(kind: string, won: Record<string, { v: JsonValue; h: string }>): string | undefined {
    if (kind !== 'message' || won.m === undefined) return undefined;
    return (won.m.v as unknown as MessageRecord).c;
  }

  apply(kind: string, id: string, change: Change & { known?: boolean }): ApplyResult {
    return kind === 'conversation'
      ? this.#applyConversation(id, change)
      : this.#applyMessage(id, change);
  }

  #conversationRow(id: string): { deleted: boolean } | undefined {
    const row = this.#db.one<{ deleted_at: string | null }>(
      'SELECT deleted_at FROM chat_conversations WHERE id = ?',
      [id],
    );
    return row && { deleted: row.deleted_at !== null };
  }

  #applyConversation(id: string, change: Change & { known?: boolean }): ApplyResult {
    const view = this.localView('conversation', change.merged, change.activity);
    const row = this.#conversationRow(id);
    if (view.purged === true) {
      // Purged on another computer: purged here too, and never made on one that joins later.
      if (row === undefined) return 'dropped';
      this.chat.purge(id);
      return 'applied';
    }
    if (row === undefined) {
      // Purged from this computer's trash: it stays purged.
      if (change.known === true && view.deleted === true) return 'dropped';
      const title = typeof view.title === 'string' ? view.title : DEFAULT_TITLE;
      this.chat.create({
        id,
        title,
        pinned: view.pinned === true,
        model: (view.model as string | null | undefined) ?? null,
        systemPrompt: typeof view.systemPrompt === 'string' ? view.systemPrompt : '',
        temperature: (view.temperature as number | null | undefined) ?? null,
        maxTokens: (view.maxTokens as number | null | undefined) ?? null,
        ...(typeof view.createdAt === 'string' ? { createdAt: view.createdAt } : {}),
        ...(typeof view.updatedAt === 'string' ? { updatedAt: view.updatedAt } : {}),
        forkedFrom: (view.forkedFrom as ChatForkOrigin | undefined) ?? null,
      });
      // A title the store does not take at creation (a blank one) is set as it was synced.
      if (this.chat.get(id)?.title !== title)
        this.chat.update(id, { title }, { evenIfDeleted: true });
      if (typeof view.leaf === 'string') this.chat.setLeaf(id, view.leaf);
      if (view.deleted === true) this.chat.softDelete(id);
      return 'applied';
    }
    if (row.deleted && view.deleted !== true) this.chat.restore(id);
    const won = change.won;
    const changes: Parameters<ChatStore['update']>[1] = {};
    if (won.title !== undefined && typeof won.title.v === 'string') changes.title = won.title.v;
    if (won.pinned !== undefined) changes.pinned = won.pinned.v === true;
    if (won.model !== undefined) changes.model = won.model.v as string | null;
    if (won.systemPrompt !== undefined && typeof won.systemPrompt.v === 'string')
      changes.systemPrompt = won.systemPrompt.v;
    if (won.temperature !== undefined) changes.temperature = won.temperature.v as number | null;
    if (won.maxTokens !== undefined) changes.maxTokens = won.maxTokens.v as number | null;
    if (won.updatedAt !== undefined && typeof won.updatedAt.v === 'string')
      changes.updatedAt = won.updatedAt.v;
    this.chat.update(id, changes, { evenIfDeleted: true });
    if (won.leaf !== undefined && typeof won.leaf.v === 'string') this.chat.setLeaf(id, won.leaf.v);
    if (!row.deleted && view.deleted === true) this.chat.softDelete(id);
    return 'applied';
  }

  #applyMessage(id: string, change: Change & { known?: boolean }): ApplyResult {
    const won = change.won.m;
    if (won === undefined) return 'dropped';
    const record = won.v as unknown as MessageRecord;
    const conversation = this.#conversationRow(record.c);
    if (conversation === undefined) {
      // A conversation purged (here or on another computer) takes no more messages; one not
      // arrived yet is waited for.
      const owner = change.owner?.();
      if (owner !== undefined && owner.state.deleted?.v === true) return 'dropped';
      return 'waiting';
    }
    if (
      record.p !== null &&
      this.#db.one('SELECT 1 AS found FROM chat_messages WHERE id = ?', [record.p]) === undefined
    )
      return 'waiting';
    const existing = this.#db.one<{ conversation_id: string }>(
      'SELECT conversation_id FROM chat_messages WHERE id = ?',
      [id],
    );
    const usage = {
      ...(record.usage.prompt === null ? {} : { promptTokens: record.usage.prompt }),
      ...(record.usage.completion === null ? {} : { completionTokens: record.usage.completion }),
      ...(record.usage.total === null ? {} : { totalTokens: record.usage.total }),
    };
    const timing = {
      ...(record.timing.first === null ? {} : { firstTokenMs: record.timing.first }),
      ...(record.timing.duration === null ? {} : { durationMs: record.timing.duration }),
    };
    if (existing === undefined) {
      this.chat.insertMessage(record.c, record.p, {
        id,
        role: record.role,
        content: record.content,
        status: record.status === 'streaming' ? 'interrupted' : record.status,
        createdAt: record.createdAt,
        ...(record.error === null ? {} : { error: record.error }),
        ...(Object.keys(usage).length > 0 ? { usage } : {}),
        ...(record.model === null ? {} : { model: record.model }),
        ...(record.finishReason === null ? {} : { finishReason: record.finishReason }),
        ...(record.temperature === null ? {} : { temperature: record.temperature }),
        ...(Object.keys(timing).length > 0 ? { timing } : {}),
        ...(record.batchId === null ? {} : { batchId: record.batchId }),
      });
      // Spent on its computer: counted in the usage here too, as spent when it was asked.
      if (record.role === 'assistant' && Object.keys(usage).length > 0 && record.unspent !== true)
        this.chat.addUsage(id, usage, record.createdAt);
    } else {
      this.chat.saveReply(id, {
        content: record.content,
        status: record.status === 'streaming' ? 'interrupted' : record.status,
        ...(record.error === null ? {} : { error: record.error }),
        ...(Object.keys(usage).length > 0 ? { usage } : {}),
        finishReason: record.finishReason,
        ...(Object.keys(timing).length > 0 ? { timing } : {}),
      });
    }
    const here: SyncedAttachment[] = [];
    const missing = new Map<string, SyncedAttachment[]>();
    for (const file of record.files) {
      if (this.attachments.hasContent(file.sha256)) here.push(file);
      else missing.set(file.sha256, [...(missing.get(file.sha256) ?? []), file]);
    }
    if (here.length > 0) this.attachments.addSynced(id, here);
    for (const [sha256, files] of missing) this.onBlobWanted({ sha256, messageId: id, files });
    return 'applied';
  }

  /** Whether this computer has a file's bytes. */
  hasContent(sha256: string): boolean {
    return this.attachments.hasContent(sha256);
  }

  /** The bytes of a file, to upload. */
  content(sha256: string): Uint8Array | undefined {
    return this.attachments.content(sha256);
  }

  /** The SHA-256 of every file a message here names (in the trash too): their bytes are kept. */
  referencedBlobs(): Set<string> {
    return new Set(
      this.#db
        .all<{ sha256: string }>('SELECT DISTINCT sha256 FROM chat_attachments')
        .map((row) => row.sha256),
    );
  }

  /** The SHA-256 of each file a message record names. */
  blobsOf(fields: Fields): string[] {
    const record = fields.m as unknown as MessageRecord | undefined;
    return record?.files.map((file) => file.sha256) ?? [];
  }

  /** Files whose bytes just arrived: stored with their message, if it is still here. */
  blobArrived(messageId: string, files: readonly SyncedAttachment[], data: Uint8Array): void {
    if (
      this.#db.one('SELECT 1 AS found FROM chat_messages WHERE id = ?', [messageId]) === undefined
    )
      return;
    this.attachments.addSynced(messageId, files, new Map([[files[0]!.sha256, data]]));
  }
}

type ChatForkOrigin = NonNullable<ReturnType<ChatStore['get']>>['forkedFrom'];

/**
 * Whether a conversation was deleted for good, from its synced state: purged, unless a message
 * was added after the purge (by stamp) on a computer that still had it.
 */
export function conversationPurged(state: EntityState, activity: string | undefined): boolean {
  const purged = state.purged;
  if (purged === undefined || purged.v !== true) return false;
  return !(activity !== undefined && activity > purged.h);
}

/**
 * Whether a conversation is in the trash, from its synced state: deleted, unless a message was
 * added after the delete (by stamp).
 */
export function conversationDeleted(state: EntityState, activity: string | undefined): boolean {
  const deleted = state.deleted;
  if (deleted === undefined || deleted.v !== true) return false;
  return !(activity !== undefined && activity > deleted.h);
}
