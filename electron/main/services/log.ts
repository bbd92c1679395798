/**
 * The support log: `logs/main.log` in the user data folder, written by electron-log.
 *
 * The app passes `electron-log/main`, tests pass a logger of `electron-log/node` (the same core
 * and file transport without Electron). Either way `createAppLog` configures the file (place,
 * size cap, rotation, line format) and installs the policy of `log-policy.ts` as a hook, so every
 * line, whoever logs it, has its keys removed. Services log through `AppLog`, whose content
 * argument is dropped unless the person turned on "Include prompts in logs".
 */
import { join } from 'node:path';
import type { NodeLogger } from 'electron-log';
import type { Db } from './database';
import {
  contentFields,
  describeError,
  formatEvent,
  LOG_FILE,
  LOG_FILES,
  LOG_MAX_BYTES,
  logText,
  makeLogRedactor,
  rotateLogFiles,
  withholdContent,
  type LogContent,
  type LogFields,
} from './log-policy';
import type { ChatMessage } from '../../shared/relay-requests';
import type { RelayClient } from './relay/relay-client';
import type { RelayEndpoint } from './relay/base-url';
import type { SecretStore } from './secret-store';
import { inMainLanguage } from './words';

export type { LogContent, LogFields } from './log-policy';

export interface AppLog {
  /** The folder of the log files; undefined when nothing is written to disk. */
  readonly folder: string | undefined;
  /** "Include prompts in logs": whether the content argument of a log call is written. */
  readonly includePrompts: boolean;
  setIncludePrompts(include: boolean): void;
  /** A key that must never be written, wherever it turns up (a connection's key). */
  addKey(key: string): void;
  info(event: string, fields?: LogFields, content?: LogContent): void;
  warn(event: string, fields?: LogFields, content?: LogContent): void;
  /** Something went wrong in the app itself: the error with its stack, keys removed. */
  error(event: string, error: unknown, fields?: LogFields): void;
}

export interface AppLogOptions {
  folder: string;
  /** A file is rotated past this size. Default 1 MB. */
  maxBytes?: number;
  /** Files kept, the current one included. Default 3. */
  files?: number;
  /** Also print to the console (development). Default false. */
  console?: boolean;
}

/** Points an electron-log logger at `<folder>/main.log` and puts the log policy in front of it. */
export function createAppLog(logger: NodeLogger, options: AppLogOptions): AppLog {
  const maxBytes = options.maxBytes ?? LOG_MAX_BYTES;
  const files = options.files ?? LOG_FILES;
  const keys = new Set<string>();
  const redact = makeLogRedactor(() => keys);
  let includePrompts = false;

  const file = logger.transports.file;
  file.resolvePathFn = () => join(options.folder, LOG_FILE);
  file.maxSize = maxBytes;
  file.level = 'info';
  file.format = ({ data, level, message }) => [
    `[${message.date.toISOString()}] [${level}] ${data.join(' ')}`,
  ];
  // Only this user reads it: with "Include prompts in logs" on, it holds what they wrote.
  file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' };
  file.archiveLogFn = (current) => {
    try {
      rotateLogFiles(current.path, files);
    } catch {
      // A file that cannot be renamed (held open on Windows) is emptied rather than let grow.
      current.clear();
    }
  };
  for (const [name, transport] of Object.entries(logger.transports)) {
    if (name !== 'file' && name !== 'console' && transport) transport.level = false;
  }
  logger.transports.console.level = options.console ? 'info' : false;
  // The one gate every line passes, including errors logged by electron-log itself.
  logger.hooks.push((message) => ({ ...message, data: [logText(message.data, redact)] }));

  const write =
    (level: 'info' | 'warn') => (event: string, fields?: LogFields, content?: LogContent) =>
      logger[level](formatEvent(event, { ...fields, ...contentFields(content, includePrompts) }));

  return {
    folder: options.folder,
    get includePrompts() {
      return includePrompts;
    },
    setIncludePrompts(include) {
      includePrompts = include;
    },
    addKey(key) {
      if (key.trim() !== '') keys.add(key.trim());
    },
    info: write('info'),
    warn: write('warn'),
    error(event, error, fields) {
      logger.error(`${formatEvent(event, fields)}: ${describeError(error)}`);
    },
  };
}

