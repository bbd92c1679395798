/**
 * Section 1, streams: generated event streams through the real relay client against a loopback
 * server. Valid streams cut at every kind of boundary, junk, partial final events, missing [DONE]
 * and error events: no uncaught error, no hang over 2 s, one terminal state per stream, and every
 * valid stream rebuilt exactly.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRelayClient, RelayError } from '../../electron/main/services/relay/relay-client';
import { startScriptedServer, writeInPieces, type ScriptedServer } from '../fakes/scripted-server';
import { CANARY_KEY, containsKey, deepText } from './lib/canary';
import { count, FULL, recordFigures } from './lib/record';

const STREAMS = count(5000, 400);
const CONCURRENCY = 8;
/** A stream still unsettled this long after its server finished sending it is a hang. */
const HANG_MS = 2000;
/** Whatever happens, a stream is given up this long after it began (and counted as a hang). */
const GIVE_UP_MS = 30_000;

type Kind = 'valid' | 'no-done' | 'no-finish' | 'partial-final' | 'error-event' | 'junk';

interface Case {
  kind: Kind;
  bytes: Uint8Array;
  cuts: number[];
  contentType: string | undefined;
  /** The text a reader must rebuild (for error events: the text before the error). */
  text: string;
  errorKind?: string;
}

const eol = fc.constantFrom('\n', '\r\n', '\r');
const piece = fc.record({
  text: fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('é', '→', '😀', '中文', ' ', '\n', '"', '\\', 'data: x\n\n'),
  ),
  eol,
  keepAliveBefore: fc.boolean(),
  idField: fc.boolean(),
  splitData: fc.boolean(),
});
type Piece = {
  text: string;
  eol: string;
  keepAliveBefore: boolean;
  idField: boolean;
  splitData: boolean;
};

function chunkJson(text: string): string {
  return JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
  });
}

function frame(p: Piece): string {
  const chunk = chunkJson(p.text);
  let out = p.keepAliveBefore ? `: PING${p.eol}${p.eol}` : '';
  if (p.idField) out += `id: 7${p.eol}event: message${p.eol}`;
  if (p.splitData) {
    const cut = chunk.indexOf('"choices"');
    out += `data: ${chunk.slice(0, cut)}${p.eol}data: ${chunk.slice(cut)}${p.eol}${p.eol}`;
  } else out += `data: ${chunk}${p.eol}${p.eol}`;
  return out;
}

const FINISH = `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n`;
const ERRORS: Array<{ body: string; kind: string }> = [
  {
    body: 'data: {"error":{"message":"upstream overloaded","type":"server_error","code":"overloaded"}}\n\n',
    kind: 'server_error',
  },
  {
    body: 'event: error\ndata: {"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}\n\n',
    kind: 'rate_limited',
  },
  {
    body: `data: ${JSON.stringify({ id: 'c', error: { message: 'Provider returned error', code: 502 }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] })}\n\n`,
    kind: 'server_error',
  },
];

/** Cut points: random ones, every event boundary, inside multi-byte characters, inside \r\n. */
function cutsFor(bytes: Uint8Array, random: number[]): number[] {
  const cuts = random.map((r) => r % (bytes.length + 1));
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i] as number;
    const prev = bytes[i - 1] as number;
    if ((b & 0xc0) === 0x80 && cuts.length < 200) cuts.push(i); // inside a UTF-8 character
    if (prev === 13 && b === 10) cuts.push(i); // between \r and \n
    if ((prev === 10 || prev === 13) && (b === 100 || b === 58)) cuts.push(i); // before "data"/":"
  }
  return [...new Set(cuts)].sort((a, b) => a - b);
}

