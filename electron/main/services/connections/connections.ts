/**
 * Saved connections: which relays the person uses, which one is active, and the key of each.
 *
 * The list lives in `connections.json` in the user data folder; each key lives in the
 * `SecretStore` under its connection's id. The key itself never leaves this service except into
 * a relay client: summaries carry only whether a key is saved and its last four characters, and no
 * error message holds it.
 *
 * A saved key belongs to the origin (scheme, host and port) of its connection's address, and goes
 * nowhere else, whatever the page asks for:
 * - changing the address to another origin without giving a new key removes the saved key (the
 *   person pastes it again). A confirmation dialog was the other choice; it was not taken because
 *   a page script can ask again and again until a tired person agrees, while dropping the key
 *   leaves a script nothing to gain but the person's annoyance;
 * - "Test connection" with a draft address reads the saved key only when the draft's origin is the
 *   connection's;
 * - a relay client reads the key on each attempt only while the connection's address still has
 *   the client's origin, and never follows a redirect (`relay-client.ts`);
 * - plain http to a host outside this machine and the local network gets the key only when the
 *   person chose "send my key unencrypted", confirmed in a dialog main opens.
 *
 * Extra request headers (for gateways) are kept with the connection; the value of a header marked
 * secret is kept in the `SecretStore` like the key (under `<id>:headers`), never in the file and
 * never in a summary, and follows the key's rules: bound to the origin, removed when the address
 * moves, sent only by a relay client that never follows a redirect.
 *
 * The binding is kept with the secret itself, in the key store (`bindSecret`): each value holds
 * the origin it was given for, and is read only for a connection whose address has that origin.
 * So a `connections.json` changed outside the app (a backup edited, then restored; a file edited
 * by hand) moves no key: the connection reads as having none, and asks for it again. A value
 * saved before secrets were bound (0.1) is bound the first time it is read, to the origin its
 * connection has then (the app lists the connections, and so reads every key, as it starts).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { DemoRelay, DemoRelayOptions } from '../../../demo-relay/index';
import type { ErrorMessageKey, MessageValues } from '../../../shared/messages/keys';
import type { RelayErrorKind } from '../../../shared/relay-errors';
import { AppError, type FieldIssue } from '../app-error';
import { Listeners } from '../listeners';
import { issueSaid, said, type Said } from '../words';
import { readJsonFile, writeFileAtomic, type DataFileProblem } from '../data-files';
import {
  createRelayClient,
  isRelayError,
  RelayError,
  resolveBaseUrl,
  type FetchLike,
  type RelayClient,
  type RelayClientOptions,
} from '../relay/relay-client';
import { createRequestLimiter, type RequestLimiter } from '../relay/limiter';
import { sendsKeyInClear } from '../relay/base-url';
import { headerListProblems, type CustomHeader } from '../relay/custom-headers';
import type { KeyStorageStatus, SecretStore } from '../secret-store';

export type { DataFileProblem } from '../data-files';

export interface Connection {
  id: string;
  name: string;
  /** The address as the person gave it (trimmed); the relay client resolves `/v1` and mounts. */
  baseUrl: string;
  /** Where the person manages their account and tops up their balance. */
  consoleUrl?: string | undefined;
  /** The embedded demo relay: its address changes every time the app starts it. */
  isDemo?: boolean | undefined;
  /**
   * The person chose to send the key over plain http to a host outside the local network.
   * Belongs to the address: a change of origin clears it.
   */
  allowUnencrypted?: boolean | undefined;
  /** Extra request headers; a secret one's value is in the key store, not here. */
  headers?: StoredHeader[] | undefined;
}

/** An extra header as `connections.json` keeps it: the value only when it is not secret. */
export interface StoredHeader {
  name: string;
  secret: boolean;
  value?: string | undefined;
}

/** An extra header as a form gives it; a secret one without a value keeps the saved value. */
export interface HeaderDraft {
  name: string;
  value?: string | undefined;
  secret?: boolean | undefined;
}

/** An extra header in a summary: a secret one says only whether it has a value. */
export interface HeaderSummary {
  name: string;
  secret: boolean;
  value?: string;
  hasValue: boolean;
}

/** A connection as the rest of the app sees it: never the key, only whether there is one. */
export interface ConnectionSummary extends Omit<Connection, 'headers'> {
  hasKey: boolean;
  /** The key's last four characters, for keys long enough that this gives little away. */
  keyLast4?: string;
  /** Set when the key store could not be read, so `hasKey` is unknown (in English). */
  keyError?: string;
  /** `keyError` by its key in main's catalogue, and its values, for the page's language. */
  keyErrorId?: ErrorMessageKey;
  keyErrorValues?: MessageValues;
  /** The address is plain http to a host outside this machine and the local network. */
  unencrypted: boolean;
  allowUnencrypted: boolean;
  headers: HeaderSummary[];
}

export interface NewConnection {
  name: string;
  baseUrl: string;
  consoleUrl?: string | null | undefined;
  /** Optional: local services such as Ollama take no key. */
  apiKey?: string | null | undefined;
  /** Send the key even though the address is plain http outside the local network. */
  allowUnencrypted?: boolean | undefined;
  headers?: HeaderDraft[] | undefined;
}

