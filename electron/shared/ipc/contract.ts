/**
 * The IPC contract: every route and event between the renderer and main, in one place. The
 * chat, embeddings and images parts live in `routes/` and are spread in here.
 *
 * Requests are strict (an unknown field is refused: a payload is never trusted to be what it
 * claims); responses are plain objects that drop unknown fields, so a handler that returned
 * more than the contract says (a key, say) still could not send it.
 */
import { z } from 'zod';
import { maxTokensSchema, temperatureSchema } from '../relay-requests';
import { event, route } from './define';
import { CHAT_EVENTS, CHAT_ROUTES, MAX_REPLY_CHARS } from './routes/chat';
import { DESKTOP_EVENTS, DESKTOP_ROUTES, storedDesktopSettingsSchema } from './routes/desktop';
import { EMBEDDINGS_EVENTS, EMBEDDINGS_ROUTES } from './routes/embeddings';
import { IMAGES_EVENTS, IMAGES_ROUTES } from './routes/images';
import { DEFAULT_PROXY_SETTINGS, NETWORK_ROUTES, proxySettingsSchema } from './routes/network';
import {
  QUICK_ASK_EVENTS,
  QUICK_ASK_ROUTES,
  storedQuickAskSettingsSchema,
} from './routes/quick-ask';
import { storedUpdateSettingsSchema, UPDATES_EVENTS, UPDATES_ROUTES } from './routes/updates';
import { boundedText as text, idSchema as id } from './schemas';
import { SHORTCUT_COMMANDS } from '../shortcuts';

export const MODEL_KINDS = ['chat', 'embedding', 'image'] as const;
export const modelKindSchema = z.enum(MODEL_KINDS);

/** At most this many extra headers per connection. */
export const MAX_CONNECTION_HEADERS = 32;

/**
 * An extra request header of a connection, as the renderer sees it: a secret one's value never
 * comes back after it is saved (it is in the key store, like the key), only whether it is set.
 */
export const connectionHeaderSchema = z.object({
  name: z.string(),
  secret: z.boolean(),
  /** The value of a header that is not secret. */
  value: z.string().optional(),
  hasValue: z.boolean(),
});

/**
 * An extra header as the form sends it. A secret header without a value keeps the value saved
 * under that name (when the address stays on the same origin).
 */
export const connectionHeaderDraftSchema = z.strictObject({
  name: text(100),
  value: text(8192).optional(),
  secret: z.boolean().optional(),
});
const headerDraftsSchema = z.array(connectionHeaderDraftSchema).max(MAX_CONNECTION_HEADERS, {
  error: `At most ${MAX_CONNECTION_HEADERS} extra headers.`,
});

/** A saved connection as the renderer sees it: whether a key is saved, never the key. */
export const connectionSummarySchema = z.object({
  id,
  name: z.string(),
  baseUrl: z.string(),
  consoleUrl: z.string().optional(),
  isDemo: z.boolean(),
  active: z.boolean(),
  hasKey: z.boolean(),
  keyLast4: z.string().max(4).optional(),
  /** Set when the key store could not be read, so `hasKey` is not known. */
  keyError: z.string().optional(),
  /** Plain http to a host outside this machine and the local network. */
  unencrypted: z.boolean(),
  /** The person chose to send the key there anyway (confirmed in a dialog main opened). */
  allowUnencrypted: z.boolean(),
  /** Extra request headers sent with every request to this relay. */
  headers: z.array(connectionHeaderSchema),
});

export const connectionDraftSchema = z.strictObject({
  name: text(100).trim().min(1, { error: 'Give the connection a name.' }),
  baseUrl: text(2000).trim().min(1, { error: 'Give the address of the relay.' }),
  /** Typed by the person and sent once, to be saved; null removes a saved key. Never sent back. */
  apiKey: text(4096).nullable().optional(),
  /** Where the person tops up their balance; null or '' removes it. */
  consoleUrl: text(2000).nullable().optional(),
  /** Send the key over plain http outside the local network; main asks the person to confirm. */
  allowUnencrypted: z.boolean().optional(),
  /** Replaces the extra headers; absent keeps them. */
  headers: headerDraftsSchema.optional(),
});

export const connectionTestResultSchema = z.object({
  ok: z.boolean(),
  requestUrl: z.string().optional(),
  modelCount: z.number().int().nonnegative().optional(),
  error: z
    .object({
      kind: z.string(),
      message: z.string(),
      status: z.number().int().optional(),
      code: z.string().optional(),
    })
    .optional(),
});

