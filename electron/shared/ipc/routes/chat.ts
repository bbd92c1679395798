/**
 * The chat part of the IPC contract (see ../contract.ts).
 *
 * Decisions the renderer can rely on:
 * - Delete is soft: `deleteConversation` hides a conversation at once and `restoreConversation`
 *   brings it back (the undo). Hidden conversations are purged when the app next starts.
 * - A conversation is a tree: each message has a parent (`parentId`, null for the first ones).
 *   Nothing is ever replaced or dropped: editing a sent message adds a new user message beside it
 *   (a sibling, with a new id; the message edited keeps its id, text and whatever is stored with
 *   it) and a new reply under that; regenerating adds a new reply beside the old one. The
 *   conversation shows one path from a first message to a last one; `showVersion` moves it onto
 *   another version of a message, and the path then follows that version's most recent last
 *   message. A message with other versions carries `branch` (its place among them and the ids of
 *   the one before and after it, for the ‹ 2 / 3 › switcher).
 * - `getConversation` returns the shown path in order: all of it unless `limit` is given; with
 *   `limit`, the last `limit` messages of the path before `beforeId` (the first one loaded), and
 *   whether older ones remain, stretched back to `fromId` when that is older (a search hit); or,
 *   with `afterId` (the last one loaded), the next `limit` messages after it, and whether newer
 *   ones remain (`hasNewer`). A view that switched versions holds the path from the switch point
 *   a page at a time, as it holds older pages, and loads the rest as the person scrolls down.
 *   `seq` is the order in which a conversation's messages were written: it grows along a path.
 * - Compare sends one message to several models (or temperatures) at once: its replies are
 *   siblings of one batch, and the path ends at the message itself (the answer's `compare` lists
 *   the replies) until `continueWith` makes one of them the path's end.
 * - `chatDelta` carries, for every reply that grew, only the text appended since the previous
 *   event, all replies together in one event, at most one event per ~16 ms whatever the number
 *   of replies; `chatReplyFinished` carries the whole final text. The page paces the deltas:
 *   after showing one it sends `chatFrameReady` (one way) at its next animation frame, and main
 *   sends the text gathered since then at once, so the deltas follow the page's frames instead
 *   of a timer of main's own. A page that sends none (hidden, reloading) still gets them, a few
 *   times a second.
 * - Search snippets are plain segments `{ text, hit }`, never HTML.
 * - Attachments: the page never reads a file from disk and never names a path. It asks main to
 *   open its own file dialog (`attachFiles`), hands main the grants main gave the preload for
 *   files dropped on the composer (`attachDropped`), or the bytes of a pasted file
 *   (`attachBytes`). Main reads each file, keeps it
 *   as a draft and answers what it is (name, kind, size, a token estimate) or why it was refused,
 *   by name. `sendMessage` names the drafts to send with the message; main reads files chosen
 *   from disk again then (one deleted or changed since is refused by name, and nothing is sent).
 *   Once sent, they are stored with the message and listed on it (`attachments`).
 */
import { z } from 'zod';
import { RELAY_ERROR_KINDS } from '../../relay-errors';
import { maxTokensSchema, temperatureSchema } from '../../relay-requests';
import { event, messageRefFields, oneWay, route, type EventSpec, type RouteSpec } from '../define';
import { grantIdSchema } from '../file-grants';
import { boundedText as text, idSchema as id, savedIdSchema, shownText } from '../schemas';
import { worded } from '../../messages/worded';

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