export interface ConnectionChanges {
  name?: string | undefined;
  baseUrl?: string | undefined;
  /** A new console address; null or '' removes it. */
  consoleUrl?: string | null | undefined;
  /**
   * A replacement key; absent keeps the saved key (unless the address moves to another origin,
   * which removes it), null removes it.
   */
  apiKey?: string | null | undefined;
  allowUnencrypted?: boolean | undefined;
  /** Replaces the extra headers; absent keeps them. */
  headers?: HeaderDraft[] | undefined;
}

/** An address and key to try before saving; `id` lets an edit form test with the saved key. */
export interface ConnectionDraft {
  baseUrl: string;
  apiKey?: string | null | undefined;
  id?: string | undefined;
  allowUnencrypted?: boolean | undefined;
  headers?: HeaderDraft[] | undefined;
}

export type ConnectionTestResult =
  | { ok: true; requestUrl: string; modelCount: number }
  | {
      ok: false;
      requestUrl?: string;
      error: {
        kind: RelayErrorKind;
        message: string;
        /** The message's key in main's catalogue and its values (the page formats it). */
        messageId?: ErrorMessageKey;
        values?: MessageValues | undefined;
        status?: number;
        code?: string;
      };
    };

export interface ConnectionsServiceOptions {
  /** The user data folder; the list is kept in `connections.json` inside it. */
  dataDir: string;
  secrets: SecretStore;
  /** Electron's `net.fetch` in the app, Node's `fetch` in tests. */
  fetch?: FetchLike;
  /**
   * For the embedded demo relay, which runs in this process on loopback: a fetch that no proxy
   * setting can send elsewhere (Node's own, in the app). `fetch` if absent.
   */
  directFetch?: FetchLike;
  /** How long "Test connection" waits for the relay's headers. Default 15 s. */
  testTimeoutMs?: number;
  /** Starts the demo relay; injectable so tests can watch or slow it. */
  startDemoRelay?: (options: DemoRelayOptions) => Promise<DemoRelay>;
  now?: () => Date;
  newId?: () => string;
  /**
   * Asks the person, in a dialog main opens, to agree to send a key unencrypted to `origin`.
   * Absent (tests, no window), the answer is no.
   */
  confirmUnencrypted?: (origin: string) => Promise<boolean>;
  /** Requests at once to one relay (`relay/limiter.ts`); default `MAX_CONCURRENT_REQUESTS`. */
  maxConcurrentRequests?: number;
}

export const CONNECTIONS_FILE = 'connections.json';
export const DEMO_CONNECTION_NAME = 'Demo relay';

const storedConnectionSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
  consoleUrl: z.string().optional(),
  isDemo: z.boolean().optional(),
  allowUnencrypted: z.boolean().optional(),
  headers: z
    .array(z.object({ name: z.string(), secret: z.boolean(), value: z.string().optional() }))
    .optional(),
});

const connectionsFileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().optional(),
  connections: z.array(storedConnectionSchema),
});

type ConnectionsFile = z.infer<typeof connectionsFileSchema>;

const nameSchema = z
  .string({ error: 'Give the connection a name.' })
  .trim()
  .min(1, { error: 'Give the connection a name.', abort: true })
  .max(100, 'The name is too long: at most 100 characters.');

const baseUrlSchema = z
  .string({ error: 'Give the address of the relay, such as https://relay.example.com' })
  .trim()
  .superRefine((value, ctx) => {
    try {
      resolveBaseUrl(value);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: isRelayError(error) ? error.message : 'The address is not valid.',
      });
    }
  });

const consoleUrlSchema = z
  .string({ error: 'The console address must be text.' })
  .trim()
  .max(2000, 'The console address is too long.')
  .superRefine((value, ctx) => {
    if (value === '') return;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      // Reported below.
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      ctx.addIssue({
        code: 'custom',
        message: 'The console address must be a web address starting with https:// or http://.',
      });
    }
  });

// An HTTP header carries the key, so it must be printable ASCII without spaces. The messages never
// quote the value: it is a key.
const apiKeySchema = z
  .string({ error: 'The API key must be text.' })
  .trim()
  .min(1, {
    error: 'The API key is empty: paste the key, or leave the field out to keep no key.',
    abort: true,
  })
  .max(4096, 'The API key is too long: at most 4096 characters.')
  .regex(
    /^[\x21-\x7e]+$/,
    'The API key contains spaces or characters that cannot be sent: paste it again.',
  );

const allowUnencryptedSchema = z.boolean({ error: 'The unencrypted choice must be yes or no.' });

/** Extra headers: names and values as the relay client will check them, values trimmed. */
const headersSchema = z
  .array(
    z.object({
      name: z.string({ error: 'A header name must be text.' }).trim(),
      value: z.string({ error: 'A header value must be text.' }).trim().optional(),
      secret: z.boolean({ error: 'A header is secret or not.' }).optional(),
    }),
  )
  .max(32, 'At most 32 extra headers.')
  .superRefine((headers, ctx) => {
    const problems = headerListProblems(
      headers.map((h) => ({ name: h.name, ...(h.value === '' ? {} : { value: h.value }) })),
    );
    for (const { index, message } of problems) {
      ctx.addIssue({ code: 'custom', message, path: [index] });
    }
  });

/** The key store entry of a connection's secret header values (a JSON object by name). */
export function headerSecretsAccount(id: string): string {
  return `${id}:headers`;
}

const boundSecretSchema = z.object({ v: z.literal(1), origin: z.string(), secret: z.string() });

/** A secret as the key store keeps it: with the origin it was given for. */
export function bindSecret(origin: string, secret: string): string {
  return JSON.stringify({ v: 1, origin, secret });
}

