/**
 * The Model Relay client: every call the app makes to a relay goes through here.
 *
 * Its surface is public and stable (IPC handlers, our tests and tests outside this repository
 * drive it). It runs on an injected `fetch` (Electron's `net.fetch` in the app, Node's in tests)
 * and is liberal in what it accepts, as wire-conventions.md asks: every variant a real relay sends
 * either works or ends in a `RelayError` whose `kind` says what a person can do about it.
 */
import { lookup } from 'node:dns/promises';
import type { ZodType } from 'zod';
import {
  chatRequestSchema,
  embeddingRequestSchema,
  imageRequestSchema,
  issuePathToParam,
  type ChatRequest,
  type EmbeddingRequest,
  type ImageRequest,
} from '../../../shared/relay-requests';
import {
  displayAddress,
  endpointUrl,
  resolveBaseUrl,
  sendsKeyInClear,
  type RelayEndpoint,
} from './base-url';
import { readChatResponse, type ChatResult } from './chat-response';
import { headerListProblems, type CustomHeader } from './custom-headers';
import { readEmbeddings, type EmbeddingResult } from './embeddings';
import {
  errorFromHttp,
  errorFromNetwork,
  errorFromPayload,
  looksLikeHtml,
  makeRedactor,
  readErrorPayload,
  type Redact,
} from './http-errors';
import { createImageFetch } from './image-fetch';
import {
  checkImageUrl,
  type ResolveHost,
  readImageSources,
  sniffImageType,
  type GeneratedImage,
  type ImageResult,
} from './images';
import { readModelList, type ModelKind, type RelayModel } from './models';
import type { ToolCallUpdate } from './tool-calls';
import type { RequestLimiter, RequestPriority } from './limiter';
import { said } from '../words';
import { RelayError } from './relay-error';
import { hostOf, ResponseReader, seconds } from './response-reader';
import { abortedError, backoffDelay, isRetryable, retryAfterFromHeaders, sleep } from './retry';

export { RelayError, isRelayError } from './relay-error';
export { resolveBaseUrl } from './base-url';
export { classifyModel } from './models';
export type { RelayErrorDetails } from './relay-error';
export type { ChatResult, Usage } from './chat-response';
export { REPLY_TOO_LONG } from './chat-response';
export type { EmbeddingResult } from './embeddings';
export type { GeneratedImage, ImageResult } from './images';
export type { ModelKind, ModelKindSource, RelayModel } from './models';
export type { RelayEndpoint } from './base-url';
export type { CustomHeader } from './custom-headers';
export type { FailedToolCall, ToolCall, ToolCallOutcome, ToolCallUpdate } from './tool-calls';
export type {
  RelayMessage,
  ToolChoice,
  ToolDefinition,
  ToolMessage,
} from '../../../shared/relay-requests';

/** The part of `fetch` the client uses; Node's `fetch` and Electron's `net.fetch` both fit. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface RetryInfo {
  /** 1 for the first retry, 2 for the second… */
  attempt: number;
  /** How long the client waits before that retry. */
  delayMs: number;
  /** What went wrong on the attempt before. */
  error: RelayError;
}

