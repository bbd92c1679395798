/**
 * The HTTP server: routing, then for every API request the same pipeline, in this order:
 *
 *   Host (421) -> route (404/405) -> read body (413) -> latency -> `status` fault -> auth (401)
 *   -> rate limit (429) -> balance (402) -> parse and validate (400) -> charge -> answer
 *
 * The rate limit counts every authenticated request, as hosted relays do. The balance is checked
 * before the body is validated, but only a request that passes validation is charged, so a 400
 * costs nothing; a request the relay itself fails (500) is refunded.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Endpoint, RelayState, ResponseContext } from './context';
import { createChatCompletion } from './endpoints/chat-completions';
import { createEmbeddings } from './endpoints/embeddings';
import { generateImages } from './endpoints/images';
import { listModels } from './endpoints/models';
import { defaultsFor, errorBody, RelayHttpError } from './errors';
import {
  parseJsonObject,
  readBody,
  sendError,
  sendJson,
  sendStatusPage,
  SSE_HEADERS,
} from './http-io';

const ENDPOINTS = new Map<string, Endpoint>([
  ['/v1/chat/completions', createChatCompletion],
  ['/v1/embeddings', createEmbeddings],
  ['/v1/models', listModels],
  ['/v1/images/generations', generateImages],
]);

const IMAGE_PATH = /^\/files\/([0-9a-f]{32})\.png$/;

export interface RelayServer {
  server: Server;
  /** Destroys every open socket, including stalled and streaming ones. */
  destroySockets(): void;
}

export function createRelayServer(relay: RelayState, log?: (line: string) => void): RelayServer {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const started = performance.now();
    const trace: RequestTrace = { keyLabel: undefined };
    if (log) {
      res.on('close', () => {
        const ms = Math.round(performance.now() - started);
        const outcome = res.writableFinished
          ? String(res.statusCode)
          : `${res.headersSent ? res.statusCode : '-'} (closed early)`;
        log(
          `${req.method} ${logPath(req.url)} ${outcome} ${ms}ms${trace.keyLabel ? ` ${trace.keyLabel}` : ''}`,
        );
      });
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const context: ResponseContext = {
      req,
      res,
      relay,
      signal: AbortSignal.any([relay.closing, abort.signal]),
    };
    handle(context, trace).catch((error: unknown) => answerFailure(context, trace, error, log));
  });
  server.on('connection', (socket) => {
    // Streamed chunks are small and must leave at once, not wait for Nagle's algorithm.
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    server,
    destroySockets() {
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    },
  };
}

interface RequestTrace {
  /** `key#2`: which key made the request, for the log, without the key itself. */
  keyLabel: string | undefined;
  /** Set once the request has been charged, so a failure of the relay can refund it. */
  chargedKey?: string;
}

async function handle(context: ResponseContext, trace: RequestTrace): Promise<void> {
  const { req, res, relay } = context;
  res.setHeader('x-request-id', `req_${randomBytes(12).toString('hex')}`);
  const path = new URL(req.url ?? '/', 'http://demo-relay.invalid').pathname;

  // First of all, before any route: a page that rebound its own name to this machine is refused.
  if (!relay.acceptsHost(req.headers.host)) {
    throw new RelayHttpError(
      req.headers.host ? 421 : 400,
      req.headers.host
        ? `This demo relay answers only at its own address (${relay.url()}), not at the Host ${JSON.stringify(req.headers.host.slice(0, 100))}.`
        : `A request to the demo relay needs a Host header naming its address (${relay.url()}).`,
      { type: 'invalid_request_error', code: 'invalid_host' },
    );
  }

  if (path.startsWith('/files/')) return serveImage(req, res, relay, path);

  const endpoint = ENDPOINTS.get(path);
  if (!endpoint) {
    throw new RelayHttpError(
      404,
      `Unknown request URL: ${req.method} ${path}. The demo relay serves ${[...ENDPOINTS.keys()].join(', ')}.`,
      {
        code: 'unknown_url',
      },
    );
  }
  if (req.method !== endpoint.method) {
    throw new RelayHttpError(405, `${path} accepts ${endpoint.method} only, not ${req.method}.`, {
      headers: { Allow: endpoint.method },
    });
  }

  const raw = endpoint.method === 'POST' ? await readBody(req) : undefined;
  if (relay.settings.latencyMs > 0)
    await sleep(relay.settings.latencyMs, undefined, { signal: context.signal });

  // Before auth: a failing relay or the proxy in front of it answers whoever asks.
  const model = raw === undefined ? undefined : modelOf(raw);
  const statusFault = relay.faults.takeStatus(model);
  if (statusFault) return sendFault(res, statusFault.status, statusFault.body);

  const key = bearerKey(req);
  if (key === undefined || !relay.accounts.has(key)) {
    throw new RelayHttpError(
      401,
      key === undefined
        ? "Missing API key. Send it as 'Authorization: Bearer <key>'."
        : 'Incorrect API key provided. Check the key printed when the demo relay started.',
      { code: 'invalid_api_key' },
    );
  }
  trace.keyLabel = relay.accounts.label(key);

  const rate = relay.accounts.takeRequest(key);
  for (const [name, value] of Object.entries(rate.headers)) res.setHeader(name, value);
  if (!rate.allowed) {
    throw new RelayHttpError(
      429,
      `Rate limit reached: ${relay.settings.ratePerMinute} requests per minute for this key. Retry after ${rate.headers['retry-after']} s.`,
    );
  }
  if (!relay.accounts.canAfford(key)) {
    throw new RelayHttpError(
      402,
      `Insufficient balance: this key has ${relay.accounts.balanceOf(key)} credits and a request costs ${relay.settings.cost}.`,
    );
  }

  const prepared = endpoint.prepare(raw === undefined ? {} : parseJsonObject(raw));
  relay.accounts.charge(key);
  trace.chargedKey = key;

  if (relay.faults.takeStall(model)) {
    // Headers out, then silence, until the client gives up or the relay closes.
    res.writeHead(200, prepared.streaming ? SSE_HEADERS : { 'Content-Type': 'application/json' });
    res.flushHeaders();
    return;
  }
  if (relay.faults.takeInternalError(model)) {
    throw new Error('injected internal error (faults.internalError)');
  }
  await prepared.respond(context);
}