/** The origin and the secret of a value from the key store; undefined for one saved unbound. */
export function readBoundSecret(stored: string): { origin: string; secret: string } | undefined {
  if (!stored.startsWith('{')) return undefined;
  try {
    const parsed = boundSecretSchema.safeParse(JSON.parse(stored));
    return parsed.success ? { origin: parsed.data.origin, secret: parsed.data.secret } : undefined;
  } catch {
    return undefined;
  }
}

const newConnectionSchema = z.object({
  name: nameSchema,
  baseUrl: baseUrlSchema,
  consoleUrl: consoleUrlSchema.nullish(),
  apiKey: apiKeySchema.nullish(),
  allowUnencrypted: allowUnencryptedSchema.optional(),
  headers: headersSchema.optional(),
});

const changesSchema = z.object({
  name: nameSchema.optional(),
  baseUrl: baseUrlSchema.optional(),
  consoleUrl: consoleUrlSchema.nullish(),
  apiKey: apiKeySchema.nullish(),
  allowUnencrypted: allowUnencryptedSchema.optional(),
  headers: headersSchema.optional(),
});

const draftSchema = z.object({
  baseUrl: z.string({ error: 'Give the address of the relay.' }),
  apiKey: apiKeySchema.nullish(),
  id: z.string().optional(),
  allowUnencrypted: allowUnencryptedSchema.optional(),
  headers: headersSchema.optional(),
});

/**
 * Why the fields of a new connection would be refused, field by field, as the form would be told
 * (for a `relay-desktop://connect` link, whose fields are checked as if typed).
 */
export function newConnectionProblems(input: {
  name: string;
  baseUrl: string;
  consoleUrl?: string;
}): FieldIssue[] {
  const parsed = newConnectionSchema.safeParse(input);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.') || 'input',
        message: issue.message,
      }));
}

type ParsedHeaders = z.infer<typeof headersSchema>;

/**
 * The headers to keep in the file, and the secret values to keep in the key store, from what a
 * form sent: a secret header without a value takes `saved[name]`, or is refused.
 */
function splitHeaders(
  drafts: ParsedHeaders,
  saved: Readonly<Record<string, string>>,
  withheld?: 'moved' | { origin: string },
): { stored: StoredHeader[]; secrets: Record<string, string> } {
  const stored: StoredHeader[] = [];
  const secrets: Record<string, string> = {};
  const issues: FieldIssue[] = [];
  const told: Said[] = [];
  drafts.forEach((draft, index) => {
    const value = draft.value === '' ? undefined : draft.value;
    if (draft.secret === true) {
      const kept = value ?? saved[draft.name];
      if (kept === undefined) {
        const message =
          withheld === undefined
            ? said('form.headerValue', { name: draft.name })
            : withheld === 'moved'
              ? said('form.headerValueMoved', { name: draft.name })
              : said('form.headerValueElsewhere', { name: draft.name, origin: withheld.origin });
        told.push(message);
        issues.push({ field: `headers.${index}`, message: message.english });
        return;
      }
      secrets[draft.name] = kept;
      stored.push({ name: draft.name, secret: true });
    } else {
      if (value === undefined) {
        const message = said('form.headerValue', { name: draft.name });
        told.push(message);
        issues.push({ field: `headers.${index}`, message: message.english });
        return;
      }
      stored.push({ name: draft.name, secret: false, value });
    }
  });
  if (issues.length > 0) {
    const [only] = told;
    throw new AppError(
      'invalid_request',
      told.length === 1 && only ? only : issues.map((i) => i.message).join(' '),
      { issues },
    );
  }
  return { stored, secrets };
}

/**
 * The origin (scheme, host, port) a key given for this address belongs to. An address that no
 * longer reads (a file edited by hand) is an origin of its own, matching nothing else.
 */
function originOf(baseUrl: string): string {
  try {
    return resolveBaseUrl(baseUrl).origin;
  } catch {
    return `invalid:${baseUrl}`;
  }
}

function keyInClear(baseUrl: string): boolean {
  try {
    return sendsKeyInClear(resolveBaseUrl(baseUrl));
  } catch {
    return false;
  }
}

/** The refusal of a key for an http address the person has not agreed to send it to. */
function unencryptedRefused(baseUrl: string): AppError {
  const message = said('connections.unencryptedRefused', { origin: originOf(baseUrl) });
  return new AppError('invalid_request', message, {
    issues: [{ field: 'allowUnencrypted', message: message.english }],
  });
}

function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'input',
    message: issue.code === 'unrecognized_keys' ? 'Unknown fields.' : issue.message,
  }));
  const [only] = parsed.error.issues;
  const message =
    parsed.error.issues.length === 1 && only !== undefined
      ? only.code === 'unrecognized_keys'
        ? said('form.unknownFields')
        : issueSaid(only)
      : issues.map((i) => i.message).join(' ');
  throw new AppError('invalid_request', message, { issues });
}

/** Last four characters only for keys of 12 or more, so a short key is not half shown. */
function keyLast4(key: string): string | undefined {
  return key.length >= 12 ? key.slice(-4) : undefined;
}

interface LoadedState {
  file: ConnectionsFile;
  problem?: DataFileProblem;
  /** A file that exists but could not be read is never replaced. */
  readOnly: boolean;
}

/**
 * The embedded demo relay (its server, accounts and models), loaded the first time the person
 * tries it rather than at every start of the app.
 */
async function startDemoRelay(options: DemoRelayOptions): Promise<DemoRelay> {
  return (await import('../../../demo-relay/index')).startDemoRelay(options);
}