export interface RelayClientOptions {
  /** The relay's address, as people paste it (`https://h`, `https://h/v1/`, `https://h/mount`). */
  baseUrl: string;
  /** The key, or a function that fetches it (from the keychain) for each attempt. */
  apiKey: string | (() => string | Promise<string>);
  /**
   * Send the key over plain http to a host outside this machine and the local network. Off by
   * default: such a request is refused before anything is sent, since the key would cross the
   * network readable by anyone on the way. Only the person's explicit choice turns it on.
   */
  allowKeyInClear?: boolean;
  /**
   * Extra headers for every API request to the relay (never for image links elsewhere), or a
   * function that reads them for each attempt. Names are checked again here (no Authorization,
   * Host or hop-by-hop header); secret values are kept out of every message, like the key, and
   * follow the key's rules: not over plain http outside the local network without
   * `allowKeyInClear`, never after a redirect.
   */
  headers?:
    readonly CustomHeader[] | (() => readonly CustomHeader[] | Promise<readonly CustomHeader[]>);
  fetch?: FetchLike;
  /** Retries after the first attempt, for 408, 429 and 5xx before any body arrived. Default 2 (3 attempts). */
  maxRetries?: number;
  /** How long to wait for the response headers. Default 120 s. */
  timeoutMs?: number;
  /** How long a body (a stream above all) may stay silent before it is given up. Default 60 s. */
  idleTimeoutMs?: number;
  /** A relay that asks to wait longer than this is not retried automatically. Default 60 s. */
  maxRetryDelayMs?: number;
  /** Reports each wait before a retry, so the app can show a countdown. */
  onRetry?: (info: RetryInfo) => void;
  /**
   * A chat reply is cut at this many characters: the request is aborted and the call ends in a
   * `bad_response` error with code `reply_too_long` whose `partialText` is the reply so far.
   * Default ten million (`MAX_REPLY_CHARS`).
   */
  maxReplyChars?: number;
  /** Images downloaded from `url` results are refused past this size. Default 50 MB. */
  maxImageBytes?: number;
  /**
   * The connection's request limiter (`relay/limiter.ts`), shared by every client of the same
   * connection: at most so many requests at once, and a 429's wait honoured by all of them.
   * Without it the client sends every request at once.
   */
  limiter?: RequestLimiter;
  /** The jitter source; injectable so that tests can pin delays. */
  random?: () => number;
  /**
   * Resolves the host of an image link that is not the relay's, as the download connects, to
   * refuse any address that is not public (see `relay/image-fetch.ts`). Default `dns.lookup`.
   */
  resolveHost?: ResolveHost;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** For the connection's limiter: background work waits behind the person's requests. */
  priority?: RequestPriority;
}

export interface ChatOptions extends CallOptions {
  /** Each piece of reply text, as it arrives. */
  onDelta?: (text: string) => void;
  /**
   * The reply's tool calls as they stream (`tool-calls.ts`): each `started` with its id and name,
   * its `arguments` text piece by piece, then `ready` (it may run) or `failed` (why not) once the
   * reply is over. The result's `toolCalls` holds the same outcomes.
   */
  onToolCall?: (update: ToolCallUpdate) => void;
}

export interface ListModelsOptions extends CallOptions {
  /** The person's own kind for some models; it always wins over what the list suggests. */
  overrides?: Readonly<Record<string, ModelKind>>;
}

export interface RelayClient {
  /** `<origin><mount>`, the address every endpoint hangs under. */
  readonly baseUrl: string;
  /** The full URL of one endpoint, for showing the person what is requested. */
  endpointUrl(endpoint: RelayEndpoint): string;
  listModels(options?: ListModelsOptions): Promise<RelayModel[]>;
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult>;
  embed(request: EmbeddingRequest, options?: CallOptions): Promise<EmbeddingResult>;
  generateImages(request: ImageRequest, options?: CallOptions): Promise<ImageResult>;
}

const MAX_ERROR_BODY_BYTES = 256 * 1024;

/**
 * Relays (by origin) that refused `stream_options`: a streamed reply asks for its usage with
 * `stream_options: { include_usage: true }`, which most relays honour; one that answers 400
 * naming the field is asked again without it, and never again while the app runs.
 */
const refusesStreamUsage = new Set<string>();

/** A 400 that names `stream_options` as the field it does not take. */
function refusedStreamOptions(error: unknown): boolean {
  return (
    error instanceof RelayError &&
    error.kind === 'bad_request' &&
    (error.param === 'stream_options' || /stream_options/.test(error.message))
  );
}
const MAX_JSON_BYTES = 128 * 1024 * 1024;

function isRedirect(response: Response): boolean {
  return (
    response.type === 'opaqueredirect' ||
    response.status === 0 ||
    (response.status >= 300 && response.status < 400)
  );
}

/** A relay that answered with a redirect: where it pointed (without any credentials or query). */
function redirectRefused(url: string, location: string | null): RelayError {
  let target: string | undefined;
  if (location !== null) {
    try {
      target = displayAddress(new URL(location, url).href);
    } catch {
      target = undefined;
    }
  }
  return new RelayError(
    'bad_response',
    target === undefined
      ? said('relay.network.redirect', { host: hostOf(url) })
      : said('relay.network.redirectTo', { host: hostOf(url), target }),
    { code: 'redirect_refused' },
  );
}

