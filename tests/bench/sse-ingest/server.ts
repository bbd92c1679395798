/**
 * The streaming server, run in a child process so its CPU time is not counted in the reader's.
 *
 * `POST /<scenario>/v1/chat/completions` answers the scenario's SSE body. node:http parses the
 * request; the response is written straight to the socket, so that each planned write is one
 * `write(2)`: `ServerResponse` would cork writes made in one tick into a single segment, and
 * chunked encoding would add framing to every 1-byte write. The body has a Content-Length and the
 * connection closes after it, so every reader pays for its own connection on every run.
 *
 * Writes are paced by spinning (timers are far too coarse for tens of microseconds), so that a
 * reader that keeps up with the pace receives each write as a read of its own.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { serveParent } from './child';
import { buildReply, type Reply, type ReplySpec } from './reply';

export type ServerRequest = { op: 'start'; specs: ReplySpec[] };

export interface ServedScenario {
  id: string;
  headBytes: number;
  bodyBytes: number;
  writes: number;
}

export interface ServerStarted {
  port: number;
  scenarios: ServedScenario[];
}

interface Scenario {
  spec: ReplySpec;
  reply: Reply;
  head: Buffer;
}

function responseHead(bodyBytes: number): Buffer {
  return Buffer.from(
    'HTTP/1.1 200 OK\r\n' +
      'Content-Type: text/event-stream; charset=utf-8\r\n' +
      'Cache-Control: no-cache\r\n' +
      `Content-Length: ${bodyBytes}\r\n` +
      'Connection: close\r\n' +
      '\r\n',
  );
}

/** Busy-waits until `deadline` (performance.now() milliseconds). */
function spinUntil(deadline: number): void {
  while (performance.now() < deadline) {
    // Nothing else for this process to do while a reply streams; timers are too coarse.
  }
}

/**
 * Writes the reply on the socket as planned: each write starts `gapUs` after the previous one
 * started (or at once, if that write took longer), so the pacing does not depend on write cost.
 */
function stream(socket: Socket, scenario: Scenario): void {
  const { reply, head, spec } = scenario;
  const gapMs = spec.gapUs / 1000;
  socket.setNoDelay(true);
  socket.write(head);
  let next = performance.now() + gapMs;
  let start = 0;
  for (const end of reply.writeEnds) {
    spinUntil(next);
    next = performance.now() + gapMs;
    socket.write(reply.body.subarray(start, end));
    start = end;
  }
  socket.end();
}

async function start(specs: ReplySpec[]): Promise<ServerStarted> {
  const scenarios = new Map<string, Scenario>();
  for (const spec of specs) {
    const reply = buildReply(spec);
    scenarios.set(spec.id, { spec, reply, head: responseHead(reply.body.length) });
  }

  const server = http.createServer((request, response) => {
    const match = /^\/([^/]+)\/v1\/chat\/completions$/.exec(request.url ?? '');
    const scenario = match ? scenarios.get(match[1]!) : undefined;
    if (request.method !== 'POST' || !scenario) {
      response.writeHead(404, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no scenario at ${request.url}` } }));
      return;
    }
    request.resume();
    request.on('end', () => stream(request.socket, scenario));
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    scenarios: [...scenarios.values()].map(({ spec, reply, head }) => ({
      id: spec.id,
      headBytes: head.length,
      bodyBytes: reply.body.length,
      writes: reply.writeEnds.length,
    })),
  };
}

serveParent(async (message) => {
  const request = message as ServerRequest;
  if (request.op === 'start') return start(request.specs);
  throw new Error(`unknown request ${JSON.stringify(message)}`);
});
