/**
 * A real HTTP server on loopback whose answers each test scripts: for the relay variants the demo
 * relay never sends (it is strict), such as HTML bodies, broken streams and odd framings.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: RecordedRequest, res: ServerResponse) => unknown;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`: the host only. */
  url: string;
  requests: RecordedRequest[];
  /** The handler for every following request. */
  handle(handler: Handler): void;
  /** Handlers used once each, in order, before falling back to `handle`'s. */
  handleSequence(handlers: Handler[]): void;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  let fallback: Handler = (_req, res) => {
    res.writeHead(500).end('no handler');
  };
  let queue: Handler[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
      };
      requests.push(recorded);
      const handler = queue.shift() ?? fallback;
      Promise.resolve(handler(recorded, res)).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(handler) {
      fallback = handler;
      queue = [];
    },
    handleSequence(handlers) {
      queue = [...handlers];
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A canonical chunk carrying one piece of reply text. */
export function contentChunk(text: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
    ...extra,
  });
}

export function finishChunk(reason = 'stop'): string {
  return JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: {}, finish_reason: reason }],
  });
}

/** The canonical event stream of a reply made of `pieces`. */
export function canonicalStream(pieces: string[], { done = true, finish = true } = {}): string {
  let out = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`;
  for (const piece of pieces) out += `data: ${contentChunk(piece)}\n\n`;
  if (finish) out += `data: ${finishChunk()}\n\n`;
  if (done) out += 'data: [DONE]\n\n';
  return out;
}

export function jsonError(
  res: ServerResponse,
  status: number,
  error: Record<string, unknown>,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ error }));
}

export function sseHeaders(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

/** Writes `text` in pieces cut at the given byte offsets, waiting a tick between writes. */
export async function writeInPieces(
  res: ServerResponse,
  text: string | Uint8Array,
  cuts: number[],
): Promise<void> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut <= start) continue;
    res.write(bytes.subarray(start, cut));
    start = cut;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
