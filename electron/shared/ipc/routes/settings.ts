/**
 * The settings part of the IPC contract (see ../contract.ts): theme, chat defaults, timeouts, the
 * choices about keys and logs, and the groups that quick ask, the desktop, updates and the
 * network keep here (each changed through its own domain's routes).
 */
import { z } from 'zod';
import { SETTINGS_RANGES, type Range } from '../../limits';
import { LANGUAGE_CHOICES } from '../../locales';
import { maxTokensSchema, temperatureSchema } from '../../relay-requests';
import { event, route, type EventSpec, type RouteSpec } from '../define';
import { storedDesktopSettingsSchema } from './desktop';
import { DEFAULT_PROXY_SETTINGS, proxySettingsSchema } from './network';
import { storedQuickAskSettingsSchema } from './quick-ask';
import { storedUpdateSettingsSchema } from './updates';

/** A whole number in one of the ranges the page checks too (`shared/limits.ts`). */
const wholeIn = (range: Range) => z.number().int().min(range.min).max(range.max);

/** Files sent with messages: the largest file, and the tokens a message with its files may hold. */
export const attachmentSettingsSchema = z.strictObject({
  /** The largest file attached, in MB. */
  maxFileMb: wholeIn(SETTINGS_RANGES.attachmentMb),
  /**
   * The model's context, in tokens, used where the model list does not say it: a message whose
   * text and files are estimated over it is not sent.
   */
  contextTokens: wholeIn(SETTINGS_RANGES.contextTokens),
  /**
   * The longest side, in pixels, an attached image is scaled down to before it is stored and
   * sent (added after 0.1: a settings file without it gets the default).
   */
  imageMaxSide: wholeIn(SETTINGS_RANGES.imageMaxSide).default(1536),
});
export type AttachmentSettings = z.infer<typeof attachmentSettingsSchema>;
export const DEFAULT_ATTACHMENT_SETTINGS: AttachmentSettings = {
  maxFileMb: 20,
  contextTokens: 128_000,
  imageMaxSide: 1536,
};

/**
 * Tools in chat: how many tokens the tool list may cost a request, steps per reply, and how much
 * of a tool's result is kept.
 */
export const toolSettingsSchema = z.strictObject({
  /** Past this estimate, tools are left out of a request (the reply says which and why). */
  tokenBudget: wholeIn(SETTINGS_RANGES.toolTokenBudget),
  /** Model replies that call tools in one turn; the turn ends there with a note. */
  maxSteps: wholeIn(SETTINGS_RANGES.toolSteps),
  /**
   * The characters of a tool's result kept and sent to the model; a longer one is cut with a
   * note saying how much it held (added after the first release with tools: a settings file
   * without it gets the default).
   */
  maxResultChars: wholeIn(SETTINGS_RANGES.toolResultChars).default(100_000),
});
export type ToolSettings = z.infer<typeof toolSettingsSchema>;
export const DEFAULT_TOOL_SETTINGS: ToolSettings = {
  tokenBudget: 8000,
  maxSteps: 10,
  maxResultChars: 100_000,
};

export const settingsSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  chatDefaults: z.object({ temperature: temperatureSchema, maxTokens: maxTokensSchema.nullable() }),
  timeouts: z.object({
    requestSeconds: z.number().int().min(5).max(3600),
    idleSeconds: z.number().int().min(5).max(3600),
  }),
  /**
   * Where no keychain works: keep keys in a file only this user can read (not encrypted) instead
   * of in memory until quit. Off unless the person turns it on; read when the app starts.
   */
  allowPlaintextKeys: z.boolean().default(false),
  /** Write prompts, messages and embedding inputs into the support log. Off unless turned on. */
  includePromptsInLogs: z.boolean().default(false),
  // Added after 0.1: a settings file without them gets the defaults.
  quickAsk: storedQuickAskSettingsSchema,
  desktop: storedDesktopSettingsSchema,
  updates: storedUpdateSettingsSchema,
  proxy: proxySettingsSchema.default(DEFAULT_PROXY_SETTINGS),
  attachments: attachmentSettingsSchema.default(DEFAULT_ATTACHMENT_SETTINGS),
  tools: toolSettingsSchema.default(DEFAULT_TOOL_SETTINGS),
  /** The app's language: the system's (resolved by main at start) unless one is chosen. */
  language: z.enum(LANGUAGE_CHOICES).default('system'),
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * What `updateSettings` may change. Quick ask and the desktop, updates and the proxy have routes
 * of their own, which apply a change (register a shortcut, set a proxy) before it is saved.
 */
export const settingsChangesSchema = settingsSchema
  .pick({
    theme: true,
    chatDefaults: true,
    timeouts: true,
    allowPlaintextKeys: true,
    includePromptsInLogs: true,
    attachments: true,
    tools: true,
    language: true,
  })
  .partial()
  .strict();

export const SETTINGS_ROUTES = {
  getSettings: route('settings:get', z.undefined(), settingsSchema),
  updateSettings: route('settings:update', settingsChangesSchema, settingsSchema),
} as const satisfies Record<string, RouteSpec>;

export const SETTINGS_EVENTS = {
  /**
   * The settings as saved, after every change (whichever route made it): the quick ask window
   * follows the language and the theme chosen in the main window while it is open.
   */
  settingsChanged: event('settings:changed', settingsSchema),
} as const satisfies Record<string, EventSpec>;