/** A log that writes nothing: for callers that do not pass one (some tests). */
export function createNullLog(): AppLog {
  let includePrompts = false;
  return {
    folder: undefined,
    get includePrompts() {
      return includePrompts;
    },
    setIncludePrompts(include) {
      includePrompts = include;
    },
    addKey: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  };
}

/** The same store, with every key it reads or saves added to the ones the log never writes. */
export function watchSecrets(store: SecretStore, log: AppLog): SecretStore {
  const watch = (secret: string) => {
    for (const value of secretValues(secret)) log.addKey(value);
  };
  return {
    get status() {
      return store.status;
    },
    async get(account) {
      const secret = await store.get(account);
      if (secret !== undefined) watch(secret);
      return secret;
    },
    async set(account, secret) {
      watch(secret);
      await store.set(account, secret);
    },
    delete: (account) => store.delete(account),
    ...(store.getAll
      ? {
          getAll: async () => {
            const secrets = await store.getAll!();
            for (const secret of secrets.values()) watch(secret);
            return secrets;
          },
        }
      : {}),
  };
}

/**
 * The values a stored secret holds: itself, and each string of a JSON object of them (the secret
 * header values of a connection are kept as one such object).
 */
function secretValues(secret: string): string[] {
  if (!secret.startsWith('{')) return [secret];
  try {
    const parsed: unknown = JSON.parse(secret);
    if (parsed !== null && typeof parsed === 'object') {
      return [secret, ...Object.values(parsed).filter((v): v is string => typeof v === 'string')];
    }
  } catch {
    // Not JSON: a key that starts with a brace.
  }
  return [secret];
}

export interface RequestMeta {
  requestId: string;
  connectionId: string;
  /** Told how each request ended (the connection's status dot); a stopped one is `aborted`. */
  onOutcome?: (outcome: { ok: true } | { ok: false; kind: string; message: string }) => void;
}

/** What a failed request says in the log: its kind and status, never reply text. */
function failureFields(error: unknown, content: LogContent | undefined): LogFields {
  if (!(error instanceof Error)) return { outcome: 'error', message: String(error) };
  const { kind, status, code, param, partialText } = error as Error & Record<string, unknown>;
  return {
    outcome: typeof kind === 'string' ? kind : 'error',
    status: typeof status === 'number' ? status : undefined,
    code: typeof code === 'string' ? code : undefined,
    param: typeof param === 'string' ? param : undefined,
    // The relay may quote the prompt back: it is cut out unless the person allows prompts.
    message: withholdContent(error.message, content),
    partialChars: typeof partialText === 'string' ? partialText.length : undefined,
  };
}

/** One request to log: its fields, and the person's text (written only when they allow it). */
interface Tracked<T> {
  route: RelayEndpoint;
  fields: LogFields;
  /** Logged as content: the prompt, the inputs. */
  content: LogContent;
  /** Cut out of error messages when prompts are not allowed: every text sent, history too. */
  sent: readonly string[];
  call: () => Promise<T>;
  done: (result: T) => { fields: LogFields; content?: LogContent };
}

/**
 * The client with each request's outcome logged: route, model, outcome or error kind, status,
 * duration and request id; the prompt and reply only as content (see `AppLog`). `onOutcome` hears
 * each outcome too.
 */