const encoder = new TextEncoder();

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    kind: fc.constantFrom<Kind>(
      'valid',
      'valid',
      'valid',
      'no-done',
      'no-finish',
      'partial-final',
      'error-event',
      'junk',
    ),
    pieces: fc.array(piece, { minLength: 1, maxLength: 20 }),
    random: fc.array(fc.nat(), { maxLength: 30 }),
    junk: fc.uint8Array({ maxLength: 600 }),
    cutFinal: fc.nat(),
    error: fc.nat({ max: ERRORS.length - 1 }),
    contentType: fc.constantFrom(
      'text/event-stream',
      'text/event-stream; charset=utf-8',
      undefined,
    ),
  })
  .map(({ kind, pieces, random, junk, cutFinal, error, contentType }): Case => {
    const text = pieces.map((p) => p.text).join('');
    const body = pieces.map(frame).join('');
    switch (kind) {
      case 'valid': {
        const bytes = encoder.encode(`${body}${FINISH}data: [DONE]\n\n`);
        return { kind, bytes, cuts: cutsFor(bytes, random), contentType, text };
      }
      case 'no-done': {
        const bytes = encoder.encode(`${body}${FINISH}`);
        return { kind, bytes, cuts: cutsFor(bytes, random), contentType, text };
      }
      case 'no-finish': {
        const bytes = encoder.encode(body);
        return { kind, bytes, cuts: cutsFor(bytes, random), contentType, text };
      }
      case 'partial-final': {
        const last = `data: ${chunkJson('never whole')}`;
        const cut = 6 + (cutFinal % (last.length - 7));
        const bytes = encoder.encode(`${body}${last.slice(0, cut)}`);
        return { kind, bytes, cuts: cutsFor(bytes, random), contentType, text };
      }
      case 'error-event': {
        const failure = ERRORS[error] as (typeof ERRORS)[number];
        const bytes = encoder.encode(`${body}${failure.body}`);
        return {
          kind,
          bytes,
          cuts: cutsFor(bytes, random),
          contentType: 'text/event-stream',
          text,
          errorKind: failure.kind,
        };
      }
      case 'junk':
        return { kind, bytes: junk, cuts: cutsFor(junk, random), contentType, text: '' };
    }
  });

let server: ScriptedServer;
const cases = fc.sample(caseArb, { numRuns: STREAMS, seed: 7_2026 });
const uncaught: unknown[] = [];
/** When the server finished sending each stream. */
const serverDone = new Map<number, number>();
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  server = await startScriptedServer();
  server.handle(async (request, res) => {
    const index = Number(/stream-(\d+)/.exec(request.body)?.[1]);
    const c = cases[index] as Case;
    res.writeHead(200, c.contentType === undefined ? {} : { 'content-type': c.contentType });
    res.flushHeaders();
    await writeInPieces(res, c.bytes, c.cuts);
    res.end();
    serverDone.set(index, performance.now());
  });
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  await server.close();
});

