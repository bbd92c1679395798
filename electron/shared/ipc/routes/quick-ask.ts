/**
 * The quick ask part of the IPC contract (see ../contract.ts): the small always-on-top window a
 * global shortcut opens, which asks the default chat model one question and streams the reply.
 *
 * Its page is a second entry of the renderer (`quick.html`) with the same preload, the same CSP
 * and the same router; its events go to it alone (`quickAskDelta`, `quickAskShown`), except
 * `openConversation`, which asks the main window to show a conversation.
 */
import { z } from 'zod';
import { event, messageRefFields, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, idSchema as id } from '../schemas';
import { MAX_MESSAGE_CHARS, MESSAGE_STATUSES, replyErrorSchema } from './chat';
import { worded } from '../../messages/worded';

export const quickAskSettingsSchema = z.strictObject({
  /** The global shortcut is registered; off, the tray still opens the window. */
  enabled: z.boolean({ error: worded('form.quickAsk.enabled', 'Quick ask is on or off.') }),
  /** An Electron accelerator, such as `CommandOrControl+Alt+Space`. */
  shortcut: text(100)
    .trim()
    .min(1, { error: worded('form.quickAsk.shortcut', 'Press the keys for the shortcut.') }),
  /** Every quick ask is kept as a conversation; off, only one opened in the app is. */
  saveConversations: z.boolean({
    error: worded('form.quickAsk.save', 'Saving quick asks is on or off.'),
  }),
  /** Offer the text on the clipboard (the selection, on Linux) as context when it opens. */
  useClipboard: z.boolean({
    error: worded('form.quickAsk.clipboard', 'Reading the clipboard is on or off.'),
  }),
});
export type QuickAskSettings = z.infer<typeof quickAskSettingsSchema>;

export const DEFAULT_QUICK_ASK_SHORTCUT = 'CommandOrControl+Alt+Space';

export const DEFAULT_QUICK_ASK_SETTINGS: QuickAskSettings = {
  enabled: true,
  shortcut: DEFAULT_QUICK_ASK_SHORTCUT,
  saveConversations: true,
  useClipboard: false,
};

/** As kept in settings.json: absent (a file of an earlier version) or partial, the defaults. */
export const storedQuickAskSettingsSchema = z
  .object({
    enabled: z.boolean().default(DEFAULT_QUICK_ASK_SETTINGS.enabled),
    shortcut: quickAskSettingsSchema.shape.shortcut.default(DEFAULT_QUICK_ASK_SETTINGS.shortcut),
    saveConversations: z.boolean().default(DEFAULT_QUICK_ASK_SETTINGS.saveConversations),
    useClipboard: z.boolean().default(DEFAULT_QUICK_ASK_SETTINGS.useClipboard),
  })
  .prefault({});

/** The most clipboard text offered as context; the rest is left out, and the page says so. */
export const MAX_QUICK_CONTEXT_CHARS = 20_000;

export const quickAskStateSchema = z.object({
  /** The chat model quick ask uses: the one last chosen in Chat, else the first chat model. */
  model: z.string().nullable(),
  /** Why there is no model, when there is none: in English; `messageId` and `values` give it in
   * the person's language. */
  problem: z.string().optional(),
  ...messageRefFields,
  connectionName: z.string().optional(),
  isDemo: z.boolean(),
  /** The clipboard text read as the window opened, when the setting is on and it held text. */
  context: z
    .object({
      text: z.string(),
      /** `selection`: the primary selection (Linux); `clipboard`: the clipboard. */
      source: z.enum(['selection', 'clipboard']),
      truncated: z.boolean(),
    })
    .optional(),
  useClipboard: z.boolean(),
  saveConversations: z.boolean(),
});

export const quickAskRequestIdSchema = z.string().min(1).max(100);

export const QUICK_ASK_ROUTES = {
  getQuickAsk: route('quick-ask:state', z.undefined(), quickAskStateSchema),
  /** Asks; deltas arrive as `quickAskDelta`; answers when the reply has ended. */
  askQuick: route(
    'quick-ask:ask',
    z.strictObject({
      requestId: quickAskRequestIdSchema,
      prompt: text(MAX_MESSAGE_CHARS).refine((t) => t.trim().length > 0, {
        error: worded('form.quickAsk.question', 'Write a question first.'),
      }),
      /** Send the clipboard text offered in `getQuickAsk` along with the question. */
      includeContext: z.boolean(),
    }),
    z.object({
      requestId: z.string(),
      model: z.string(),
      status: z.enum(MESSAGE_STATUSES),
      content: z.string(),
      error: replyErrorSchema.optional(),
      /** Set when it was saved as a conversation. */
      conversationId: id.optional(),
    }),
  ),
  stopQuickAsk: route(
    'quick-ask:stop',
    z.strictObject({ requestId: quickAskRequestIdSchema }),
    z.object({ stopped: z.boolean() }),
  ),
  /** "Open in Relay Desktop": saves it as a conversation if it is not yet, and shows it there. */
  continueQuickAsk: route(
    'quick-ask:continue',
    z.strictObject({ requestId: quickAskRequestIdSchema }),
    z.object({ conversationId: id }),
  ),
  /** Esc: hides the window (a reply still being written goes on). */
  hideQuickAsk: route('quick-ask:hide', z.undefined(), z.null()),
} as const satisfies Record<string, RouteSpec>;

export const QUICK_ASK_EVENTS = {
  /** Text appended to a quick reply since the previous event (coalesced per frame). */
  quickAskDelta: event('quick-ask:delta', z.object({ requestId: z.string(), text: z.string() })),
  /** The window was shown (shortcut, tray): read `getQuickAsk` again and focus the prompt. */
  quickAskShown: event('quick-ask:shown', z.null()),
  /** To the main window: show this conversation (a quick ask continued there). */
  openConversation: event('shell:open-conversation', z.object({ conversationId: id })),
} as const satisfies Record<string, EventSpec>;