/** The `model` a request body names, for faults aimed at one model; undefined when unreadable. */
function modelOf(raw: Buffer | string): string | undefined {
  try {
    const body = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')) as unknown;
    const model = (body as { model?: unknown } | null)?.model;
    return typeof model === 'string' ? model : undefined;
  } catch {
    return undefined;
  }
}

/** The key from `Authorization: Bearer <key>`; undefined when the header is missing or malformed. */
function bearerKey(req: IncomingMessage): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function sendFault(res: ServerResponse, status: number, body: 'json' | 'html' | 'empty'): void {
  const headers: Record<string, string> =
    status === 429 ? { 'retry-after': '1', 'retry-after-ms': '1000' } : {};
  if (body !== 'json') return sendStatusPage(res, status, body, headers);
  const defaults = defaultsFor(status);
  sendJson(
    res,
    status,
    errorBody(
      `${defaults.message} (demo relay: injected fault)`,
      defaults.type,
      defaults.code,
      null,
    ),
    headers,
  );
}

function serveImage(
  req: IncomingMessage,
  res: ServerResponse,
  relay: RelayState,
  path: string,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new RelayHttpError(405, 'Image links accept GET only.', {
      headers: { Allow: 'GET, HEAD' },
    });
  }
  const id = IMAGE_PATH.exec(path)?.[1];
  const bytes = id === undefined ? undefined : relay.imageLinks.get(id);
  if (!bytes) {
    throw new RelayHttpError(
      404,
      'This image link does not exist or has expired (links last one hour).',
      {
        code: 'not_found',
      },
    );
  }
  res.writeHead(200, {
    'Content-Type': 'image/png',
    'Content-Length': String(bytes.length),
    'Cache-Control': 'private, max-age=3600',
  });
  res.end(bytes);
}

/**
 * The catch-all: whatever went wrong, the client gets an answer or a closed socket, never a hang,
 * and the process never crashes.
 */
function answerFailure(
  context: ResponseContext,
  trace: RequestTrace,
  error: unknown,
  log?: (line: string) => void,
): void {
  const { res, relay, signal } = context;
  if (signal.aborted) {
    // The relay is closing or the client left: nobody is waiting for an answer.
    res.destroy();
    return;
  }
  const expected = error instanceof RelayHttpError;
  if (!expected) {
    if (trace.chargedKey) relay.accounts.refund(trace.chargedKey);
    log?.(`internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    if (!res.headersSent) {
      sendError(
        res,
        expected
          ? error
          : new RelayHttpError(500, 'The demo relay failed internally. Retry the request.'),
      );
    } else if (
      String(res.getHeader('Content-Type')).startsWith('text/event-stream') &&
      res.writable
    ) {
      res.end(
        `data: ${JSON.stringify(errorBody('The demo relay failed in the middle of the reply.', 'server_error', 'internal_error', null))}\n\n`,
      );
    } else {
      res.destroy();
    }
  } catch {
    res.destroy();
  }
}

/** Image links are secrets of a kind too: the log names the route, not the id. */
function logPath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path.startsWith('/files/') ? '/files/<link>' : path;
}
