/**
 * Function calling on the real demo relay: `tools` checked with a `param` for each mistake, and
 * the `demo-tools` model calling the tools a message asks for (streamed in pieces, parallel when
 * allowed, arguments that fit each tool's schema), then answering from the results. Read through
 * the app's own relay client, which assembles the calls.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import {
  createRelayClient,
  type RelayClient,
  type ToolCallOutcome,
  type ToolDefinition,
} from '../../electron/main/services/relay/relay-client';

let relay: DemoRelay;
let client: RelayClient;

beforeAll(async () => {
  relay = await startDemoRelay({ tokensPerSecond: 0, ratePerMinute: 10_000 });
  client = createRelayClient({ baseUrl: relay.url, apiKey: relay.keys[0]!, maxRetries: 0 });
});
afterAll(() => relay.close());

/** Tools shaped as MCP servers describe theirs (server-everything, server-filesystem). */
const SUM: ToolDefinition = {
  type: 'function',
  function: {
    name: 'get-sum',
    description: 'Returns the sum of two numbers',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        a: { type: 'number', description: 'First number' },
        b: { type: 'number', description: 'Second number' },
      },
      required: ['a', 'b'],
    },
  },
};
const ECHO: ToolDefinition = {
  type: 'function',
  function: {
    name: 'echo',
    description: 'Echoes back the input string',
    parameters: {
      type: 'object',
      properties: { message: { type: 'string', description: 'Message to echo' } },
      required: ['message'],
    },
  },
};
const READ: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_text_file',
    description: 'Read the complete contents of a file from the file system as text.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        tail: { type: 'number', description: 'If provided, returns only the last N lines' },
        head: { type: 'number', description: 'If provided, returns only the first N lines' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
};
const LIST: ToolDefinition = {
  type: 'function',
  function: {
    name: 'list_directory',
    description: 'Get a detailed listing of all files and directories in a specified path.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    },
  },
};

function ready(calls: ToolCallOutcome[] | undefined) {
  return (calls ?? []).map((call) => {
    if (call.status !== 'ready') throw call.error;
    return { name: call.name, input: call.input };
  });
}