export class ConnectionsService {
  readonly #path: string;
  readonly #secrets: SecretStore;
  readonly #fetch: FetchLike | undefined;
  readonly #directFetch: FetchLike | undefined;
  readonly #testTimeoutMs: number;
  readonly #startDemoRelay: (options: DemoRelayOptions) => Promise<DemoRelay>;
  readonly #now: () => Date;
  readonly #newId: () => string;
  readonly #confirmUnencrypted: (origin: string) => Promise<boolean>;
  #state: Promise<LoadedState> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #demo: { relay: DemoRelay; connectionId: string } | undefined;
  readonly #limiters = new Map<string, RequestLimiter>();
  readonly #maxConcurrentRequests: number | undefined;
  readonly #listeners = new Listeners();

  constructor(options: ConnectionsServiceOptions) {
    this.#maxConcurrentRequests = options.maxConcurrentRequests;
    this.#path = join(options.dataDir, CONNECTIONS_FILE);
    this.#secrets = options.secrets;
    this.#fetch = options.fetch;
    this.#directFetch = options.directFetch;
    this.#testTimeoutMs = options.testTimeoutMs ?? 15_000;
    this.#startDemoRelay = options.startDemoRelay ?? startDemoRelay;
    this.#now = options.now ?? (() => new Date());
    this.#newId = options.newId ?? randomUUID;
    this.#confirmUnencrypted = options.confirmUnencrypted ?? (async () => false);
  }

