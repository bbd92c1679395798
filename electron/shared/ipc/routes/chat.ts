/**
 * The chat part of the IPC contract (see ../contract.ts).
 *
 * Decisions the renderer can rely on:
 * - Delete is soft: `deleteConversation` hides a conversation at once and `restoreConversation`
 *   brings it back (the undo). Hidden conversations are purged when the app next starts.
 * - Editing a sent message replaces it and drops every later message (no branches), then a new
 *   reply is requested. Regenerate replaces the last assistant reply the same way.
 * - Messages come in `seq` order. `getConversation` returns all of them unless `limit` is given;
 *   with `limit` it returns the last `limit` before `beforeSeq` and says whether older ones remain,
 *   stretched back to `fromSeq` when that is older (so that a search hit is in the page).
 * - `chatDelta` carries only the text appended since the previous event for that reply, at most
 *   one event per ~16 ms per reply; `chatReplyFinished` carries the whole final text.
 * - Search snippets are plain segments `{ text, hit }`, never HTML.
 */
import { z } from 'zod';
import { RELAY_ERROR_KINDS } from '../../relay-errors';
import { maxTokensSchema, temperatureSchema } from '../../relay-requests';
import { event, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, idSchema as id } from '../schemas';

export const MESSAGE_STATUSES = ['complete', 'streaming', 'interrupted', 'error'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const MESSAGE_ROLES = ['user', 'assistant'] as const;

/** Longest text a person can send in one message. */
export const MAX_MESSAGE_CHARS = 200_000;
/**
 * The longest reply kept: a stream is cut here (the reply ends interrupted, with a note), and an
 * import refuses a longer message. Ten million characters is far past any real model's output.
 */
export const MAX_REPLY_CHARS = 10_000_000;
export const MAX_SYSTEM_PROMPT_CHARS = 100_000;
export const MAX_TITLE_CHARS = 200;

export const usageSchema = z.object({
  promptTokens: z.number().int().nonnegative().optional(),
  completionTokens: z.number().int().nonnegative().optional(),
  totalTokens: z.number().int().nonnegative().optional(),
});
export type ChatUsage = z.infer<typeof usageSchema>;

/** Why a reply failed, kept on the reply itself so it is shown where it happened. */
export const replyErrorSchema = z.object({
  kind: z.enum([...RELAY_ERROR_KINDS, 'not_found', 'internal']),
  message: z.string(),
  param: z.string().optional(),
  status: z.number().int().optional(),
  code: z.string().optional(),
  retryAfterMs: z.number().nonnegative().optional(),
});
export type ReplyError = z.infer<typeof replyErrorSchema>;

export const conversationSummarySchema = z.object({
  id,
  title: z.string(),
  createdAt: z.string(),
  /** Last activity: a message sent or a reply finished (renames do not count). */
  updatedAt: z.string(),
  pinned: z.boolean(),
  /** The model for the next send; null until one is chosen. */
  model: z.string().nullable(),
  systemPrompt: z.string(),
  /** null: the app's default from settings. */
  temperature: z.number().nullable(),
  maxTokens: z.number().int().nullable(),
  messageCount: z.number().int().nonnegative(),
  /** Sums over the replies that reported usage. */
  usage: z.object({
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative(),
  }),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const chatMessageRecordSchema = z.object({
  id,
  conversationId: id,
  /** Position in the conversation, increasing. */
  seq: z.number().int().nonnegative(),
  role: z.enum(MESSAGE_ROLES),
  content: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  error: replyErrorSchema.optional(),
  usage: usageSchema.optional(),
  /** For replies: the model that wrote it. */
  model: z.string().optional(),
  finishReason: z.string().optional(),
  createdAt: z.string(),
});
export type ChatMessageRecord = z.infer<typeof chatMessageRecordSchema>;

const sendOptionsSchema = z
  .strictObject({
    /** Stream the reply (default true). Off: one `chatReplyFinished`, no deltas. */
    stream: z.boolean().optional(),
  })
  .optional();

const sendResultSchema = z.object({ userMessageId: id, replyId: id });

export const searchHitSchema = z.object({
  conversationId: id,
  conversationTitle: z.string(),
  messageId: id,
  seq: z.number().int().nonnegative(),
  role: z.enum(MESSAGE_ROLES),
  createdAt: z.string(),
  /** The snippet in order; `hit` marks the matched words. Plain text, never HTML. */
  snippet: z.array(z.object({ text: z.string(), hit: z.boolean() })),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const EXPORT_FORMATS = ['markdown', 'json'] as const;

/** Where a page of the conversation list goes on from: the last conversation of the page before. */
export const conversationCursorSchema = z.strictObject({
  pinned: z.boolean(),
  updatedAt: text(40),
  id,
});
export type ConversationCursor = z.infer<typeof conversationCursorSchema>;

export const CHAT_ROUTES = {
  /**
   * The conversations, pinned first, then by last activity (newest first): all of them, or a
   * page of at most `limit` after the `after` cursor (the sidebar loads them as it scrolls).
   */
  listConversations: route(
    'chat:list',
    z
      .strictObject({
        limit: z.number().int().min(1).max(10_000).optional(),
        after: conversationCursorSchema.optional(),
      })
      .optional(),
    z.array(conversationSummarySchema),
  ),
  createConversation: route(
    'chat:create',
    z
      .strictObject({
        title: text(MAX_TITLE_CHARS).optional(),
        model: text(500).min(1).optional(),
        systemPrompt: text(MAX_SYSTEM_PROMPT_CHARS).optional(),
      })
      .optional(),
    conversationSummarySchema,
  ),
  renameConversation: route(
    'chat:rename',
    z.strictObject({
      id,
      title: text(MAX_TITLE_CHARS).trim().min(1, { error: 'Give the conversation a title.' }),
    }),
    conversationSummarySchema,
  ),
  setConversationPinned: route(
    'chat:pin',
    z.strictObject({ id, pinned: z.boolean() }),
    conversationSummarySchema,
  ),
  /** Hides the conversation (stopping its reply); `restoreConversation` undoes it. */
  deleteConversation: route('chat:delete', z.strictObject({ id }), z.null()),
  restoreConversation: route('chat:restore', z.strictObject({ id }), conversationSummarySchema),
  getConversation: route(
    'chat:get',
    z.strictObject({
      id,
      limit: z.number().int().min(1).max(10_000).optional(),
      beforeSeq: z.number().int().nonnegative().optional(),
      /** With `limit`: also every message from this seq on (a search hit to show). */
      fromSeq: z.number().int().nonnegative().optional(),
    }),
    z.object({
      conversation: conversationSummarySchema,
      messages: z.array(chatMessageRecordSchema),
      /** Older messages exist before the first one returned. */
      hasOlder: z.boolean(),
    }),
  ),
  /** Per-conversation settings; null resets to the default (model: none chosen). */
  updateConversationSettings: route(
    'chat:settings',
    z.strictObject({
      id,
      systemPrompt: text(MAX_SYSTEM_PROMPT_CHARS).optional(),
      model: text(500).trim().min(1).nullable().optional(),
      temperature: temperatureSchema.nullable().optional(),
      maxTokens: maxTokensSchema.nullable().optional(),
    }),
    conversationSummarySchema,
  ),
  sendMessage: route(
    'chat:send',
    z.strictObject({
      conversationId: id,
      text: text(MAX_MESSAGE_CHARS).refine((t) => t.trim().length > 0, {
        error: 'Write a message first.',
      }),
      options: sendOptionsSchema,
    }),
    sendResultSchema,
  ),
  /** Aborts the reply's request in main; the reply ends 'interrupted' with its text kept. */
  stopReply: route(
    'chat:stop',
    z.strictObject({ replyId: id }),
    z.object({ stopped: z.boolean() }),
  ),
  /** Replaces the last assistant reply (finished, failed or interrupted) with a new one. */
  regenerateReply: route(
    'chat:regenerate',
    z.strictObject({ conversationId: id, options: sendOptionsSchema }),
    sendResultSchema,
  ),
  /** Replaces a sent user message, drops every later message, and asks for a new reply. */
  editMessage: route(
    'chat:edit',
    z.strictObject({
      messageId: id,
      text: text(MAX_MESSAGE_CHARS).refine((t) => t.trim().length > 0, {
        error: 'Write a message first.',
      }),
      options: sendOptionsSchema,
    }),
    sendResultSchema,
  ),
  searchMessages: route(
    'chat:search',
    z.strictObject({
      query: text(500),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    z.array(searchHitSchema),
  ),
  /** Opens a save dialog; several ids are saved as one zip. Cancelled: `saved: false`. */
  exportConversations: route(
    'chat:export',
    z.strictObject({
      ids: z.array(id).min(1, { error: 'Choose at least one conversation.' }).max(10_000),
      format: z.enum(EXPORT_FORMATS),
    }),
    z.object({ saved: z.boolean(), path: z.string().optional(), count: z.number().int() }),
  ),
  /**
   * Opens a file dialog for our JSON exports or zips of them. Each file, and each entry of a zip,
   * stands alone: the good ones are imported (in one transaction), the bad ones are listed in
   * `refused` with the reason. A zip that cannot be read or is too big is refused whole. When
   * nothing at all can be imported the call fails (invalid_request) with every reason.
   */
  importConversations: route(
    'chat:import',
    z.undefined(),
    z.object({
      cancelled: z.boolean(),
      conversationIds: z.array(id),
      refused: z.array(z.object({ name: z.string(), reason: z.string() })),
    }),
  ),
} as const satisfies Record<string, RouteSpec>;

export const CHAT_EVENTS = {
  /**
   * Text appended to a streaming reply since the previous event (coalesced, ~60 per second at
   * most). Retry countdowns come as `retryScheduled` with `requestId` = the reply id.
   */
  chatDelta: event('chat:delta', z.object({ replyId: id, conversationId: id, text: z.string() })),
  /** A reply ended; `content` is its whole final text. */
  chatReplyFinished: event(
    'chat:reply-finished',
    z.object({
      replyId: id,
      conversationId: id,
      status: z.enum(MESSAGE_STATUSES),
      content: z.string(),
      usage: usageSchema.optional(),
      error: replyErrorSchema.optional(),
    }),
  ),
  /** The list changed in main (a reply finished, an import): fetch `listConversations` again. */
  conversationsChanged: event('chat:conversations-changed', z.null()),
} as const satisfies Record<string, EventSpec>;
