/**
 * The connections part of the IPC contract (see ../contract.ts): saved relays, their keys (which
 * never cross: only whether one is saved), testing an address, and the demo relay.
 */
import { z } from 'zod';
import { event, messageRefFields, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, idSchema as id, shownText } from '../schemas';
import { worded } from '../../messages/worded';

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
  name: text(100).trim(),
  value: text(8192).trim().optional(),
  secret: z.boolean().optional(),
});
const headerDraftsSchema = z.array(connectionHeaderDraftSchema).max(MAX_CONNECTION_HEADERS, {
  error: worded(
    'form.connections.headersAtMost',
    `At most ${MAX_CONNECTION_HEADERS} extra headers.`,
    { max: MAX_CONNECTION_HEADERS },
  ),
});

/** A saved connection as the renderer sees it: whether a key is saved, never the key. */
export const connectionSummarySchema = z.object({
  id,
  name: shownText,
  baseUrl: z.string(),
  consoleUrl: z.string().optional(),
  isDemo: z.boolean(),
  active: z.boolean(),
  hasKey: z.boolean(),
  keyLast4: z.string().max(4).optional(),
  /** Set when the key store could not be read, so `hasKey` is not known (in English). */
  keyError: z.string().optional(),
  /** `keyError` by its key in main's catalogue, and its values: shown in the person's language. */
  keyErrorId: messageRefFields.messageId,
  keyErrorValues: messageRefFields.values,
  /** Plain http to a host outside this machine and the local network. */
  unencrypted: z.boolean(),
  /** The person chose to send the key there anyway (confirmed in a dialog main opened). */
  allowUnencrypted: z.boolean(),
  /** Extra request headers sent with every request to this relay. */
  headers: z.array(connectionHeaderSchema),
});

/** At most this many characters in a connection's name. */
export const MAX_CONNECTION_NAME = 100;
/** At most this many characters in an API key. */
export const MAX_API_KEY = 4096;

/**
 * An API key as typed: trimmed, and printable ASCII without spaces, since an HTTP header carries
 * it. The messages never quote the value: it is a key.
 */
export const apiKeySchema = z
  .string()
  .trim()
  .min(1, {
    error: worded(
      'form.connections.keyEmpty',
      'The API key is empty: paste the key, or leave the field out to keep no key.',
    ),
    abort: true,
  })
  .max(MAX_API_KEY, {
    error: worded(
      'form.connections.keyAtMost',
      `The API key is too long: at most ${MAX_API_KEY} characters.`,
      { max: MAX_API_KEY },
    ),
  })
  .regex(/^[\x21-\x7e]+$/, {
    error: worded(
      'form.connections.keyCharacters',
      'The API key contains spaces or characters that cannot be sent: paste it again.',
    ),
  });

/** Where the person manages their account: a web address, or '' for none. */
const consoleUrlSchema = z
  .string()
  .trim()
  .max(2000, { error: worded('form.connections.consoleLong', 'The console address is too long.') })
  .refine((value) => value === '' || isWebAddress(value), {
    error: worded(
      'form.connections.console',
      'The console address must be a web address starting with https:// or http://.',
    ),
  });

function isWebAddress(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export const connectionDraftSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { error: worded('form.connections.name', 'Give the connection a name.'), abort: true })
    .max(MAX_CONNECTION_NAME, {
      error: worded(
        'form.connections.nameAtMost',
        `The name is too long: at most ${MAX_CONNECTION_NAME} characters.`,
        { max: MAX_CONNECTION_NAME },
      ),
    }),
  /** The relay's address; main checks it further (`relay/base-url.ts`). */
  baseUrl: text(2000)
    .trim()
    .min(1, { error: worded('form.connections.address', 'Give the address of the relay.') }),
  /** Typed by the person and sent once, to be saved; null removes a saved key. Never sent back. */
  apiKey: apiKeySchema.nullable().optional(),
  /** Where the person tops up their balance; null or '' removes it. */
  consoleUrl: consoleUrlSchema.nullable().optional(),
  /** Send the key over plain http outside the local network; main asks the person to confirm. */
  allowUnencrypted: z.boolean().optional(),
  /** Replaces the extra headers; absent keeps them. */
  headers: headerDraftsSchema.optional(),
});

/** An edit of a saved connection: only the fields given change. */
export const connectionChangesSchema = connectionDraftSchema.partial();

/** An address and key to try before saving; `id` lets an edit form test with the saved key. */
export const connectionTestDraftSchema = z.strictObject({
  baseUrl: text(2000),
  apiKey: apiKeySchema.optional(),
  id: id.optional(),
  allowUnencrypted: z.boolean().optional(),
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
      ...messageRefFields,
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
  /** In English; `messageId` and `values` give it in the person's language. */
  reason: z.string().optional(),
  ...messageRefFields,
});

export const HEALTH_STATES = ['ok', 'warning', 'error'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/**
 * How the last request to a connection went: `ok` (it answered), `warning` (it answered and wants
 * something done: a used-up balance, a rate limit, a failing server) or `error` (it could not be
 * used), with the failure's kind and message. A connection with no request yet has none.
 */
export const connectionHealthSchema = z.object({
  connectionId: id,
  state: z.enum(HEALTH_STATES),
  kind: z.string().optional(),
  message: z.string().optional(),
  /** ISO date of the request's end. */
  at: z.string(),
});
export type ConnectionHealth = z.infer<typeof connectionHealthSchema>;

export const CONNECTIONS_ROUTES = {
  listConnections: route('connections:list', z.undefined(), z.array(connectionSummarySchema)),
  createConnection: route('connections:create', connectionDraftSchema, connectionSummarySchema),
  updateConnection: route(
    'connections:update',
    z.strictObject({ id, changes: connectionChangesSchema }),
    connectionSummarySchema,
  ),
  deleteConnection: route('connections:delete', z.strictObject({ id }), z.null()),
  selectConnection: route('connections:select', z.strictObject({ id }), connectionSummarySchema),
  testConnection: route('connections:test', connectionTestDraftSchema, connectionTestResultSchema),
  startDemoRelay: route('connections:start-demo', z.undefined(), connectionSummarySchema),
  getKeyStorageStatus: route('connections:key-storage', z.undefined(), keyStorageStatusSchema),
  /** How the last request to each connection went (connections with none are absent). */
  getConnectionHealth: route('connections:health', z.undefined(), z.array(connectionHealthSchema)),
} as const satisfies Record<string, RouteSpec>;

export const CONNECTIONS_EVENTS = {
  /** Connections changed (saved, deleted, switched) in main. */
  connectionsChanged: event('connections:changed', z.null()),
  /** A request to a connection ended differently from the one before (see `getConnectionHealth`). */
  connectionHealthChanged: event('connections:health-changed', connectionHealthSchema),
} as const satisfies Record<string, EventSpec>;
