/**
 * Tool calls in replies: the request carries `tools` and `tool_choice`; a streamed reply's
 * `delta.tool_calls` pieces become whole calls however they are cut, several and interleaved;
 * a whole completion's `message.tool_calls` too; and a malformed call fails alone, with a keyed
 * reason, never holding the reply up.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createRelayClient,
  RelayError,
  type ChatResult,
  type FetchLike,
  type ToolCallUpdate,
} from '../../../../electron/main/services/relay/relay-client';
import {
  MAX_TOOL_CALLS,
  ToolCallAssembler,
} from '../../../../electron/main/services/relay/tool-calls';

const RECORDED = readFileSync(
  new URL('../../../fixtures/relay-streams/parallel-tool-calls.sse', import.meta.url),
  'utf8',
);

const ask = {
  model: 'm',
  messages: [{ role: 'user' as const, content: 'weather in Zürich, read my notes, add' }],
  tools: [
    {
      type: 'function' as const,
      function: { name: 'get_weather', parameters: { type: 'object' } },
    },
  ],
};

/** A fetch that answers `bytes` cut at `cuts`, and keeps the body it was sent. */
function fetchOf(
  text: string | Uint8Array,
  cuts: number[] = [],
  contentType = 'text/event-stream',
  sent: unknown[] = [],
): FetchLike {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return async (_url, init) => {
    sent.push(JSON.parse(String(init.body)));
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
    return new Response(body, { status: 200, headers: { 'content-type': contentType } });
  };
}

function clientOf(fetch: FetchLike) {
  return createRelayClient({ baseUrl: 'http://relay.test', apiKey: 'k', fetch, maxRetries: 0 });
}