it(`reads ${STREAMS} generated streams: one terminal state each, no hang, valid ones rebuilt exactly`, async () => {
  const client = createRelayClient({
    baseUrl: server.url,
    apiKey: CANARY_KEY,
    maxRetries: 0,
    idleTimeoutMs: 10_000,
  });
  const byKind = new Map<Kind, number>();
  const failures: string[] = [];
  const durations: number[] = [];
  const settleDelays: number[] = [];
  let hangs = 0;
  let terminalsTotal = 0;
  let deltasAfterEnd = 0;
  let rebuilt = 0;
  let errorsOk = 0;
  let keyInError = 0;

  async function one(index: number): Promise<void> {
    const c = cases[index] as Case;
    byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
    const controller = new AbortController();
    let terminals = 0;
    const deltas: string[] = [];
    const started = performance.now();
    let gaveUp = false;
    const hang = setTimeout(() => {
      gaveUp = true;
      controller.abort();
    }, GIVE_UP_MS);
    const outcome = await client
      .chat(
        { model: 'm', messages: [{ role: 'user', content: `stream-${index}` }] },
        {
          signal: controller.signal,
          onDelta: (d) => {
            if (terminals > 0) deltasAfterEnd++;
            deltas.push(d);
          },
        },
      )
      .then(
        (result) => {
          terminals++;
          return { result } as const;
        },
        (error: unknown) => {
          terminals++;
          return { error } as const;
        },
      );
    clearTimeout(hang);
    const settled = performance.now();
    durations.push(settled - started);
    // From the last byte the server sent to the call settling (a call that settled first: 0).
    const sentAt = serverDone.get(index);
    const settleDelay = sentAt === undefined ? 0 : Math.max(0, settled - sentAt);
    settleDelays.push(settleDelay);
    if (gaveUp || settleDelay > HANG_MS) {
      hangs++;
      failures.push(
        `stream ${index} (${c.kind}) ${gaveUp ? `still open after ${GIVE_UP_MS} ms` : `settled ${Math.round(settleDelay)} ms after its last byte`}`,
      );
      return;
    }
    await new Promise((resolve) => setImmediate(resolve));
    terminalsTotal += terminals;
    const where = `stream ${index} (${c.kind})`;
    if ('error' in outcome) {
      if (!(outcome.error instanceof RelayError)) {
        failures.push(`${where}: ${String(outcome.error)} is not a RelayError`);
        return;
      }
      if (containsKey(deepText(outcome.error))) keyInError++;
      const error = outcome.error;
      if (c.kind === 'junk') errorsOk++;
      else if (c.kind === 'error-event') {
        if (error.kind === c.errorKind && error.partialText === c.text) errorsOk++;
        else failures.push(`${where}: ${error.kind} with ${JSON.stringify(error.partialText)}`);
      } else failures.push(`${where}: failed with ${error.kind}: ${error.message}`);
      return;
    }
    const { result } = outcome;
    const joined = deltas.join('');
    switch (c.kind) {
      case 'valid':
      case 'no-done':
        if (result.content === c.text && joined === c.text && !result.interrupted) rebuilt++;
        else failures.push(`${where}: rebuilt ${JSON.stringify(result).slice(0, 200)}`);
        break;
      case 'no-finish':
      case 'partial-final':
        if (result.content === c.text && result.interrupted) rebuilt++;
        else failures.push(`${where}: rebuilt ${JSON.stringify(result).slice(0, 200)}`);
        break;
      default:
        failures.push(
          `${where}: ended without the expected error (${JSON.stringify(result).slice(0, 200)})`,
        );
    }
  }

  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < cases.length) await one(next++);
    }),
  );

  const sorted = [...durations].sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
  const validCount = cases.filter((c) => c.kind !== 'junk' && c.kind !== 'error-event').length;
  const errorCount = cases.length - validCount;
  recordFigures(
    1,
    'Streams',
    [
      {
        name: 'Streams read',
        value: cases.length,
        target: '5,000',
        ok: FULL ? cases.length >= 5000 : undefined,
      },
      ...[...byKind].map(([kind, n]) => ({ name: `… of which ${kind}`, value: n })),
      { name: 'Uncaught errors', value: uncaught.length, target: '0', ok: uncaught.length === 0 },
      {
        name: 'Hangs (unsettled 2 s after the last byte, or open 30 s)',
        value: hangs,
        target: '0',
        ok: hangs === 0,
      },
      {
        name: 'Last byte to settled, max',
        value: Math.round(Math.max(...settleDelays)),
        unit: 'ms',
        target: '< 2,000',
      },
      {
        name: 'Streams with exactly one terminal state',
        value: terminalsTotal,
        target: `${cases.length}`,
        ok: terminalsTotal === cases.length && deltasAfterEnd === 0,
      },
      {
        name: 'Valid and truncated streams rebuilt exactly',
        value: `${rebuilt} of ${validCount}`,
        ok: rebuilt === validCount,
      },
      {
        name: 'Junk and error streams ending in the expected RelayError',
        value: `${errorsOk} of ${errorCount}`,
        ok: errorsOk === errorCount,
      },
      {
        name: 'Errors holding the canary key',
        value: keyInError,
        target: '0',
        ok: keyInError === 0,
      },
      { name: 'Time per stream, p50', value: pct(0.5), unit: 'ms' },
      { name: 'Time per stream, p99', value: pct(0.99), unit: 'ms' },
      {
        name: 'Time per stream (request to settled, server pacing included), max',
        value: Math.round(sorted.at(-1) ?? 0),
        unit: 'ms',
      },
    ],
    [
      `A hang is a call still unsettled ${HANG_MS} ms after the server sent the stream's last byte (the server's own pacing, slowed by other work on the machine, does not count).`,
      `fast-check seed 72026; ${CONCURRENCY} streams at a time; cut points: random offsets plus every continuation byte of a UTF-8 character, every \\r\\n and every line start.`,
      'Valid streams end with finish_reason and [DONE] (or finish_reason only); "no-finish" streams end with neither and must come back interrupted with all their text; "partial-final" ones end inside a last event that must be dropped.',
      ...failures.slice(0, 5).map((f) => `Failure: ${f}`),
    ],
  );

  expect(failures.slice(0, 10)).toEqual([]);
  expect(uncaught).toEqual([]);
  expect(hangs).toBe(0);
  expect(terminalsTotal).toBe(cases.length);
  expect(deltasAfterEnd).toBe(0);
  expect(rebuilt).toBe(validCount);
  expect(errorsOk).toBe(errorCount);
  expect(keyInError).toBe(0);
});