/** What an attachment is read as: text (any text or source file), a PDF's text layer, an image. */
export const ATTACHMENT_KINDS = ['text', 'pdf', 'image'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/** At most this many files with one message. */
export const MAX_ATTACHMENTS = 20;
/** The longest file name kept. */
export const MAX_ATTACHMENT_NAME = 255;
/** The most bytes of one pasted file (as base64 they are a third more). */
export const MAX_PASTED_BYTES = 20 * 1024 * 1024;

/** An attachment as the page sees it: never its bytes or its text. */
export const attachmentInfoSchema = z.object({
  id,
  name: shownText,
  kind: z.enum(ATTACHMENT_KINDS),
  mimeType: z.string(),
  /** The file's size in bytes. */
  bytes: z.number().int().nonnegative(),
  /** An estimate of the tokens it adds to the message (about four characters a token). */
  tokens: z.number().int().nonnegative(),
  /** For a PDF: how many pages it has text on. */
  pages: z.number().int().nonnegative().optional(),
  /** For an image just attached: its size as it will be sent (scaled down), in pixels. */
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** For an image just attached: a small WebP of it as a data: URL (sent ones: `attachmentThumbnail`). */
  thumbnail: z
    .string()
    .regex(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/)
    .optional(),
});
export type AttachmentInfo = z.infer<typeof attachmentInfoSchema>;

/** A file that was not attached (or not sent), by name, with a sentence that says why. */
export const attachmentRefusalSchema = z.object({
  name: shownText,
  reason: z.string(),
  message: z.string(),
  ...messageRefFields,
});
export type AttachmentRefusal = z.infer<typeof attachmentRefusalSchema>;

const attachResultSchema = z.object({
  attached: z.array(attachmentInfoSchema),
  refused: z.array(attachmentRefusalSchema),
});

const attachmentIdsSchema = z
  .array(id)
  .max(MAX_ATTACHMENTS, {
    error: worded(
      'form.chat.filesPerMessage',
      `Send at most ${MAX_ATTACHMENTS} files with one message.`,
      { max: MAX_ATTACHMENTS },
    ),
  })
  .optional();

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
  ...messageRefFields,
  param: z.string().optional(),
  status: z.number().int().optional(),
  code: z.string().optional(),
  retryAfterMs: z.number().nonnegative().optional(),
});
export type ReplyError = z.infer<typeof replyErrorSchema>;

/** Where a conversation branched off from ("Branch from here"), as it was then. */
export const forkOriginSchema = z.object({
  conversationId: id,
  messageId: id,
  title: shownText,
});