/** An event stream of chunks whose deltas are given. */
function streamOf(deltas: unknown[], finish: string | null = 'tool_calls'): string {
  const events = deltas.map(
    (delta) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
  );
  if (finish !== null)
    events.push(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`,
    );
  return events.join('') + (finish !== null ? 'data: [DONE]\n\n' : '');
}

/** The calls of a result, without the error objects (their key instead). */
function summary(result: ChatResult) {
  return (result.toolCalls ?? []).map((call) =>
    call.status === 'ready'
      ? { status: call.status, id: call.id, name: call.name, input: call.input }
      : { status: call.status, id: call.id, name: call.name, reason: call.error.messageId },
  );
}

const EXPECTED = [
  {
    status: 'ready',
    id: 'call_Wd3Kq1',
    name: 'get_weather',
    input: { city: 'Zürich', unit: 'celsius' },
  },
  {
    status: 'ready',
    id: 'call_9xPz2',
    name: 'read_file',
    input: { path: 'notes/日本語.md', tail: 20, q: 'a"b\\n' },
  },
  { status: 'ready', id: 'call_Lr8m3', name: 'add', input: { a: 2.5, b: -300 } },
];

describe('the request', () => {
  it('sends tools and tool_choice as given, and nothing about tools when none are offered', async () => {
    const sent: unknown[] = [];
    const client = clientOf(fetchOf(RECORDED, [], 'text/event-stream', sent));
    await client.chat({ ...ask, tool_choice: 'auto', parallel_tool_calls: true });
    await client.chat({ model: 'm', messages: ask.messages });
    expect(sent[0]).toMatchObject({
      tools: ask.tools,
      tool_choice: 'auto',
      parallel_tool_calls: true,
    });
    expect(sent[1]).not.toHaveProperty('tools');
    expect(sent[1]).not.toHaveProperty('tool_choice');
  });

  it('sends a history with the assistant’s calls and the tools’ results', async () => {
    const sent: unknown[] = [];
    const client = clientOf(
      fetchOf(streamOf([{ content: 'Sunny.' }], 'stop'), [], undefined, sent),
    );
    const history = [
      ...ask.messages,
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function' as const,
            function: { name: 'get_weather', arguments: '{}' },
          },
        ],
      },
      { role: 'tool' as const, tool_call_id: 'c1', content: 'sunny, 21 °C' },
    ];
    const result = await client.chat({ ...ask, messages: history });
    expect(result.content).toBe('Sunny.');
    expect((sent[0] as { messages: unknown[] }).messages).toEqual(history);
  });

  it.each([
    [
      'a tool result that answers no call',
      { ...ask, messages: [...ask.messages, { role: 'tool', tool_call_id: 'nope', content: 'x' }] },
      'messages[1].tool_call_id',
    ],
    [
      'a tool name the convention does not allow',
      { ...ask, tools: [{ type: 'function', function: { name: 'read file' } }] },
      'tools[0].function.name',
    ],
    [
      'a tool_choice naming a tool not offered',
      { ...ask, tool_choice: { type: 'function', function: { name: 'other' } } },
      'tool_choice.function.name',
    ],
    [
      'tool_choice without tools',
      { model: 'm', messages: ask.messages, tool_choice: 'required' },
      'tool_choice',
    ],
    [
      'two tools of one name',
      { ...ask, tools: [...ask.tools, ...ask.tools] },
      'tools[1].function.name',
    ],
  ])('refuses %s before sending, naming the field', async (_name, request, param) => {
    const sent: unknown[] = [];
    const client = clientOf(fetchOf(RECORDED, [], 'text/event-stream', sent));
    const error = await client.chat(request as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).kind).toBe('bad_request');
    expect((error as RelayError).param).toBe(param);
    expect(sent).toEqual([]);
  });
});

describe('streamed tool calls', () => {
  it('assembles the recorded stream’s three parallel calls and says so as they stream', async () => {
    const updates: ToolCallUpdate[] = [];
    const result = await clientOf(fetchOf(RECORDED)).chat(ask, {
      onToolCall: (update) => updates.push(update),
    });
    expect(result.finishReason).toBe('tool_calls');
    expect(result.content).toBe('');
    expect(summary(result)).toEqual(EXPECTED);
    expect(result.usage).toEqual({ promptTokens: 153, completionTokens: 71, totalTokens: 224 });
    // Started with its name, its arguments piece by piece, ready once the reply is over.
    expect(
      updates.filter((u) => u.type === 'started').map((u) => u.type === 'started' && u.name),
    ).toEqual(['get_weather', 'read_file', 'add']);
    const firstArguments = updates
      .filter((u) => u.type === 'arguments' && u.index === 0)
      .map((u) => (u.type === 'arguments' ? u.delta : ''));
    expect(firstArguments.join('')).toBe('{"city": "Zürich", "unit": "celsius"}');
    expect(updates.slice(-3).map((u) => u.type)).toEqual(['ready', 'ready', 'ready']);
  });

  it('gives the same calls however the recorded stream is cut into network chunks', async () => {
    const bytes = new TextEncoder().encode(RECORDED);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: bytes.length }), { maxLength: 60 }), async (cuts) => {
        const result = await clientOf(fetchOf(bytes, cuts)).chat(ask);
        expect(summary(result)).toEqual(EXPECTED);
      }),
      { numRuns: 200 },
    );
  });

  it('gives the same calls however the relay splits the arguments and interleaves the calls', async () => {
    const argumentsOf = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 6 }),
      fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.integer(), fc.boolean()),
      { maxKeys: 4 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(argumentsOf, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.infiniteStream(fc.nat()),
        async (calls, cuts, order) => {
          // Each call's arguments text cut into pieces; pieces of different calls interleaved.
          const queues = calls.map((input, index) => {
            const text = JSON.stringify(input);
            const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort(
              (a, b) => a - b,
            );
            const pieces: unknown[] = [
              {
                index,
                id: `call_${index}x`,
                type: 'function',
                function: { name: `f${index}`, arguments: '' },
              },
            ];
            let start = 0;
            for (const point of [...points, text.length]) {
              if (point > start)
                pieces.push({ index, function: { arguments: text.slice(start, point) } });
              start = Math.max(start, point);
            }
            return pieces;
          });
          const deltas: unknown[] = [];
          const picks = order[Symbol.iterator]();
          while (queues.some((q) => q.length > 0)) {
            const open = queues.filter((q) => q.length > 0);
            const queue = open[(picks.next().value as number) % open.length]!;
            deltas.push({ tool_calls: [queue.shift()] });
          }
          const result = await clientOf(fetchOf(streamOf(deltas))).chat(ask);
          expect(summary(result)).toEqual(
            calls.map((input, index) => ({
              status: 'ready',
              id: `call_${index}x`,
              name: `f${index}`,
              input,
            })),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps the text a reply writes before its calls', async () => {
    const stream = streamOf([
      { role: 'assistant', content: 'Let me check. ' },
      {
        tool_calls: [
          { index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } },
        ],
      },
    ]);
    const result = await clientOf(fetchOf(stream)).chat(ask);
    expect(result.content).toBe('Let me check. ');
    expect(summary(result)).toEqual([{ status: 'ready', id: 'c', name: 'f', input: {} }]);
  });

  it('takes empty arguments as no arguments, and an object sent in their place as that object', async () => {
    const stream = streamOf([
      { tool_calls: [{ index: 0, id: 'a', function: { name: 'now', arguments: '' } }] },
      { tool_calls: [{ index: 1, id: 'b', function: { name: 'add', arguments: { a: 1, b: 2 } } }] },
    ]);
    expect(summary(await clientOf(fetchOf(stream)).chat(ask))).toEqual([
      { status: 'ready', id: 'a', name: 'now', input: {} },
      { status: 'ready', id: 'b', name: 'add', input: { a: 1, b: 2 } },
    ]);
  });

  it('tolerates relays that number every call 0, repeat the name, or leave out the index', async () => {
    const stream = streamOf([
      { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"x":' } }] },
      { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '1}' } }] },
      { tool_calls: [{ index: 0, id: 'b', function: { name: 'g', arguments: '{"y":2}' } }] },
      { tool_calls: [{ id: 'c', function: { name: 'h', arguments: '{"z":' } }] },
      { tool_calls: [{ function: { arguments: '3}' } }] },
    ]);
    expect(summary(await clientOf(fetchOf(stream)).chat(ask))).toEqual([
      { status: 'ready', id: 'a', name: 'f', input: { x: 1 } },
      { status: 'ready', id: 'b', name: 'g', input: { y: 2 } },
      { status: 'ready', id: 'c', name: 'h', input: { z: 3 } },
    ]);
  });

  it('reads calls from a reply that finished as stop (some relays do)', async () => {
    const stream = streamOf(
      [{ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] }],
      'stop',
    );
    const result = await clientOf(fetchOf(stream)).chat(ask);
    expect(result.finishReason).toBe('stop');
    expect(summary(result)).toHaveLength(1);
  });
});

describe('malformed calls end alone, with the reason', () => {
  it('fails a call whose arguments never become JSON, and runs the others', async () => {
    const updates: ToolCallUpdate[] = [];
    const stream = streamOf([
      { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"x": 1' } }] },
      { tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{"y": 2}' } }] },
    ]);
    const result = await clientOf(fetchOf(stream)).chat(ask, {
      onToolCall: (update) => updates.push(update),
    });
    expect(summary(result)).toEqual([
      { status: 'failed', id: 'a', name: 'f', reason: 'relay.tools.argumentsNotJson' },
      { status: 'ready', id: 'b', name: 'g', input: { y: 2 } },
    ]);
    const failed = updates.find((u) => u.type === 'failed');
    expect(failed?.type === 'failed' && failed.failure.error.message).toBe(
      "The model's call to f (call 0) ended with arguments that are not valid JSON, so it was not run.",
    );
    expect(failed?.type === 'failed' && failed.failure.arguments).toBe('{"x": 1');
  });

  it('fails a call whose arguments are JSON but not an object', async () => {
    const stream = streamOf([
      { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '[1, 2]' } }] },
    ]);
    const result = await clientOf(fetchOf(stream)).chat(ask);
    const [call] = result.toolCalls ?? [];
    expect(call?.status === 'failed' && call.error.message).toBe(
      "The model's call to f gave its arguments as a list, not as an object of named values, so it was not run.",
    );
  });

  it('fails pieces of an index that was never begun with a name', async () => {
    const stream = streamOf([
      { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] },
      { tool_calls: [{ index: 3, function: { arguments: '{"lost": true}' } }] },
    ]);
    expect(summary(await clientOf(fetchOf(stream)).chat(ask))).toEqual([
      { status: 'ready', id: 'a', name: 'f', input: {} },
      { status: 'failed', id: undefined, name: undefined, reason: 'relay.tools.unknownIndex' },
    ]);
  });

  it('fails a call whose name changes in the middle, and one with an index that is no number', async () => {
    const stream = streamOf([
      { tool_calls: [{ index: 0, id: 'a', function: { name: 'read_file', arguments: '{"p' } }] },
      { tool_calls: [{ index: 0, function: { name: 'delete_file', arguments: '":1}' } }] },
      { tool_calls: [{ index: 'x', id: 'q', function: { name: 'g', arguments: '{}' } }] },
      { tool_calls: [{ index: 1, id: 'b', function: { name: 'h', arguments: '{}' } }] },
    ]);
    expect(summary(await clientOf(fetchOf(stream)).chat(ask))).toEqual([
      { status: 'failed', id: 'a', name: 'read_file', reason: 'relay.tools.nameChanged' },
      { status: 'failed', id: 'q', name: 'g', reason: 'relay.tools.badIndex' },
      { status: 'ready', id: 'b', name: 'h', input: {} },
    ]);
  });

  it('fails every call of a reply cut off before it ended, even one whose JSON looks whole', async () => {
    const stream = streamOf(
      [{ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"x": 1}' } }] }],
      null,
    );
    const result = await clientOf(fetchOf(stream)).chat(ask);
    expect(result.interrupted).toBe(true);
    expect(summary(result)).toEqual([
      { status: 'failed', id: 'a', name: 'f', reason: 'relay.tools.interrupted' },
    ]);
  });

  it('ends, with every call failed or ready, whatever pieces arrive', async () => {
    const junk = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -2, max: 3 }),
      fc.string({ maxLength: 3 }),
      fc.constant(undefined),
    );
    const piece = fc.record(
      {
        index: junk,
        id: fc.oneof(junk, fc.constantFrom('a', 'b')),
        function: fc.oneof(
          junk,
          fc.record(
            {
              name: fc.oneof(junk, fc.constantFrom('f', 'g')),
              arguments: fc.oneof(junk, fc.constantFrom('{', '}', '"x"', ':1', '{"a":1}')),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(piece, { maxLength: 3 }), { maxLength: 12 }),
        async (deltas) => {
          const stream = streamOf(deltas.map((tool_calls) => ({ tool_calls })));
          const result = await clientOf(fetchOf(stream)).chat(ask);
          for (const call of result.toolCalls ?? []) {
            if (call.status === 'ready') {
              expect(typeof call.name).toBe('string');
              expect(call.input).toBeTypeOf('object');
            } else {
              expect(call.error.messageId).toMatch(/^relay\.tools\./);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses calls past the limit once, keeping those before it', () => {
    const assembler = new ToolCallAssembler();
    for (let index = 0; index < MAX_TOOL_CALLS + 5; index++)
      assembler.add([{ index, id: `c${index}`, function: { name: 'f', arguments: '{}' } }]);
    const outcomes = assembler.finish();
    expect(outcomes.filter((o) => o.status === 'ready')).toHaveLength(MAX_TOOL_CALLS);
    const last = outcomes.at(-1);
    expect(last?.status === 'failed' && last.error.messageId).toBe('relay.tools.tooMany');
    expect(outcomes).toHaveLength(MAX_TOOL_CALLS + 1);
  });
});

describe('a whole completion’s tool calls', () => {
  it('reads message.tool_calls, with content null and finish_reason tool_calls', async () => {
    const completion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'a',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
              },
              { id: 'b', type: 'function', function: { name: 'add', arguments: '{"a":1' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    };
    const updates: ToolCallUpdate[] = [];
    const result = await clientOf(fetchOf(JSON.stringify(completion), [], 'application/json')).chat(
      { ...ask, stream: false },
      { onToolCall: (u) => updates.push(u) },
    );
    expect(result.finishReason).toBe('tool_calls');
    expect(result.content).toBe('');
    expect(summary(result)).toEqual([
      { status: 'ready', id: 'a', name: 'get_weather', input: { city: 'Oslo' } },
      { status: 'failed', id: 'b', name: 'add', reason: 'relay.tools.argumentsNotJson' },
    ]);
    expect(updates.map((u) => u.type)).toEqual([
      'started',
      'arguments',
      'started',
      'arguments',
      'ready',
      'failed',
    ]);
  });

  it('has no toolCalls field when the reply made none', async () => {
    const result = await clientOf(fetchOf(streamOf([{ content: 'hi' }], 'stop'))).chat(ask);
    expect(result).not.toHaveProperty('toolCalls');
  });
});