/** Posts a chat request as is, for the validation cases. */
async function post(
  body: unknown,
): Promise<{ status: number; error?: { param: string; message: string } }> {
  const response = await fetch(`${relay.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${relay.keys[0]}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { error?: { param: string; message: string } };
  return { status: response.status, ...(json.error ? { error: json.error } : {}) };
}

const user = (content: string) => ({ role: 'user' as const, content });

describe('validation of tools', () => {
  const base = { model: 'demo-tools', messages: [user('hi')] };
  it.each([
    ['tools that are not a list', { ...base, tools: {} }, 'tools'],
    ['an empty list of tools', { ...base, tools: [] }, 'tools'],
    [
      'a tool of another type',
      { ...base, tools: [{ type: 'web', function: { name: 'x' } }] },
      'tools[0].type',
    ],
    ['a tool without a function', { ...base, tools: [{ type: 'function' }] }, 'tools[0].function'],
    [
      'a name with a space',
      { ...base, tools: [{ type: 'function', function: { name: 'read file' } }] },
      'tools[0].function.name',
    ],
    ['two tools of one name', { ...base, tools: [SUM, SUM] }, 'tools[1].function.name'],
    [
      'an unknown field in a function',
      { ...base, tools: [{ type: 'function', function: { name: 'x', returns: 'y' } }] },
      'tools[0].function.returns',
    ],
    [
      'parameters that describe a string, not an object',
      {
        ...base,
        tools: [{ type: 'function', function: { name: 'x', parameters: { type: 'string' } } }],
      },
      'tools[0].function.parameters',
    ],
    [
      'parameters that are not a valid schema',
      {
        ...base,
        tools: [
          {
            type: 'function',
            function: {
              name: 'x',
              parameters: { type: 'object', properties: { a: { type: 'nonsense' } } },
            },
          },
        ],
      },
      'tools[0].function.parameters',
    ],
    [
      'a tool_choice naming a tool not offered',
      { ...base, tools: [SUM], tool_choice: { type: 'function', function: { name: 'echo' } } },
      'tool_choice.function.name',
    ],
    ['tool_choice without tools', { ...base, tool_choice: 'auto' }, 'tool_choice'],
    [
      'parallel_tool_calls without tools',
      { ...base, parallel_tool_calls: false },
      'parallel_tool_calls',
    ],
    [
      'a tool message that answers no call',
      { ...base, messages: [user('hi'), { role: 'tool', tool_call_id: 'call-9', content: '5' }] },
      'messages[1].tool_call_id',
    ],
    [
      'a call left unanswered before the next message',
      {
        ...base,
        messages: [
          user('hi'),
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'echo', arguments: '{}' } },
            ],
          },
          user('and?'),
        ],
      },
      'messages[1].tool_calls[0].id',
    ],
    [
      'a tool call whose arguments are not text',
      {
        ...base,
        messages: [
          user('hi'),
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: {} } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'x' },
        ],
      },
      'messages[1].tool_calls[0].function.arguments',
    ],
  ])('answers 400 naming the field for %s', async (_name, body, param) => {
    const { status, error } = await post(body);
    expect(status).toBe(400);
    expect(error?.param).toBe(param);
  });

  it('takes a whole history of calls and results, and tools on any chat model', async () => {
    const history = {
      model: 'demo-chat',
      tools: [ECHO],
      messages: [
        user('echo hi'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'echo', arguments: '{"message":"hi"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'Echo: hi' },
      ],
    };
    expect((await post(history)).status).toBe(200);
  });
});

describe('the demo tool model', () => {
  it('calls the tool the message asks for, its arguments from the message, streamed in pieces', async () => {
    const pieces: string[] = [];
    const result = await client.chat(
      {
        model: 'demo-tools',
        messages: [user('What is the sum of 2 and 3.5?')],
        tools: [ECHO, SUM, READ],
      },
      { onToolCall: (update) => update.type === 'arguments' && pieces.push(update.delta) },
    );
    expect(result.finishReason).toBe('tool_calls');
    expect(result.content).toBe('');
    expect(ready(result.toolCalls)).toEqual([{ name: 'get-sum', input: { a: 2, b: 3.5 } }]);
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe('{"a":2,"b":3.5}');
  });

  it('reads the file a message names, and calls several tools at once when asked for several things', async () => {
    const file = await client.chat({
      model: 'demo-tools',
      messages: [user('Please read notes/harbour.md for me')],
      tools: [ECHO, SUM, LIST, READ],
    });
    expect(ready(file.toolCalls)).toEqual([
      { name: 'read_text_file', input: { path: 'notes/harbour.md' } },
    ]);

    const both = await client.chat({
      model: 'demo-tools',
      messages: [user('Add 4 and 5, and echo "tide is high"')],
      tools: [ECHO, SUM, READ],
    });
    expect(ready(both.toolCalls)).toEqual([
      { name: 'echo', input: { message: 'tide is high' } },
      { name: 'get-sum', input: { a: 4, b: 5 } },
    ]);
    const ids = (both.toolCalls ?? []).map((call) => call.id);
    expect(new Set(ids).size).toBe(2);

    const one = await client.chat({
      model: 'demo-tools',
      messages: [user('Add 4 and 5, and echo "tide is high"')],
      tools: [ECHO, SUM, READ],
      parallel_tool_calls: false,
    });
    expect(ready(one.toolCalls)).toHaveLength(1);
  });

  it('fills arguments that fit the schema, whatever the message gives', async () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        detail: {
          type: 'object',
          properties: { hourly: { type: 'boolean' } },
          required: ['hourly'],
        },
      },
      required: ['city', 'unit', 'days', 'tags', 'detail'],
      additionalProperties: false,
    };
    const weather: ToolDefinition = {
      type: 'function',
      function: { name: 'get_weather', description: 'The forecast for a city', parameters: schema },
    };
    const check = new Ajv({ strict: false }).compile(schema);
    for (const text of ['weather in fahrenheit for 3 days', 'forecast', 'weather please 2.7']) {
      const result = await client.chat({
        model: 'demo-tools',
        messages: [user(text)],
        tools: [weather],
      });
      const [call] = ready(result.toolCalls);
      expect(call?.name).toBe('get_weather');
      expect(check(call?.input), JSON.stringify(check.errors)).toBe(true);
    }
  });

  it('answers from the results once they arrive, quoting each', async () => {
    const first = await client.chat({
      model: 'demo-tools',
      messages: [user('What is the sum of 2 and 3?')],
      tools: [SUM],
    });
    const [call] = first.toolCalls ?? [];
    if (call?.status !== 'ready') throw new Error('no call');
    const answer = await client.chat({
      model: 'demo-tools',
      tools: [SUM],
      messages: [
        user('What is the sum of 2 and 3?'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            },
          ],
        },
        { role: 'tool', tool_call_id: call.id, content: 'The sum of 2 and 3 is 5.' },
      ],
    });
    expect(answer.finishReason).toBe('stop');
    expect(answer.toolCalls).toBeUndefined();
    expect(answer.content).toContain('**get-sum** answered: “The sum of 2 and 3 is 5.”');
  });

  it('follows tool_choice: none answers in text, required calls even unasked, a name calls that tool', async () => {
    const none = await client.chat({
      model: 'demo-tools',
      messages: [user('sum 1 2')],
      tools: [SUM],
      tool_choice: 'none',
    });
    expect(none.toolCalls).toBeUndefined();
    expect(none.content).toMatch(/tool_choice none/);

    const unasked = await client.chat({
      model: 'demo-tools',
      messages: [user('good morning')],
      tools: [ECHO, SUM],
    });
    expect(unasked.toolCalls).toBeUndefined();
    expect(unasked.content).toMatch(/None of the 2 tools offered \(echo, get-sum\) fits/);

    const required = await client.chat({
      model: 'demo-tools',
      messages: [user('good morning')],
      tools: [ECHO, SUM],
      tool_choice: 'required',
    });
    expect(ready(required.toolCalls).map((c) => c.name)).toEqual(['echo']);

    const named = await client.chat({
      model: 'demo-tools',
      messages: [user('echo this')],
      tools: [ECHO, SUM],
      tool_choice: { type: 'function', function: { name: 'get-sum' } },
    });
    expect(ready(named.toolCalls)).toEqual([{ name: 'get-sum', input: { a: 1, b: 1 } }]);
  });

  it('answers a whole completion with content null and the calls, when not streaming', async () => {
    const response = await fetch(`${relay.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${relay.keys[0]}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: 'demo-tools',
        messages: [user('echo "hello"')],
        tools: [ECHO],
      }),
    });
    const body = (await response.json()) as {
      choices: {
        message: { content: unknown; tool_calls: { type: string; function: unknown }[] };
        finish_reason: string;
      }[];
      usage: { prompt_tokens: number };
    };
    const [choice] = body.choices;
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([
      {
        id: expect.any(String),
        type: 'function',
        function: { name: 'echo', arguments: '{"message":"hello"}' },
      },
    ]);
    // The tools offered count toward the prompt.
    const plain = await post({ model: 'demo-tools', messages: [user('echo "hello"')] });
    expect(plain.status).toBe(200);
    expect(body.usage.prompt_tokens).toBeGreaterThan(20);
  });

  it('cuts the calls at max_tokens, finishing as length, and the client fails the cut call', async () => {
    const result = await client.chat({
      model: 'demo-tools',
      messages: [user('echo "a long message to be cut"')],
      tools: [ECHO],
      max_tokens: 3,
    });
    expect(result.finishReason).toBe('length');
    expect(result.toolCalls?.[0]).toMatchObject({ status: 'failed', name: 'echo' });
  });

  it('lets the other chat models answer in text when offered tools', async () => {
    const result = await client.chat({
      model: 'demo-chat-mini',
      messages: [user('sum 1 and 2')],
      tools: [SUM],
    });
    expect(result.finishReason).toBe('stop');
    expect(result.toolCalls).toBeUndefined();
  });
});