  /**
   * Calls `listener` after a connection was saved, removed, or had its name, address, console
   * address or headers changed (sync sends those); not for a key alone or the one in use.
   */
  onChange(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  /** How keys are kept (keychain, or memory for this session), to tell the person. */
  keyStorage(): KeyStorageStatus {
    return { ...this.#secrets.status };
  }

  /** A damaged or unreadable connections file found at start, to tell the person once. */
  async fileProblem(): Promise<DataFileProblem | undefined> {
    return (await this.#load()).problem;
  }

  async list(): Promise<ConnectionSummary[]> {
    await this.#queue;
    const { file } = await this.#load();
    const saved = await this.#savedSecrets();
    return Promise.all(file.connections.map((c) => this.#summary(c, saved)));
  }

  /**
   * The secrets saved, in one look-up where the store has one (`getAll`); undefined where it
   * has none or it fails, and each connection's are then read on their own (which says why one
   * cannot be read).
   */
  async #savedSecrets(): Promise<ReadonlyMap<string, string> | undefined> {
    try {
      return await this.#secrets.getAll?.();
    } catch {
      return undefined;
    }
  }

  async get(id: string): Promise<ConnectionSummary> {
    await this.#queue;
    return this.#summary(this.#find((await this.#load()).file, id));
  }

  /** The connection in use, if any. */
  async activeId(): Promise<string | undefined> {
    await this.#queue;
    return (await this.#load()).file.activeId;
  }

  /** Saves a new connection (and its key); the first one saved becomes the active one. */
  async create(input: NewConnection): Promise<ConnectionSummary> {
    const valid = parseInput(newConnectionSchema, input);
    const allowUnencrypted =
      valid.allowUnencrypted === true && (await this.#agreeUnencrypted(valid.baseUrl));
    const headers = splitHeaders(valid.headers ?? [], {});
    const hasSecretHeaders = Object.keys(headers.secrets).length > 0;
    if ((valid.apiKey || hasSecretHeaders) && keyInClear(valid.baseUrl) && !allowUnencrypted) {
      throw unencryptedRefused(valid.baseUrl);
    }
    return this.#mutate(async (file) => {
      const connection: Connection = {
        id: this.#newId(),
        name: valid.name,
        baseUrl: valid.baseUrl,
      };
      if (valid.consoleUrl) connection.consoleUrl = valid.consoleUrl;
      if (allowUnencrypted) connection.allowUnencrypted = true;
      if (headers.stored.length > 0) connection.headers = headers.stored;
      const origin = originOf(connection.baseUrl);
      if (valid.apiKey) await this.#setKey(connection.id, origin, valid.apiKey);
      const next: ConnectionsFile = {
        ...file,
        activeId: file.activeId ?? connection.id,
        connections: [...file.connections, connection],
      };
      try {
        if (hasSecretHeaders) await this.#setHeaderSecrets(connection.id, origin, headers.secrets);
        await this.#write(next);
      } catch (error) {
        // The key and the secret headers must not outlive a connection that was never saved.
        if (valid.apiKey) await this.#secrets.delete(connection.id).catch(() => undefined);
        await this.#secrets.delete(headerSecretsAccount(connection.id)).catch(() => undefined);
        throw error;
      }
      return connection;
    }).then((connection) => {
      this.#listeners.tell();
      return this.#summary(connection);
    });
  }

  /**
   * Changes name, address or console address; replaces the key only when one is given. A new
   * address on another origin without a new key removes the saved key: it was given for the old
   * origin only.
   */
  async update(id: string, changes: ConnectionChanges): Promise<ConnectionSummary> {
    const valid = parseInput(changesSchema, changes);
    return this.#mutate(async (file) => {
      const current = this.#find(file, id);
      const updated: Connection = { ...current };
      if (valid.name !== undefined) updated.name = valid.name;
      if (valid.baseUrl !== undefined) updated.baseUrl = valid.baseUrl;
      if (valid.consoleUrl === null || valid.consoleUrl === '') delete updated.consoleUrl;
      else if (valid.consoleUrl !== undefined) updated.consoleUrl = valid.consoleUrl;

      const moved = originOf(updated.baseUrl) !== originOf(current.baseUrl);
      // The choice to send the key unencrypted was made for one address: a move clears it.
      if (moved) delete updated.allowUnencrypted;
      if (valid.allowUnencrypted === false) delete updated.allowUnencrypted;
      else if (
        valid.allowUnencrypted === true &&
        (updated.allowUnencrypted === true || (await this.#agreeUnencrypted(updated.baseUrl)))
      ) {
        updated.allowUnencrypted = true;
      }
      // Secret header values belong to the origin, like the key: a move keeps only new ones.
      const previousSecrets = await this.#getHeaderSecrets(id, originOf(current.baseUrl));
      let newSecrets: Record<string, string> | undefined;
      if (valid.headers !== undefined) {
        const split = splitHeaders(
          valid.headers,
          moved ? {} : previousSecrets,
          moved ? 'moved' : undefined,
        );
        if (split.stored.length > 0) updated.headers = split.stored;
        else delete updated.headers;
        newSecrets = split.secrets;
      } else if (moved && Object.keys(previousSecrets).length > 0) {
        newSecrets = {};
      }
      const secretHeaders = (updated.headers ?? []).some((h) => h.secret);
      if (
        (valid.apiKey || (secretHeaders && newSecrets !== undefined)) &&
        keyInClear(updated.baseUrl) &&
        updated.allowUnencrypted !== true
      ) {
        throw unencryptedRefused(updated.baseUrl);
      }

      // null removes the key, a string replaces it, and a move without a new key removes it.
      const newKey = valid.apiKey === undefined && moved ? null : valid.apiKey;
      const origin = originOf(updated.baseUrl);
      // As stored (bound to its origin), to put back if saving fails.
      const previousKey = newKey === undefined ? undefined : await this.#getStored(id);
      const previousHeaders =
        newSecrets === undefined ? undefined : await this.#getStored(headerSecretsAccount(id));
      if (newKey === null) await this.#deleteKey(id);
      else if (newKey !== undefined) await this.#setKey(id, origin, newKey);
      try {
        if (newSecrets !== undefined) await this.#setHeaderSecrets(id, origin, newSecrets);
        await this.#write({
          ...file,
          connections: file.connections.map((c) => (c.id === id ? updated : c)),
        });
      } catch (error) {
        // Put the old key and headers back, so the saved connection and its secrets still agree.
        if (newKey !== undefined) {
          const restore =
            previousKey === undefined
              ? this.#secrets.delete(id)
              : this.#secrets.set(id, previousKey);
          await restore.catch(() => undefined);
        }
        if (newSecrets !== undefined) {
          const account = headerSecretsAccount(id);
          const restore =
            previousHeaders === undefined
              ? this.#secrets.delete(account)
              : this.#secrets.set(account, previousHeaders);
          await restore.catch(() => undefined);
        }
        throw error;
      }
      return updated;
    }).then((connection) => {
      if (
        valid.name !== undefined ||
        valid.baseUrl !== undefined ||
        valid.consoleUrl !== undefined ||
        valid.headers !== undefined
      )
        this.#listeners.tell();
      return this.#summary(connection);
    });
  }

  /** Forgets a connection and removes its key from the key store. */
  async delete(id: string): Promise<void> {
    await this.#mutate(async (file) => {
      const connection = this.#find(file, id);
      // The key goes first: a connection left without a key is harmless, a key left behind is not.
      await this.#deleteKey(id);
      await this.#deleteKey(headerSecretsAccount(id));
      const connections = file.connections.filter((c) => c.id !== id);
      const next: ConnectionsFile = { ...file, connections };
      if (file.activeId === id) {
        if (connections[0]) next.activeId = connections[0].id;
        else delete next.activeId;
      }
      await this.#write(next);
      if (connection.isDemo && this.#demo?.connectionId === id) await this.#closeDemo();
    });
    this.#listeners.tell();
  }

  /** Makes a saved connection the one the app uses. */
  async select(id: string): Promise<void> {
    await this.#mutate(async (file) => {
      this.#find(file, id);
      if (file.activeId !== id) await this.#write({ ...file, activeId: id });
    });
  }

  /**
   * The request limiter of a connection's relay, one per connection and address: every client
   * made for it shares it, and so must anything else that sends that relay many requests.
   */
  limiterFor(id: string, baseUrl: string): RequestLimiter {
    const key = `${id} ${originOf(baseUrl)}`;
    let limiter = this.#limiters.get(key);
    if (limiter === undefined) {
      // One per connection: the limiter of an address it had before goes (in-flight requests
      // keep the slots they hold; they release them into the old one).
      for (const other of this.#limiters.keys())
        if (other.startsWith(`${id} `)) this.#limiters.delete(other);
      limiter = createRequestLimiter(
        this.#maxConcurrentRequests === undefined
          ? {}
          : { maxConcurrent: this.#maxConcurrentRequests },
      );
      this.#limiters.set(key, limiter);
    }
    return limiter;
  }

  /**
   * A relay client for a saved connection; it reads the key from the store on every attempt.
   * A demo connection whose relay is not running (the app restarted) gets it started again.
   */
  async clientFor(
    id: string,
    options: Omit<RelayClientOptions, 'baseUrl' | 'apiKey' | 'fetch'> = {},
  ): Promise<RelayClient> {
    let connection = await this.#mutate(async (file) => this.#find(file, id));
    if (connection.isDemo) connection = await this.#mutate((file) => this.#ensureDemo(file, id));
    const origin = originOf(connection.baseUrl);
    /** The connection as saved now, refused when it no longer points at this client's origin. */
    const current = async (): Promise<Connection> => {
      await this.#queue;
      const now = (await this.#load()).file.connections.find((c) => c.id === id);
      if (now === undefined || originOf(now.baseUrl) !== origin) {
        throw new RelayError('bad_request', said('connections.addressChanged'), {
          code: 'address_changed',
        });
      }
      return now;
    };
    // The demo relay runs in this process on loopback: reached directly, whatever the proxy.
    const fetch = connection.isDemo ? (this.#directFetch ?? this.#fetch) : this.#fetch;
    return createRelayClient({
      limiter: this.limiterFor(id, connection.baseUrl),
      ...options,
      baseUrl: connection.baseUrl,
      allowKeyInClear: connection.allowUnencrypted === true,
      // No saved key sends no Authorization header: keyless local services work, and a relay
      // that wants a key answers 401 with its own message. The key is read only while the
      // connection still points at this client's origin: an address changed since (by the
      // person, or the demo relay restarting on another port) has a key of its own, or none.
      apiKey: async () => {
        await current();
        return (await this.#getKey(id, origin)) ?? '';
      },
      // The extra headers as saved now, their secret values under the same rule as the key.
      headers: async () => this.#headersToSend(await current()),
      ...(fetch ? { fetch } : {}),
    });
  }

  /** "Test connection": GET /v1/models for an address and key that need not be saved yet. */
  async test(draft: ConnectionDraft): Promise<ConnectionTestResult> {
    const valid = parseInput(draftSchema, draft);
    try {
      resolveBaseUrl(valid.baseUrl);
    } catch (error) {
      return { ok: false, error: testError(error) };
    }
    const draftOrigin = originOf(valid.baseUrl);
    // A typed key is the person's to send where they test; a saved key only to its own origin.
    let saved: Connection | undefined;
    let withheldFrom: string | undefined;
    if (!valid.apiKey && valid.id !== undefined) {
      await this.#queue;
      const connection = (await this.#load()).file.connections.find((c) => c.id === valid.id);
      if (connection !== undefined) {
        if (originOf(connection.baseUrl) === draftOrigin) saved = connection;
        else withheldFrom = originOf(connection.baseUrl);
      }
    }
    // The saved key (and secret headers) go over plain http only by the owner's saved choice,
    // or their yes now in main's dialog: the page asking is not enough. A key typed for the test
    // goes as the form says.
    const allowKeyInClear =
      saved !== undefined
        ? saved.allowUnencrypted === true ||
          (valid.allowUnencrypted === true && (await this.#agreeUnencrypted(valid.baseUrl)))
        : valid.allowUnencrypted === true;
    // Typed headers as given; a secret one left empty takes the saved value, on the same origin.
    let headers: CustomHeader[] | (() => Promise<CustomHeader[]>) | undefined;
    if (valid.headers !== undefined) {
      const drafts = valid.headers;
      headers = async () => {
        const savedSecrets = saved ? await this.#getHeaderSecrets(saved.id, draftOrigin) : {};
        let split: ReturnType<typeof splitHeaders>;
        try {
          split = splitHeaders(
            drafts,
            savedSecrets,
            withheldFrom === undefined ? undefined : { origin: withheldFrom },
          );
        } catch (error) {
          if (!(error instanceof AppError) || error.kind !== 'invalid_request') throw error;
          const reason: Said | string =
            error.messageId !== undefined
              ? { id: error.messageId, english: error.message, values: error.values ?? {} }
              : error.message;
          throw new RelayError('bad_request', said('relay.nothingSent', { reason }), {
            code: 'header_missing',
          });
        }
        const { stored, secrets } = split;
        return stored.map((h) => ({
          name: h.name,
          value: h.secret ? (secrets[h.name] ?? '') : (h.value ?? ''),
          secret: h.secret,
        }));
      };
    } else if (saved !== undefined) {
      const connection = saved;
      headers = () => this.#headersToSend(connection);
    }
    let client: RelayClient;
    try {
      client = createRelayClient({
        baseUrl: valid.baseUrl,
        apiKey:
          valid.apiKey ??
          (async () => (saved ? await this.#getKey(saved.id, draftOrigin) : undefined) ?? ''),
        allowKeyInClear,
        ...(headers === undefined ? {} : { headers }),
        maxRetries: 0,
        timeoutMs: this.#testTimeoutMs,
        ...(this.#fetch ? { fetch: this.#fetch } : {}),
      });
    } catch (error) {
      return { ok: false, error: testError(error) };
    }
    const requestUrl = client.endpointUrl('models');
    try {
      const models = await client.listModels();
      return { ok: true, requestUrl, modelCount: models.length };
    } catch (error) {
      const failure = testError(error);
      if (withheldFrom !== undefined && failure.kind === 'unauthorized') {
        const reason: Said | string =
          failure.messageId !== undefined
            ? { id: failure.messageId, english: failure.message, values: failure.values ?? {} }
            : failure.message;
        const withheld = said('connections.keyWithheld', {
          from: withheldFrom,
          to: draftOrigin,
          reason,
        });
        failure.message = withheld.english;
        failure.messageId = withheld.id;
        failure.values = withheld.values;
      }
      return { ok: false, requestUrl, error: failure };
    }
  }

  /** The person's own agreement, in a dialog from main, to send a key unencrypted. */
  async #agreeUnencrypted(baseUrl: string): Promise<boolean> {
    if (!keyInClear(baseUrl)) return true;
    try {
      return await this.#confirmUnencrypted(originOf(baseUrl));
    } catch {
      return false;
    }
  }

  /**
   * "Try the demo relay": starts the embedded relay on a free loopback port with a fresh key,
   * saves (or refreshes) the one demo connection with that address and key, and makes it active.
   */
  startDemo(): Promise<ConnectionSummary> {
    return this.#mutate(async (file) => {
      const existing = file.connections.find((c) => c.isDemo);
      const connection = await this.#ensureDemo(file, existing?.id);
      const latest = (await this.#load()).file;
      if (latest.activeId !== connection.id)
        await this.#write({ ...latest, activeId: connection.id });
      return connection;
    }).then((connection) => this.#summary(connection));
  }

  /**
   * The demo connection, its relay started (or the connection created), leaving the active
   * connection as it is: for the demo knowledge base.
   */
  ensureDemo(): Promise<ConnectionSummary> {
    return this.#mutate(async (file) => {
      const existing = file.connections.find((c) => c.isDemo);
      return this.#ensureDemo(file, existing?.id);
    }).then((connection) => this.#summary(connection));
  }

  /** Stops the embedded demo relay; its connection stays saved and restarts it on next use. */
  async stopDemo(): Promise<void> {
    await this.#mutate(() => this.#closeDemo());
  }

  /** Stops what the service started (the demo relay). */
  close(): Promise<void> {
    return this.stopDemo();
  }

  /** Starts the demo relay if it is not running for `id` (or creates the demo connection). */
  async #ensureDemo(file: ConnectionsFile, id: string | undefined): Promise<Connection> {
    const existing = id === undefined ? undefined : this.#find(file, id);
    if (existing && this.#demo?.connectionId === existing.id) return existing;
    await this.#closeDemo();
    const relay = await this.#startDemoRelay({ host: '127.0.0.1', port: 0 });
    try {
      const key = relay.keys[0];
      if (key === undefined) throw new Error('The demo relay started without a key.');
      const connection: Connection = existing
        ? { ...existing, baseUrl: relay.url }
        : { id: this.#newId(), name: DEMO_CONNECTION_NAME, baseUrl: relay.url, isDemo: true };
      await this.#setKey(connection.id, originOf(relay.url), key);
      const connections = existing
        ? file.connections.map((c) => (c.id === connection.id ? connection : c))
        : [...file.connections, connection];
      await this.#write({ ...file, activeId: file.activeId ?? connection.id, connections });
      this.#demo = { relay, connectionId: connection.id };
      return connection;
    } catch (error) {
      await relay.close();
      throw error;
    }
  }

  async #closeDemo(): Promise<void> {
    const demo = this.#demo;
    this.#demo = undefined;
    await demo?.relay.close();
  }

  /** What the page is told of a connection; `saved` holds secrets already read (`getAll`). */
  async #summary(
    connection: Connection,
    saved?: ReadonlyMap<string, string>,
  ): Promise<ConnectionSummary> {
    const { headers: stored = [], ...fields } = connection;
    const summary: ConnectionSummary = {
      ...fields,
      hasKey: false,
      unencrypted: keyInClear(connection.baseUrl),
      allowUnencrypted: connection.allowUnencrypted === true,
      headers: stored.map((h) =>
        h.secret
          ? { name: h.name, secret: true, hasValue: false }
          : { name: h.name, secret: false, value: h.value ?? '', hasValue: true },
      ),
    };
    const origin = originOf(connection.baseUrl);
    if (stored.some((h) => h.secret)) {
      try {
        const secrets = await this.#getHeaderSecrets(connection.id, origin, saved);
        for (const header of summary.headers) {
          if (header.secret) header.hasValue = secrets[header.name] !== undefined;
        }
      } catch (error) {
        Object.assign(summary, keyErrorOf(keyStoreMessage(error, 'read')));
      }
    }
    try {
      const key = await this.#getKey(connection.id, origin, saved, { storeErrors: 'as thrown' });
      if (key !== undefined) {
        summary.hasKey = true;
        const last4 = keyLast4(key);
        if (last4 !== undefined) summary.keyLast4 = last4;
      }
    } catch (error) {
      Object.assign(summary, keyErrorOf(keyStoreMessage(error, 'read')));
    }
    return summary;
  }

  /** The secret header values saved for a connection, by name (none: an empty object). */
  async #getHeaderSecrets(
    id: string,
    origin: string,
    saved?: ReadonlyMap<string, string>,
  ): Promise<Record<string, string>> {
    const raw = await this.#getKey(headerSecretsAccount(id), origin, saved);
    if (raw === undefined) return {};
    try {
      const parsed = z.record(z.string(), z.string()).safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  /** Saves the secret header values of a connection, for `origin`; none removes the entry. */
  async #setHeaderSecrets(
    id: string,
    origin: string,
    secrets: Readonly<Record<string, string>>,
  ): Promise<void> {
    if (Object.keys(secrets).length === 0) await this.#deleteKey(headerSecretsAccount(id));
    else await this.#setKey(headerSecretsAccount(id), origin, JSON.stringify(secrets));
  }

  /** What a request sends: every extra header with its value, secret ones from the key store. */
  async #headersToSend(connection: Connection): Promise<CustomHeader[]> {
    const stored = connection.headers ?? [];
    if (stored.length === 0) return [];
    const secrets = stored.some((h) => h.secret)
      ? await this.#getHeaderSecrets(connection.id, originOf(connection.baseUrl))
      : {};
    return stored.map((header) => {
      if (!header.secret) return { name: header.name, value: header.value ?? '', secret: false };
      const value = secrets[header.name];
      if (value === undefined) {
        throw new RelayError(
          'bad_request',
          said('connections.secretHeaderMissing', { name: header.name }),
          { code: 'header_missing' },
        );
      }
      return { name: header.name, value, secret: true };
    });
  }

  #find(file: ConnectionsFile, id: string): Connection {
    const found = file.connections.find((c) => c.id === id);
    if (!found) {
      throw new AppError('not_found', said('connections.gone'));
    }
    return found;
  }

  #load(): Promise<LoadedState> {
    this.#state ??= (async () => {
      const read = await readJsonFile(
        this.#path,
        connectionsFileSchema,
        'saved connections',
        this.#now,
      );
      const empty: ConnectionsFile = { version: 1, connections: [] };
      switch (read.status) {
        case 'ok':
          return { file: read.value, readOnly: false };
        case 'missing':
          return { file: empty, readOnly: false };
        case 'corrupt':
          return { file: empty, problem: read.problem, readOnly: false };
        case 'unreadable':
          return { file: empty, problem: read.problem, readOnly: true };
      }
    })();
    // A failed load (the backup could not be written) is tried again next time.
    this.#state.catch(() => {
      this.#state = undefined;
    });
    return this.#state;
  }

  async #write(file: ConnectionsFile): Promise<void> {
    const state = await this.#load();
    if (state.readOnly) {
      throw new AppError('internal', state.problem?.message ?? said('connections.unreadable'));
    }
    try {
      await writeFileAtomic(this.#path, `${JSON.stringify(file, null, 2)}\n`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new AppError('internal', said('connections.notSaved', { path: this.#path, code }));
    }
    state.file = file;
  }

  /** Runs changes one at a time, each on the latest saved list. */
  #mutate<T>(change: (file: ConnectionsFile) => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => change((await this.#load()).file));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** A value as the key store keeps it (bound to its origin), or undefined. */
  async #getStored(account: string): Promise<string | undefined> {
    try {
      return await this.#secrets.get(account);
    } catch (error) {
      throw new AppError('internal', keyStoreMessage(error, 'read'));
    }
  }

  /**
   * The secret saved for `account` when it was given for `origin`; undefined when there is none
   * or it was given for another origin (the address changed outside the app: a restored backup,
   * an edited file). A value saved before secrets were bound is bound now, to `origin`.
   * `saved` holds values already read (`getAll`).
   */
  async #getKey(
    account: string,
    origin: string,
    saved?: ReadonlyMap<string, string>,
    { storeErrors = 'said' }: { storeErrors?: 'said' | 'as thrown' } = {},
  ): Promise<string | undefined> {
    const stored =
      saved?.get(account) ??
      (storeErrors === 'said' ? await this.#getStored(account) : await this.#secrets.get(account));
    if (stored === undefined) return undefined;
    const bound = readBoundSecret(stored);
    if (bound !== undefined) return bound.origin === origin ? bound.secret : undefined;
    // Saved by a version that did not bind secrets: it belongs to the address it is read for now.
    await this.#secrets.set(account, bindSecret(origin, stored)).catch(() => undefined);
    return stored;
  }

  async #setKey(account: string, origin: string, secret: string): Promise<void> {
    try {
      await this.#secrets.set(account, bindSecret(origin, secret));
    } catch (error) {
      throw new AppError('internal', keyStoreMessage(error, 'save'));
    }
  }

  async #deleteKey(id: string): Promise<void> {
    try {
      await this.#secrets.delete(id);
    } catch (error) {
      throw new AppError('internal', keyStoreMessage(error, 'remove'));
    }
  }
}