export function logRequests(client: RelayClient, log: AppLog, meta: RequestMeta): RelayClient {
  async function track<T>({ route, fields, content, sent, call, done }: Tracked<T>): Promise<T> {
    const started = performance.now();
    const base = { route, ...fields, requestId: meta.requestId, connection: meta.connectionId };
    try {
      const result = await call();
      meta.onOutcome?.({ ok: true });
      const outcome = done(result);
      log.info(
        'relay.request',
        { ...base, outcome: 'ok', ...outcome.fields, durationMs: elapsed(started) },
        { ...content, ...outcome.content },
      );
      return result;
    } catch (error) {
      const failure = failureFields(error, log.includePrompts ? undefined : { sent });
      meta.onOutcome?.({
        ok: false,
        kind: String(failure.outcome),
        // Shown as the connection's state until its next request: in the person's language.
        message:
          error instanceof Error
            ? inMainLanguage(error as Parameters<typeof inMainLanguage>[0])
            : String(error),
      });
      log[failure.outcome === 'aborted' ? 'info' : 'warn'](
        'relay.request',
        { ...base, ...failure, durationMs: elapsed(started) },
        content,
      );
      throw error;
    }
  }

  return {
    baseUrl: client.baseUrl,
    endpointUrl: (endpoint) => client.endpointUrl(endpoint),
    listModels: (options) =>
      track({
        route: 'models',
        fields: {},
        content: {},
        sent: [],
        call: () => client.listModels(options),
        done: (models) => ({ fields: { models: models.length } }),
      }),
    chat: (request, options) =>
      track({
        route: 'chat/completions',
        fields: {
          model: request.model,
          messages: request.messages.length,
          tools: request.tools?.length,
        },
        content: { prompt: textOfContent(request.messages.at(-1)?.content) },
        sent: request.messages.map((message) => textOfContent(message.content) ?? ''),
        call: () => client.chat(request, options),
        done: (result) => ({
          fields: {
            finish: result.finishReason ?? 'none',
            interrupted: result.interrupted,
            replyChars: result.content.length,
            promptTokens: result.usage?.promptTokens,
            completionTokens: result.usage?.completionTokens,
            toolCalls: result.toolCalls?.length,
          },
          content: { reply: result.content },
        }),
      }),
    embed: (request, options) => {
      const inputs = typeof request.input === 'string' ? [request.input] : request.input;
      return track({
        route: 'embeddings',
        fields: { model: request.model, inputs: inputs.length },
        content: { input: inputs },
        sent: inputs,
        call: () => client.embed(request, options),
        done: (result) => ({
          fields: { vectors: result.vectors.length, dimensions: result.vectors[0]?.length },
        }),
      });
    },
    generateImages: (request, options) =>
      track({
        route: 'images/generations',
        fields: { model: request.model, size: request.size },
        content: { prompt: request.prompt },
        sent: [request.prompt],
        call: () => client.generateImages(request, options),
        done: (result) => ({ fields: { images: result.images.length } }),
      }),
  };
}

/** A message's text for the log: an image part is written as `[image]`, never its bytes. */
function textOfContent(content: ChatMessage['content'] | null | undefined): string | undefined {
  if (content === undefined || content === null) return undefined;
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n\n');
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** What "Test connection" answered, as the connections service returns it. */
interface ConnectionTestOutcome {
  ok: boolean;
  requestUrl?: string;
  modelCount?: number;
  error?: { kind: string; message: string; status?: number; code?: string };
}

/** Runs a connection test and logs its outcome; a key typed for the test is never written. */
export async function logConnectionTest<T extends ConnectionTestOutcome>(
  log: AppLog,
  draft: { baseUrl: string; apiKey?: string | undefined },
  test: () => Promise<T>,
): Promise<T> {
  if (draft.apiKey !== undefined) log.addKey(draft.apiKey);
  const started = performance.now();
  const result = await test();
  const fields = {
    url: result.requestUrl ?? draft.baseUrl,
    outcome: result.ok ? 'ok' : (result.error?.kind ?? 'error'),
    models: result.modelCount,
    status: result.error?.status,
    code: result.error?.code,
    message: result.error?.message,
    durationMs: elapsed(started),
  };
  if (result.ok) log.info('connection.test', fields);
  else log.warn('connection.test', fields);
  return result;
}

/** Logs the database migrations applied since `since` (this start), from the migrations table. */
export function logMigrations(log: AppLog, db: Db, since: Date): void {
  const rows = db.all<{ domain: string; version: number; name: string }>(
    'SELECT domain, version, name FROM schema_migrations WHERE applied_at >= ? ORDER BY applied_at, domain, version',
    [since.toISOString()],
  );
  for (const row of rows) log.info('database.migrated', row);
}

/** Something that emits the process's error events: `process` in the app, an emitter in tests. */
export interface ProcessEvents {
  on(event: 'uncaughtExceptionMonitor', listener: (error: Error, origin: string) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * Logs uncaught exceptions (without changing what happens next: a monitor only watches) and
 * unhandled promise rejections in the main process. Returns a function that stops it.
 */
export function logProcessErrors(log: AppLog, target: ProcessEvents = process): () => void {
  const onException = (error: Error, origin: string) =>
    log.error('main.uncaught-exception', error, { origin });
  const onRejection = (reason: unknown) => log.error('main.unhandled-rejection', reason);
  target.on('uncaughtExceptionMonitor', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtExceptionMonitor', onException);
    target.off('unhandledRejection', onRejection);
  };
}