export const conversationSummarySchema = z.object({
  id,
  title: shownText,
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
  /** Every message of every branch. */
  messageCount: z.number().int().nonnegative(),
  /** Sums over the replies that reported usage, in every branch (each was paid for). */
  usage: z.object({
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative(),
  }),
  /** Set on a conversation made by "Branch from here". */
  forkedFrom: forkOriginSchema.nullable(),
  /** The MCP servers whose tools its replies may use (none: replies use no tools). */
  toolServerIds: z.array(z.string()).optional(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/** A message's place among its versions (the messages with the same parent). */
export const branchSchema = z.object({
  /** 0-based position, oldest first. */
  index: z.number().int().nonnegative(),
  count: z.number().int().min(2),
  previousId: id.nullable(),
  nextId: id.nullable(),
});
export type Branch = z.infer<typeof branchSchema>;

export const replyTimingSchema = z.object({
  /** From the request to the first text. */
  firstTokenMs: z.number().int().nonnegative().optional(),
  /** From the request to the end. */
  durationMs: z.number().int().nonnegative().optional(),
});
export type ReplyTiming = z.infer<typeof replyTimingSchema>;

/**
 * What became of one tool call of a reply: waiting for the person's answer, running, done (the
 * tool answered, `toolError` when it said its result is an error), failed (it could not be run or
 * answered), or denied (by the person or their rules; the model was told). `result` is what the
 * model was sent: untrusted text, shown as text only.
 */
export const TOOL_CALL_STATES = ['waiting', 'running', 'done', 'failed', 'denied'] as const;
export type ToolCallState = (typeof TOOL_CALL_STATES)[number];

export const toolCallRecordSchema = z.object({
  callId: z.string(),
  /** The name the model called it by. */
  functionName: z.string(),
  serverId: z.string().nullable(),
  serverName: z.string().nullable(),
  /** The tool's own name on its server; null when no offered tool had the name. */
  tool: z.string().nullable(),
  /** The arguments as the model wrote them (JSON text, or what it wrote instead). */
  arguments: z.string(),
  state: z.enum(TOOL_CALL_STATES),
  result: z.string(),
  toolError: z.boolean(),
  /** How long the server took; while running, how long it has run so far. */
  durationMs: z.number().nonnegative(),
  /** While waiting: why the person is asked (their rule, or a tool marked destructive). */
  why: z.enum(['rule', 'destructive']).optional(),
});
export type ToolCallRecord = z.infer<typeof toolCallRecordSchema>;

/** A tool left out of a request because the tool list would have gone past the token budget. */
export const leftOutToolSchema = z.object({
  serverName: z.string(),
  tool: z.string(),
  tokens: z.number().int().nonnegative(),
});

/**
 * The tools of one reply: each step (a model reply that called tools: its text and its calls),
 * the tools left out for the budget, and whether the turn ended at the step limit.
 */
export const replyToolsSchema = z.object({
  steps: z.array(z.object({ text: z.string(), calls: z.array(toolCallRecordSchema) })),
  leftOut: z.array(leftOutToolSchema),
  /** The budget the tool list was held to, in tokens. */
  budget: z.number().int().nonnegative(),
  stoppedAtLimit: z.boolean(),
  /** The step limit of the turn. */
  maxSteps: z.number().int().nonnegative(),
});
export type ReplyTools = z.infer<typeof replyToolsSchema>;

export const chatMessageRecordSchema = z.object({
  id,
  conversationId: id,
  /** The message this one follows; null for a first message. */
  parentId: id.nullable(),
  /** The order in which the conversation's messages were written; it grows along a path. */
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
  /** For replies: the temperature asked for, when one was sent. */
  temperature: z.number().optional(),
  timing: replyTimingSchema.optional(),
  /** For replies of a compare: the batch they were asked in together. */
  batchId: id.optional(),
  /** Present when the message has other versions. */
  branch: branchSchema.optional(),
  /** Files sent with the message, in the order they were attached. */
  attachments: z.array(attachmentInfoSchema).optional(),
  /** For replies that used tools: their calls and results, step by step. */
  tools: replyToolsSchema.optional(),
});
export type ChatMessageRecord = z.infer<typeof chatMessageRecordSchema>;

const sendOptionsSchema = z
  .strictObject({
    /** Stream the reply (default true). Off: one `chatReplyFinished`, no deltas. */
    stream: z.boolean().optional(),
  })
  .optional();

const sendResultSchema = z.object({ userMessageId: id, replyId: id });

/** At most this many replies in one compare. */
export const MAX_COMPARE = 4;

/** One column of a compare: a model, and a temperature (the conversation's when absent). */
export const compareTargetSchema = z.strictObject({
  model: text(500)
    .trim()
    .min(1, { error: worded('form.chat.columnModel', 'Choose a model for each column.') }),
  temperature: temperatureSchema.optional(),
});
export type CompareTarget = z.infer<typeof compareTargetSchema>;

/** The replies of a compare still open on the path: its message and the replies beside each other. */
export const compareSchema = z.object({
  userMessageId: id,
  replies: z.array(chatMessageRecordSchema),
});

/** A price per million tokens; what a reply cost is worked out from its usage. */
export const costSchema = z.object({
  /** The sum over the replies of models with a price; null when none has one. */
  amount: z.number().nonnegative().nullable(),
  currency: z.string(),
  /** Models of replies that reported usage but have no price entered. */
  unpriced: z.array(z.string()),
});
export type Cost = z.infer<typeof costSchema>;

export const usageByModelSchema = z.object({
  model: z.string(),
  replies: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** null: no price entered for the model. */
  cost: z.number().nonnegative().nullable(),
});
export type UsageByModel = z.infer<typeof usageByModelSchema>;

export const searchHitSchema = z.object({
  conversationId: id,
  conversationTitle: shownText,
  messageId: id,
  seq: z.number().int().nonnegative(),
  role: z.enum(MESSAGE_ROLES),
  createdAt: z.string(),
  /** The snippet in order; `hit` marks the matched words. Plain text, never HTML. */
  snippet: z.array(z.object({ text: z.string(), hit: z.boolean() })),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

/** `zip`: the conversation's JSON with the files sent in it (several conversations: always a zip). */
export const EXPORT_FORMATS = ['markdown', 'json', 'zip'] as const;

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
      title: text(MAX_TITLE_CHARS)
        .trim()
        .min(1, { error: worded('form.chat.title', 'Give the conversation a title.') }),
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
  /** The shown path, or a page of it (see the notes at the top). */
  getConversation: route(
    'chat:get',
    z
      .strictObject({
        id,
        limit: z.number().int().min(1).max(10_000).optional(),
        /** The messages of the path before this one (the first loaded). */
        beforeId: id.optional(),
        /** With `limit`: also every message of the path from this one on (a search hit to show). */
        fromId: id.optional(),
        /** The messages of the path after this one (the last loaded): the next page going down. */
        afterId: id.optional(),
      })
      .refine(
        (page) => page.afterId === undefined || (page.beforeId ?? page.fromId) === undefined,
        {
          error: worded(
            'form.chat.beforeOrAfter',
            'Ask for the messages before or after one message, not both.',
          ),
        },
      ),
    z.object({
      conversation: conversationSummarySchema,
      messages: z.array(chatMessageRecordSchema),
      /** Older messages exist before the first one returned. */
      hasOlder: z.boolean(),
      /** Newer messages of the path exist after the last one returned (only with `afterId`). */
      hasNewer: z.boolean(),
      /** The path ends at a message sent to several models at once: their replies (once reached). */
      compare: compareSchema.optional(),
    }),
  ),
  /**
   * Shows a message: when it is not on the path, the path moves onto it and on to the most recent
   * last message under it (the ‹ 2 / 3 › switcher, a search hit on another branch). Answers the
   * path from that message on, which is all that changed: all of it, or with `limit` its first
   * `limit` messages and whether the path goes on after them (the rest is paged with
   * `getConversation`'s `afterId`), and the path's last message (whole, as `end`, when the page
   * does not reach it and it is a reply still being written).
   */
  showVersion: route(
    'chat:show-version',
    z.strictObject({ messageId: id, limit: z.number().int().min(1).max(10_000).optional() }),
    z.object({
      conversation: conversationSummarySchema,
      messages: z.array(chatMessageRecordSchema),
      /** The path goes on after the last message returned. */
      hasNewer: z.boolean(),
      /** The path's last message. */
      leafId: id,
      /**
       * That last message when the answer stops short of it (`hasNewer`) and it is a reply still
       * being written: the view shows it at once, after the page, until the pages reach it.
       */
      end: chatMessageRecordSchema.optional(),
      /** The path ends at a compare: its replies (only when the answer reaches the end). */
      compare: compareSchema.optional(),
    }),
  ),
  /**
   * "Branch from here": a new conversation holding a copy of the path up to and including the
   * message (copies, so that deleting either conversation never touches the other), with the
   * same settings. Its replies' usage is not counted again.
   */
  forkConversation: route(
    'chat:fork',
    z.strictObject({ messageId: id }),
    conversationSummarySchema,
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
      /** The MCP servers whose tools its replies may use. */
      toolServerIds: z.array(text(200)).max(100).optional(),
    }),
    conversationSummarySchema,
  ),
  sendMessage: route(
    'chat:send',
    z.strictObject({
      conversationId: id,
      text: text(MAX_MESSAGE_CHARS).refine((t) => t.trim().length > 0, {
        error: worded('form.chat.writeMessage', 'Write a message first.'),
      }),
      /** Attachment drafts to send with it (from `attachFiles`, `attachDropped`, `attachBytes`). */
      attachmentIds: attachmentIdsSchema,
      options: sendOptionsSchema,
    }),
    sendResultSchema,
  ),
  /** Opens main's file dialog and reads the files chosen; cancelled: nothing attached. */
  attachFiles: route('chat:attach-files', z.undefined(), attachResultSchema),
  /**
   * Reads files dropped on the composer, by the grants main gave the preload for them (the page
   * names no path: see `shared/ipc/file-grants.ts`).
   */
  attachDropped: route(
    'chat:attach-dropped',
    z.strictObject({
      grants: z
        .array(grantIdSchema)
        .min(1)
        .max(MAX_ATTACHMENTS, {
          error: worded(
            'form.chat.attachAtOnce',
            `Attach at most ${MAX_ATTACHMENTS} files at once.`,
            { max: MAX_ATTACHMENTS },
          ),
        }),
    }),
    attachResultSchema,
  ),
  /** A pasted file (or a dropped one with no path on disk): its name and bytes, as base64. */
  attachBytes: route(
    'chat:attach-bytes',
    z.strictObject({
      name: text(MAX_ATTACHMENT_NAME)
        .trim()
        .min(1, { error: worded('form.chat.pastedNoName', 'The pasted file has no name.') }),
      base64: z
        .string()
        .max(Math.ceil(MAX_PASTED_BYTES / 3) * 4, {
          error: worded(
            'form.chat.pastedTooLarge',
            `A pasted file can be at most ${MAX_PASTED_BYTES / (1024 * 1024)} MB.`,
            { max: MAX_PASTED_BYTES / (1024 * 1024) },
          ),
        })
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, {
          error: worded('form.chat.pastedNotBase64', 'The pasted file is not base64.'),
        }),
    }),
    attachResultSchema,
  ),
  /**
   * A resource of an MCP server, read by main and attached like a file: the page names the server
   * and the resource's URI as the server listed it (`listMcpResources`); main refuses a URI the
   * server did not list, and a type a message cannot carry.
   */
  attachMcpResource: route(
    'chat:attach-resource',
    z.strictObject({ serverId: id, uri: text(8192).min(1) }),
    attachResultSchema,
  ),
  /** Forgets attachment drafts the person removed from the composer. */
  discardAttachments: route(
    'chat:attach-discard',
    z.strictObject({ ids: z.array(id).max(MAX_ATTACHMENTS * 5) }),
    z.null(),
  ),
  /** A sent image's thumbnail, a small WebP as a data: URL; null for a file of another kind. */
  attachmentThumbnail: route(
    'chat:attachment-thumbnail',
    z.strictObject({ id }),
    z.object({
      url: z
        .string()
        .regex(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/)
        .nullable(),
    }),
  ),
  /** Opens a sent attachment in the system's app for its type (from a copy in a temp folder). */
  openAttachment: route('chat:attachment-open', z.strictObject({ id }), z.null()),
  /** Saves a sent attachment where the person chooses. Cancelled: `saved: false`. */
  saveAttachment: route(
    'chat:attachment-save',
    z.strictObject({ id }),
    z.object({
      saved: z.boolean(),
      path: z.string().optional(),
      savedId: savedIdSchema.optional(),
    }),
  ),
  /**
   * The person's answer to a tool call waiting for it (`chatReplyTools` shows it `waiting`): run
   * it once, for the rest of the conversation, always (a rule for the tool), or deny it (the
   * model is told). false when no such call waits (it was stopped, or answered already).
   */
  answerToolCall: route(
    'chat:answer-tool-call',
    z.strictObject({
      replyId: id,
      callId: text(200),
      answer: z.enum(['once', 'conversation', 'always', 'deny']),
    }),
    z.boolean(),
  ),
  /** Aborts the reply's request in main; the reply ends 'interrupted' with its text kept. */
  stopReply: route(
    'chat:stop',
    z.strictObject({ replyId: id }),
    z.object({ stopped: z.boolean() }),
  ),
  /**
   * Asks for a new version of a reply (by default the last one of the path), beside the old one,
   * which stays reachable with the switcher; the path ends at the new reply.
   */
  regenerateReply: route(
    'chat:regenerate',
    z.strictObject({ conversationId: id, replyId: id.optional(), options: sendOptionsSchema }),
    sendResultSchema,
  ),
  /**
   * "Continue" under a reply that stopped before its end (the last of the path): the relay is
   * asked for the rest, which is added to the same reply; it streams again under its id.
   */
  continueReply: route(
    'chat:continue',
    z.strictObject({ replyId: id, options: sendOptionsSchema }),
    sendResultSchema,
  ),
  /**
   * One message to several models (or one model at several temperatures) at once: the replies
   * stream side by side, each can be stopped alone, and each fails alone. Its files are stored
   * once with the message and sent to every model; with images, a model that reads none refuses
   * the whole compare before anything is sent, naming the model and the images.
   */
  compareMessage: route(
    'chat:compare',
    z.strictObject({
      conversationId: id,
      text: text(MAX_MESSAGE_CHARS).refine((t) => t.trim().length > 0, {
        error: worded('form.chat.writeMessage', 'Write a message first.'),
      }),
      targets: z
        .array(compareTargetSchema)
        .min(2, {
          error: worded(
            'form.chat.compareTwo',
            'Choose at least two models or temperatures to compare.',
          ),
        })
        .max(MAX_COMPARE, {
          error: worded('form.chat.compareAtMost', `Compare at most ${MAX_COMPARE} at once.`, {
            max: MAX_COMPARE,
          }),
        }),
      /** Attachment drafts sent with it to every model (images only to models that read them). */
      attachmentIds: attachmentIdsSchema,
      options: sendOptionsSchema,
    }),
    z.object({ userMessageId: id, replyIds: z.array(id) }),
  ),
  /** "Continue with this one": the reply becomes the path's end; the others stay as its versions. */
  continueWith: route('chat:continue-with', z.strictObject({ replyId: id }), z.null()),
  /** The page showed the streamed text it had and is at a new frame: the next delta may come. */
  chatFrameReady: oneWay('chat:frame-ready', z.undefined()),
  /** What the conversation's replies cost, at the prices entered on the Models screen. */
  getConversationCost: route(
    'chat:cost',
    z.strictObject({ id }),
    costSchema.extend({ byModel: z.array(usageByModelSchema) }),
  ),
  /**
   * Tokens and cost per model and per day (the person's days) over the last `days` days: every
   * reply asked for in this app, also those of conversations deleted since.
   */
  getUsage: route(
    'chat:usage',
    z.strictObject({ days: z.number().int().min(1).max(366) }),
    z.object({
      currency: z.string(),
      /** Each day of the period, oldest first, as YYYY-MM-DD. */
      days: z.array(
        z.object({
          date: z.string(),
          byModel: z.array(usageByModelSchema),
        }),
      ),
      /** The period's sums per model, most tokens first. */
      byModel: z.array(usageByModelSchema),
    }),
  ),
  /** Adds a new version of a sent user message (a sibling) and asks for a reply to it. */
  editMessage: route(
    'chat:edit',
    z.strictObject({
      messageId: id,
      text: text(MAX_MESSAGE_CHARS).refine((t) => t.trim().length > 0, {
        error: worded('form.chat.writeMessage', 'Write a message first.'),
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
  /**
   * Opens a save dialog; several ids are saved as one zip. Cancelled: `saved: false`. A lone JSON
   * file names the files sent in the conversation but does not carry them: `filesLeftOut`.
   */
  exportConversations: route(
    'chat:export',
    z.strictObject({
      ids: z
        .array(id)
        .min(1, { error: worded('form.chat.oneConversation', 'Choose at least one conversation.') })
        .max(10_000),
      format: z.enum(EXPORT_FORMATS),
    }),
    z.object({
      saved: z.boolean(),
      path: z.string().optional(),
      savedId: savedIdSchema.optional(),
      count: z.number().int(),
      filesLeftOut: z.array(z.string()).optional(),
    }),
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
      refused: z.array(z.object({ name: shownText, reason: z.string(), ...messageRefFields })),
    }),
  ),
} as const satisfies Record<string, RouteSpec>;

export const CHAT_EVENTS = {
  /**
   * Text appended to streaming replies since the previous event, every reply that grew in one
   * event (coalesced, ~60 per second at most however many replies stream). Retry countdowns
   * come as `retryScheduled` with `requestId` = the reply id.
   */
  chatDelta: event(
    'chat:delta',
    z.object({
      deltas: z.array(z.object({ replyId: id, conversationId: id, text: z.string() })).min(1),
    }),
  ),
  /**
   * A reply ended; `content` is its whole final text, `conversation` its conversation's row as it
   * stands now (absent when the conversation was deleted meanwhile): the list changes that row
   * only, rather than being fetched again.
   */
  chatReplyFinished: event(
    'chat:reply-finished',
    z.object({
      replyId: id,
      conversationId: id,
      status: z.enum(MESSAGE_STATUSES),
      content: z.string(),
      usage: usageSchema.optional(),
      error: replyErrorSchema.optional(),
      timing: replyTimingSchema.optional(),
      conversation: conversationSummarySchema.optional(),
    }),
  ),
  /** A reply's tool calls changed (a call asked, waiting, running, answered): all of them. */
  chatReplyTools: event(
    'chat:reply-tools',
    z.object({ replyId: id, conversationId: id, tools: replyToolsSchema }),
  ),
  /** The list changed in main (an import, quick ask, a sync): fetch `listConversations` again. */
  conversationsChanged: event('chat:conversations-changed', z.null()),
} as const satisfies Record<string, EventSpec>;