/** A summary's `keyError`, in English with its key and values. */
function keyErrorOf(
  sentence: Said,
): Pick<ConnectionSummary, 'keyError' | 'keyErrorId' | 'keyErrorValues'> {
  return {
    keyError: sentence.english,
    keyErrorId: sentence.id,
    ...(sentence.values ? { keyErrorValues: sentence.values } : {}),
  };
}

function keyStoreMessage(error: unknown, action: 'read' | 'save' | 'remove'): Said {
  return error instanceof Error && error.message
    ? said('connections.keyStore.because', { action, detail: error.message })
    : said('connections.keyStore', { action });
}

function testError(error: unknown): Extract<ConnectionTestResult, { ok: false }>['error'] {
  if (isRelayError(error)) {
    const result: Extract<ConnectionTestResult, { ok: false }>['error'] = {
      kind: error.kind,
      message: error.message,
    };
    if (error.messageId !== undefined) result.messageId = error.messageId;
    if (error.values !== undefined) result.values = error.values;
    if (error.status !== undefined) result.status = error.status;
    if (error.code !== undefined) result.code = error.code;
    return result;
  }
  if (error instanceof AppError) {
    return {
      kind: 'unauthorized',
      message: error.message,
      ...(error.messageId !== undefined ? { messageId: error.messageId } : {}),
      ...(error.values !== undefined ? { values: error.values } : {}),
    };
  }
  const failed = said('connections.testNotRun');
  return { kind: 'network', message: failed.english, messageId: failed.id };
}