/** How keys are kept: `reason` is a sentence for the person whenever it is not the OS keychain. */
export const keyStorageStatusSchema = z.object({
  secure: z.boolean(),
  persistent: z.boolean(),
  backend: z.enum(['keychain', 'memory', 'file']),
  reason: z.string().optional(),
});

export const modelSchema = z.object({
  id: z.string(),
  kind: modelKindSchema,
  kindSource: z.enum(['hint', 'id', 'override']),
  ownedBy: z.string().optional(),
});

export const FEATURES = ['chat', 'embeddings', 'images'] as const;

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
  })
  .partial()
  .strict();

export const ROUTES = {
  getAppInfo: route(
    'app:info',
    z.undefined(),
    z.object({ version: z.string(), platform: z.string() }),
  ),
  /**
   * Puts text on the system clipboard. The window refuses the page every permission, clipboard
   * writes included (`navigator.clipboard.writeText` fails there), so copy buttons ask main.
   */
  copyText: route('app:copy-text', z.strictObject({ text: text(MAX_REPLY_CHARS) }), z.null()),

  listConnections: route('connections:list', z.undefined(), z.array(connectionSummarySchema)),
  createConnection: route('connections:create', connectionDraftSchema, connectionSummarySchema),
  updateConnection: route(
    'connections:update',
    z.strictObject({ id, changes: connectionDraftSchema.partial() }),
    connectionSummarySchema,
  ),
  deleteConnection: route('connections:delete', z.strictObject({ id }), z.null()),
  selectConnection: route('connections:select', z.strictObject({ id }), connectionSummarySchema),
  testConnection: route(
    'connections:test',
    z.strictObject({
      baseUrl: text(2000),
      apiKey: text(4096).optional(),
      id: id.optional(),
      allowUnencrypted: z.boolean().optional(),
      headers: headerDraftsSchema.optional(),
    }),
    connectionTestResultSchema,
  ),
  startDemoRelay: route('connections:start-demo', z.undefined(), connectionSummarySchema),
  getKeyStorageStatus: route('connections:key-storage', z.undefined(), keyStorageStatusSchema),

  listModels: route(
    'models:list',
    z.strictObject({ refresh: z.boolean().optional() }).optional(),
    z.object({
      connectionId: id,
      models: z.array(modelSchema),
      fetchedAt: z.string(),
      /** The model last chosen in each feature, to preselect it. */
      lastModel: z.object({
        chat: z.string().optional(),
        embeddings: z.string().optional(),
        images: z.string().optional(),
      }),
    }),
  ),
  setModelKind: route(
    'models:set-kind',
    z.strictObject({ modelId: text(500).min(1), kind: modelKindSchema.nullable() }),
    z.null(),
  ),
  setLastModel: route(
    'models:set-last',
    z.strictObject({ feature: z.enum(FEATURES), modelId: text(500).min(1) }),
    z.null(),
  ),

  getSettings: route('settings:get', z.undefined(), settingsSchema),
  updateSettings: route('settings:update', settingsChangesSchema, settingsSchema),

  ...CHAT_ROUTES,
  ...EMBEDDINGS_ROUTES,
  ...IMAGES_ROUTES,
  ...QUICK_ASK_ROUTES,
  ...DESKTOP_ROUTES,
  ...UPDATES_ROUTES,
  ...NETWORK_ROUTES,
} as const;

export const EVENTS = {
  /** A request failed in a way worth retrying; the client waits `delayMs` and tries again. */
  retryScheduled: event(
    'relay:retry-scheduled',
    z.object({
      requestId: z.string(),
      attempt: z.number().int().positive(),
      delayMs: z.number().nonnegative(),
      kind: z.string(),
      message: z.string(),
    }),
  ),
  /** Connections changed (saved, deleted, switched) in main. */
  connectionsChanged: event('connections:changed', z.null()),
  /** Main (the application menu) asks the renderer to run a command of `shared/shortcuts.ts`. */
  shellCommand: event('shell:command', z.object({ id: z.enum(SHORTCUT_COMMANDS) })),

  ...CHAT_EVENTS,
  ...EMBEDDINGS_EVENTS,
  ...IMAGES_EVENTS,
  ...QUICK_ASK_EVENTS,
  ...DESKTOP_EVENTS,
  ...UPDATES_EVENTS,
} as const;

export type Routes = typeof ROUTES;
export type Events = typeof EVENTS;