/** Checks a request against the spec's rules before anything is sent. */
function validate<T>(schema: ZodType<T>, request: unknown): T {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue ? issuePathToParam(issue.path) : undefined;
  let message = issue?.message ?? 'The request is not valid.';
  if (issue?.code === 'unrecognized_keys') {
    message = `The request has fields the relay does not take: ${issue.keys.join(', ')}.`;
  }
  throw new RelayError('bad_request', message, param ? { param } : {});
}

export function createRelayClient(options: RelayClientOptions): RelayClient {
  const base = resolveBaseUrl(options.baseUrl);
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 2));
  const timeoutMs = options.timeoutMs ?? 120_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const maxImageBytes = options.maxImageBytes ?? 50 * 1024 * 1024;
  const random = options.random ?? Math.random;
  const resolveHost: ResolveHost =
    options.resolveHost ??
    (async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address));
  // Image links away from the relay: connected only to addresses checked as public.
  const imageFetch = createImageFetch({ resolveHost });
  /** The key and secret header values sent so far: cut out of every message. */
  const usedKeys = new Set<string>();
  const redact: Redact = makeRedactor(() => [...usedKeys]);

  /** The extra headers for this attempt, checked; secret values join the redaction set. */
  async function resolveHeaders(): Promise<readonly CustomHeader[]> {
    let headers: readonly CustomHeader[];
    try {
      headers =
        typeof options.headers === 'function' ? await options.headers() : (options.headers ?? []);
    } catch (error) {
      if (error instanceof RelayError) throw error;
      throw new RelayError('bad_request', said('relay.headersUnreadable'), {
        code: 'headers_unreadable',
      });
    }
    for (const header of headers)
      if (header.secret && header.value !== '') usedKeys.add(header.value);
    const problem = headerListProblems(headers)[0];
    if (problem !== undefined) {
      throw new RelayError('bad_request', said('relay.nothingSent', { reason: problem.message }), {
        code: 'bad_header',
      });
    }
    return headers;
  }

  async function resolveKey(): Promise<string> {
    let key: string;
    try {
      key = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey;
    } catch (error) {
      if (error instanceof RelayError) throw error;
      throw new RelayError('unauthorized', said('relay.keyUnreadable'));
    }
    if (typeof key !== 'string') {
      throw new RelayError('unauthorized', said('relay.noKey'));
    }
    key = key.trim();
    if (key !== '') usedKeys.add(key);
    return key;
  }

  /** Fetches with a deadline for the headers; the returned reader owns the connection. */
  async function send(
    url: string,
    init: RequestInit,
    signal: AbortSignal | undefined,
    fetcher: FetchLike = fetchImpl,
    /** Called once the request is over: its answer read and closed, or the request failed. */
    onClose?: () => void,
  ): Promise<ResponseReader> {
    if (signal?.aborted) {
      onClose?.();
      throw abortedError();
    }
    const controller = new AbortController();
    const onUserAbort = () => controller.abort();
    signal?.addEventListener('abort', onUserAbort, { once: true });
    const detach = () => {
      signal?.removeEventListener('abort', onUserAbort);
      onClose?.();
    };
    let headersTimedOut = false;
    const timer = setTimeout(() => {
      headersTimedOut = true;
      controller.abort();
    }, timeoutMs);
    let response: Response;
    try {
      response = await fetcher(url, { ...init, signal: controller.signal });
    } catch (error) {
      detach();
      if (signal?.aborted) throw abortedError();
      // A refusal of our own (an image link's address) says more than a network error would.
      if (error instanceof RelayError) throw error;
      if (headersTimedOut) {
        throw new RelayError(
          'timeout',
          said('relay.noAnswerWithin', { host: hostOf(url), seconds: seconds(timeoutMs) }),
        );
      }
      throw errorFromNetwork(error, url);
    } finally {
      clearTimeout(timer);
    }
    return new ResponseReader(response, controller, signal, idleTimeoutMs, url, detach);
  }

  /** One API call: the key, the headers, retries for what is worth retrying, errors mapped. */
  async function open(
    endpoint: RelayEndpoint,
    body: unknown,
    accept: string,
    signal: AbortSignal | undefined,
    priority: RequestPriority = 'interactive',
  ): Promise<ResponseReader> {
    const url = endpointUrl(base, endpoint);
    for (let retry = 0; ; retry++) {
      const key = await resolveKey();
      const extra = await resolveHeaders();
      const secrets = key !== '' || extra.some((header) => header.secret);
      if (secrets && sendsKeyInClear(base) && options.allowKeyInClear !== true) {
        throw new RelayError(
          'bad_request',
          said(key !== '' ? 'relay.keyUnencrypted' : 'relay.headersUnencrypted', {
            origin: base.origin,
          }),
          { param: 'baseUrl', code: 'key_unencrypted' },
        );
      }
      const headers: Record<string, string> = {};
      // First, so that nothing the app sets itself could be replaced (their names are refused too).
      for (const header of extra) headers[header.name] = header.value;
      headers.Accept = accept;
      if (key !== '') headers.Authorization = `Bearer ${key}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      // A redirect is never followed with the key: it could lead anywhere. Node's fetch (undici)
      // answers `manual` with the 3xx response itself, which is refused below; Electron's
      // net.fetch cancels the request at the redirect and rejects ("Redirect was cancelled",
      // electron/electron#43715), which `errorFromNetwork` names; a browser-style fetch would
      // give an `opaqueredirect` response with status 0, refused below too. In no case does a
      // second request, with or without the key, go to the new address.
      const init: RequestInit = {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        redirect: 'manual',
      };
      if (body !== undefined) init.body = JSON.stringify(body);
      // A slot of the connection's limiter, held until the answer is read (the reader closed).
      const slot = await options.limiter?.acquire({ ...(signal ? { signal } : {}), priority });
      const reader = await send(url, init, signal, fetchImpl, slot && (() => slot.release()));
      const { response } = reader;
      if (isRedirect(response)) {
        reader.close();
        throw redirectRefused(url, response.headers.get('location'));
      }
      if (response.ok) return reader;

      let text = '';
      try {
        text = new TextDecoder().decode(await reader.readAll(MAX_ERROR_BODY_BYTES, 'error'));
      } catch (error) {
        if (error instanceof RelayError && error.kind === 'aborted') throw error;
        // An unreadable error body still leaves the status to go by.
      } finally {
        reader.close();
      }
      const askedDelay = retryAfterFromHeaders(response.headers, Date.now());
      const error = errorFromHttp(response.status, text, url, redact, askedDelay);
      if (retry >= maxRetries || !isRetryable(error)) throw error;
      const delayMs = askedDelay ?? backoffDelay(retry + 1, random);
      if (delayMs > maxRetryDelayMs) throw error;
      // A rate limit holds for the whole connection: no request of it starts during the wait.
      if (response.status === 429) options.limiter?.pause(delayMs);
      options.onRetry?.({ attempt: retry + 1, delayMs, error });
      await sleep(delayMs, signal);
    }
  }

  /** Reads a whole JSON answer; a web page, an empty body or invalid JSON is a `bad_response`. */
  async function readJson(
    reader: ResponseReader,
    what: 'models' | 'embeddings' | 'images',
  ): Promise<unknown> {
    const url = reader.response.url || base.root;
    let bytes: Uint8Array;
    try {
      bytes = await reader.readAll(MAX_JSON_BYTES, what);
    } finally {
      reader.close();
    }
    const text = new TextDecoder().decode(bytes);
    if (text.trim() === '') {
      throw new RelayError('bad_response', said('relay.emptyAnswer', { host: hostOf(url), what }));
    }
    if (looksLikeHtml(text)) {
      throw new RelayError('bad_response', said('relay.webPage', { host: hostOf(url) }));
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new RelayError('bad_response', said('relay.notJson', { host: hostOf(url), what }));
    }
    if (
      json !== null &&
      typeof json === 'object' &&
      'error' in json &&
      (json as { error: unknown }).error
    ) {
      throw errorFromPayload(readErrorPayload(json), redact, '');
    }
    return json;
  }

  async function download(link: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    let url = checkImageUrl(link, base.origin);
    // Redirects are followed by hand so that every hop passes the same address check.
    for (let hop = 0; hop < 4; hop++) {
      const fromRelay = url.origin === base.origin;
      const reader = await send(
        url.href,
        { method: 'GET', redirect: 'manual' },
        signal,
        fromRelay ? fetchImpl : imageFetch,
      );
      const { response } = reader;
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        reader.close();
        url = checkImageUrl(new URL(location, url).href, base.origin);
        continue;
      }
      if (!response.ok) {
        reader.close();
        throw new RelayError(
          response.status === 403 || response.status === 404 || response.status === 410
            ? 'bad_response'
            : 'server_error',
          said('relay.image.notDownloaded', { host: url.host, status: response.status }),
          { status: response.status },
        );
      }
      const length = Number(response.headers.get('content-length'));
      if (Number.isFinite(length) && length > maxImageBytes) {
        reader.close();
        throw new RelayError(
          'bad_response',
          said('relay.image.tooLarge', {
            host: url.host,
            megabytes: Math.round(maxImageBytes / 1048576),
          }),
        );
      }
      try {
        return await reader.readAll(maxImageBytes, 'image');
      } finally {
        reader.close();
      }
    }
    throw new RelayError('bad_response', said('relay.image.tooManyRedirects'));
  }

  return {
    baseUrl: base.root,

    endpointUrl: (endpoint) => endpointUrl(base, endpoint),

    async listModels({ signal, overrides, priority } = {}) {
      const reader = await open('models', undefined, 'application/json', signal, priority);
      const body = await readJson(reader, 'models');
      const models = readModelList(body, overrides);
      if (models === undefined) {
        throw new RelayError('bad_response', said('relay.noModelList', { host: base.hostname }));
      }
      return models;
    },

    async chat(request, { signal, onDelta, onToolCall, priority } = {}) {
      const valid = validate(chatRequestSchema, request);
      const stream = valid.stream ?? true;
      const body = { ...valid, stream };
      const accept = stream ? 'text/event-stream' : 'application/json';
      let reader: ResponseReader;
      if (stream && !refusesStreamUsage.has(base.origin)) {
        try {
          reader = await open(
            'chat/completions',
            { ...body, stream_options: { include_usage: true } },
            accept,
            signal,
            priority,
          );
        } catch (error) {
          if (!refusedStreamOptions(error)) throw error;
          refusesStreamUsage.add(base.origin);
          reader = await open('chat/completions', body, accept, signal, priority);
        }
      } else reader = await open('chat/completions', body, accept, signal, priority);
      return readChatResponse(reader, {
        onDelta,
        onToolCall,
        redact,
        url: endpointUrl(base, 'chat/completions'),
        ...(options.maxReplyChars === undefined ? {} : { maxChars: options.maxReplyChars }),
      });
    },

    async embed(request, { signal, priority } = {}) {
      const valid = validate(embeddingRequestSchema, request);
      const reader = await open('embeddings', valid, 'application/json', signal, priority);
      const body = await readJson(reader, 'embeddings');
      const count = typeof valid.input === 'string' ? 1 : valid.input.length;
      return readEmbeddings(body, valid.model, count, base.hostname);
    },

    async generateImages(request, { signal, priority } = {}) {
      const valid = validate(imageRequestSchema, request);
      const reader = await open('images/generations', valid, 'application/json', signal, priority);
      const body = await readJson(reader, 'images');
      const images: GeneratedImage[] = [];
      // One at a time, at once: relays' links can expire within the hour.
      for (const source of readImageSources(body, base.hostname)) {
        const bytes = source.kind === 'bytes' ? source.bytes : await download(source.url, signal);
        const mimeType = sniffImageType(bytes);
        if (mimeType === undefined) {
          throw new RelayError(
            'bad_response',
            said('relay.image.notAnImage', { host: base.hostname }),
          );
        }
        images.push(
          source.revisedPrompt === undefined
            ? { bytes, mimeType }
            : { bytes, mimeType, revisedPrompt: source.revisedPrompt },
        );
      }
      return { images };
    },
  };
}
