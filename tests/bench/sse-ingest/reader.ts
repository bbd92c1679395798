/**
 * One contender reading streamed replies, in a child process of its own, measuring itself.
 *
 * The orchestrator asks for one read at a time. Around each read this process takes its own CPU
 * time (user + system, all threads: a client's GC and any helper thread count against it) and
 * its count of read(2) calls. Text is checked after the clock stops.
 *
 * No GC is forced between reads: a full collection leaves a shrunken heap that the next read pays
 * to grow again (about a third more CPU for fetch on the 1 MB event). In steady state each read
 * pays, on average, for collecting as much garbage as it makes, as in the app.
 */
import net from 'node:net';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import {
  createRelayClient,
  type RelayClient,
} from '../../../electron/main/services/relay/relay-client';
import { serveParent } from './child';

/**
 * raw: a net.Socket that reads the HTTP response and discards it, the floor;
 * fetch: Node's fetch reading the body stream and discarding it, the transport our client runs on;
 * ours: the app's relay client; openai: the official client.
 */
export type Contender = 'raw' | 'fetch' | 'ours' | 'openai';

export type ReaderRequest =
  | { op: 'prepare'; contender: Contender; origin: string; expected: Record<string, string> }
  | { op: 'read'; scenario: string };

export interface ReaderPrepared {
  raisedPriority: boolean;
}

export interface ReadMeasurement {
  cpuMs: number;
  wallMs: number;
  /** read(2) calls during the read, NaN where /proc/self/io is not available. */
  socketReads: number;
  /** Bytes received (raw: the whole response; fetch: the body) or characters of text rebuilt. */
  received: number;
  /** Why the read does not count: wrong text, or an error. */
  problem?: string | undefined;
}

const REQUEST_BODY = JSON.stringify({
  model: 'm',
  messages: [{ role: 'user', content: 'hi' }],
  stream: true,
});

type ReadOnce = (
  scenario: string,
) => Promise<{ received: number; text?: string; problem?: string | undefined }>;

let readOnce: ReadOnce | undefined;
let expectedTexts: Record<string, string> = {};

function rawReader(origin: string): ReadOnce {
  const { hostname, port } = new URL(origin);
  return (scenario) =>
    new Promise((resolve, reject) => {
      let received = 0;
      const socket = net.connect(Number(port), hostname, () => {
        socket.setNoDelay(true);
        socket.write(
          `POST /${scenario}/v1/chat/completions HTTP/1.1\r\n` +
            `Host: ${hostname}:${port}\r\n` +
            'Authorization: Bearer k\r\n' +
            'Content-Type: application/json\r\n' +
            'Accept: text/event-stream\r\n' +
            `Content-Length: ${Buffer.byteLength(REQUEST_BODY)}\r\n` +
            '\r\n' +
            REQUEST_BODY,
        );
      });
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      socket.on('end', () => resolve({ received }));
      socket.on('error', reject);
    });
}

function fetchReader(origin: string): ReadOnce {
  return async (scenario) => {
    const response = await fetch(`${origin}/${scenario}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer k',
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
      },
      body: REQUEST_BODY,
    });
    let received = 0;
    for await (const chunk of response.body!) received += chunk.byteLength;
    return { received };
  };
}

function ourReader(origin: string): ReadOnce {
  const clients = new Map<string, RelayClient>();
  return async (scenario) => {
    let client = clients.get(scenario);
    if (!client) {
      client = createRelayClient({ baseUrl: `${origin}/${scenario}`, apiKey: 'k', maxRetries: 0 });
      clients.set(scenario, client);
    }
    let streamed = '';
    const result = await client.chat(
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      {
        onDelta: (text) => {
          streamed += text;
        },
      },
    );
    const problems: string[] = [];
    if (result.interrupted) problems.push('the reply was marked interrupted');
    if (result.finishReason !== 'stop') problems.push(`finishReason ${result.finishReason}`);
    if (streamed !== result.content)
      problems.push(describeMismatch('onDelta text', streamed, result.content));
    return {
      received: result.content.length,
      text: result.content,
      problem: problems.join('; ') || undefined,
    };
  };
}

function openaiReader(origin: string): ReadOnce {
  const clients = new Map<string, OpenAI>();
  return async (scenario) => {
    let client = clients.get(scenario);
    if (!client) {
      client = new OpenAI({ baseURL: `${origin}/${scenario}/v1`, apiKey: 'k', maxRetries: 0 });
      clients.set(scenario, client);
    }
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    return { received: text.length, text };
  };
}

function describeMismatch(what: string, actual: string, expected: string): string {
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  return (
    `${what} differs at character ${at} (${actual.length} vs ${expected.length} expected): ` +
    `${JSON.stringify(actual.slice(at, at + 20))} instead of ${JSON.stringify(expected.slice(at, at + 20))}`
  );
}

function readSyscalls(): number {
  try {
    const match = /^syscr:\s*(\d+)/m.exec(readFileSync('/proc/self/io', 'latin1'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** read(2) calls that reading /proc/self/io itself makes, subtracted from every count. */
const syscallProbeCost = (() => {
  const first = readSyscalls();
  return readSyscalls() - first;
})();

async function measure(scenario: string): Promise<ReadMeasurement> {
  if (!readOnce) throw new Error('read before prepare');
  const reads0 = readSyscalls();
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  let outcome: Awaited<ReturnType<ReadOnce>>;
  try {
    outcome = await readOnce(scenario);
  } catch (error) {
    return {
      cpuMs: Number.NaN,
      wallMs: Number.NaN,
      socketReads: Number.NaN,
      received: 0,
      problem: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  const socketReads = readSyscalls() - reads0 - syscallProbeCost;

  let problem = outcome.problem;
  const expected = expectedTexts[scenario];
  if (outcome.text !== undefined && outcome.text !== expected) {
    problem = [problem, describeMismatch('text', outcome.text, expected ?? '')]
      .filter(Boolean)
      .join('; ');
  }
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs,
    socketReads,
    received: outcome.received,
    problem,
  };
}

/**
 * Asks the OS to wake this process promptly when its data arrives (needs root or CAP_SYS_NICE), so
 * that on a busy machine the paced writes still reach each contender as separate reads. Every
 * contender gets the same priority.
 */
function raisePriority(): boolean {
  try {
    os.setPriority(-10);
    return true;
  } catch {
    return false;
  }
}

serveParent(async (message) => {
  const request = message as ReaderRequest;
  if (request.op === 'prepare') {
    expectedTexts = request.expected;
    const readers: Record<Contender, (origin: string) => ReadOnce> = {
      raw: rawReader,
      fetch: fetchReader,
      ours: ourReader,
      openai: openaiReader,
    };
    readOnce = readers[request.contender](request.origin);
    return { raisedPriority: raisePriority() };
  }
  if (request.op === 'read') return measure(request.scenario);
  throw new Error(`unknown request ${JSON.stringify(message)}`);
});
