/**
 * Properties of the stream reader: however a valid stream is framed and cut into network chunks,
 * the same text comes out; whatever bytes arrive instead, the call ends in a RelayError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createRelayClient,
  RelayError,
  type FetchLike,
} from '../../../../electron/main/services/relay/relay-client';

const hi = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

/** A fetch that answers with `bytes`, delivered in pieces cut at `cuts`. */
function fetchOf(bytes: Uint8Array, cuts: number[], contentType: string | undefined): FetchLike {
  return async () => {
    const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const pieces: Uint8Array[] = [];
    let start = 0;
    for (const point of [...points, bytes.length]) {
      if (point > start) pieces.push(bytes.slice(start, point));
      start = Math.max(start, point);
    }
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
    });
    return new Response(body, {
      status: 200,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
    });
  };
}

const eol = fc.constantFrom('\n', '\r\n', '\r');

/** One reply piece and how its event is framed. */
const framedPiece = fc.record({
  text: fc.string({ unit: 'binary', maxLength: 12 }),
  eol,
  keepAliveBefore: fc.boolean(),
  idField: fc.boolean(),
  splitData: fc.boolean(),
});

function frame(piece: {
  text: string;
  eol: string;
  keepAliveBefore: boolean;
  idField: boolean;
  splitData: boolean;
}): string {
  const chunk = JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content: piece.text }, finish_reason: null }],
  });
  let out = piece.keepAliveBefore ? `: PING${piece.eol}${piece.eol}` : '';
  if (piece.idField) out += `id: 7${piece.eol}`;
  if (piece.splitData) {
    // Several data lines in one event are joined with a newline: JSON allows it between tokens.
    const cut = chunk.indexOf('"choices"');
    out += `data: ${chunk.slice(0, cut)}${piece.eol}data: ${chunk.slice(cut)}${piece.eol}${piece.eol}`;
  } else {
    out += `data: ${chunk}${piece.eol}${piece.eol}`;
  }
  return out;
}

describe('stream reader properties', () => {
  it('rebuilds exactly the same text from any valid stream, cut at any byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(framedPiece, { maxLength: 25 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.constantFrom('text/event-stream', 'text/event-stream; charset=utf-8', undefined),
        fc.boolean(),
        async (pieces, cuts, contentType, withDone) => {
          const ending = `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n${withDone ? 'data: [DONE]\n\n' : ''}`;
          const text = pieces.map(frame).join('') + ending;
          const bytes = new TextEncoder().encode(text);
          const deltas: string[] = [];
          const client = createRelayClient({
            baseUrl: 'http://relay.test',
            apiKey: 'k',
            fetch: fetchOf(bytes, cuts, contentType),
          });
          const result = await client.chat(hi, { onDelta: (d) => deltas.push(d) });
          const expected = pieces.map((p) => p.text).join('');
          expect(result.content).toBe(expected);
          expect(deltas.join('')).toBe(expected);
          expect(result.finishReason).toBe('stop');
          expect(result.interrupted).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps every whole event of a stream cut short, and marks it interrupted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 15 }),
        fc.nat(),
        async (texts, cutAt) => {
          const events = texts.map(
            (t) =>
              `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: t } }] })}\n\n`,
          );
          const full = new TextEncoder().encode(events.join(''));
          const end = cutAt % (full.length + 1);
          const client = createRelayClient({
            baseUrl: 'http://relay.test',
            apiKey: 'k',
            fetch: fetchOf(full.slice(0, end), [], 'text/event-stream'),
          });
          // The text of every event that arrived whole, and a prefix of the next at most.
          let whole = '';
          let offset = 0;
          for (let i = 0; i < events.length; i++) {
            offset += new TextEncoder().encode(events[i]).length;
            if (offset <= end) whole += texts[i];
          }
          try {
            const result = await client.chat(hi);
            expect(result.interrupted).toBe(true);
            expect(result.content.startsWith(whole)).toBe(true);
            expect(texts.join('').startsWith(result.content)).toBe(true);
          } catch (error) {
            // Cut before the first whole event: nothing arrived, which is a bad response.
            expect(error).toBeInstanceOf(RelayError);
            expect(whole).toBe('');
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ends random bytes in a RelayError, never another exception or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 400 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.constantFrom('text/event-stream', 'application/json', 'text/plain', undefined),
        async (bytes, cuts, contentType) => {
          const client = createRelayClient({
            baseUrl: 'http://relay.test',
            apiKey: 'k',
            fetch: fetchOf(bytes, cuts, contentType),
            idleTimeoutMs: 2000,
          });
          const outcome = await client.chat(hi).then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
          expect('error' in outcome).toBe(true);
          expect((outcome as { error: unknown }).error).toBeInstanceOf(RelayError);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('ends random bytes after a valid beginning in a RelayError or an interrupted reply that kept the text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 200 }), async (junk) => {
        const start = new TextEncoder().encode(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'kept' } }] })}\n\n`,
        );
        const bytes = new Uint8Array([...start, ...junk]);
        const client = createRelayClient({
          baseUrl: 'http://relay.test',
          apiKey: 'k',
          fetch: fetchOf(bytes, [], 'text/event-stream'),
        });
        try {
          const result = await client.chat(hi);
          expect(result.content.startsWith('kept')).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(RelayError);
          expect((error as RelayError).partialText?.startsWith('kept')).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
