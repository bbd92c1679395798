/**
 * The demo relay over raw HTTP: every validation rule, accounts, limits, routing, the exact
 * streaming framing, every fault it can inject, and the command line.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startDemoRelay,
  type DemoRelay,
  type DemoRelayOptions,
} from '../../electron/demo-relay/index';

const chat = { model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] };
const embed = { model: 'demo-embedding', input: 'hi' };
const image = { model: 'demo-image', prompt: 'hi', size: '64x64' };

interface CallOptions {
  method?: string;
  body?: unknown;
  /** A raw body, sent as is. */
  raw?: string | undefined;
  /** The key to send; null sends no Authorization header. Default: the relay's first key. */
  key?: string | null;
}

function call(relay: DemoRelay, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? relay.keys[0] : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  const body =
    options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(`${relay.url}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}
interface Completion {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: string; content: string };
    finish_reason: string;
  }>;
  usage: Usage;
}
interface EmbeddingList {
  object: string;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
  data: Array<{ object: string; index: number; embedding: number[] | string }>;
}
interface ImageList {
  created: number;
  data: Array<{ b64_json?: string; url?: string }>;
}

/** A successful JSON answer of the expected shape. */
async function okJson<T>(pending: Promise<Response>): Promise<T> {
  const response = await pending;
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Checks the canonical error body of wire-conventions.md §7 and returns its `error`. */
async function expectError(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as {
    error: { message: string; type: string; param: string | null; code: string | null };
  };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(typeof body.error.type).toBe('string');
  return body.error;
}

/** Reads a body to its end or its failure, keeping what arrived before a failure. */
async function readAll(response: Response): Promise<{ text: string; failed: boolean }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failed: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, failed: true };
  }
}

/** The `data:` payloads of an event stream that must be framed exactly canonically. */
function events(text: string): string[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      expect(event.slice(6)).not.toContain('\n');
      return event.slice(6);
    });
}

function streamRequest(extra: Record<string, unknown> = {}) {
  return { ...chat, stream: true, ...extra };
}

const relays: DemoRelay[] = [];
async function fresh(options: DemoRelayOptions = {}): Promise<DemoRelay> {
  const relay = await startDemoRelay({ tokensPerSecond: 0, ...options });
  relays.push(relay);
  return relay;
}
afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

describe('validation', () => {
  let relay: DemoRelay;
  beforeAll(async () => {
    relay = await startDemoRelay({ tokensPerSecond: 0, ratePerMinute: 100_000, balance: 1000 });
  });
  afterAll(() => relay.close());

  const msg = (extra: Record<string, unknown>) => ({ role: 'user', content: 'hi', ...extra });
  const cases: Array<[string, string, unknown, string | null, string]> = [
    ['chat: body is not JSON', '/v1/chat/completions', '{"model":', null, 'invalid_json'],
    ['chat: body is an array', '/v1/chat/completions', '[]', null, 'invalid_json'],
    ['chat: body is a string', '/v1/chat/completions', '"hi"', null, 'invalid_json'],
    ['chat: empty body', '/v1/chat/completions', '', null, 'invalid_json'],
    [
      'chat: model missing',
      '/v1/chat/completions',
      { messages: chat.messages },
      'model',
      'missing_required_parameter',
    ],
    [
      'chat: model not a string',
      '/v1/chat/completions',
      { ...chat, model: 4 },
      'model',
      'invalid_type',
    ],
    [
      'chat: unknown model',
      '/v1/chat/completions',
      { ...chat, model: 'gpt-4o' },
      'model',
      'model_not_found',
    ],
    [
      'chat: embedding model',
      '/v1/chat/completions',
      { ...chat, model: 'demo-embedding' },
      'model',
      'model_not_supported',
    ],
    [
      'chat: messages missing',
      '/v1/chat/completions',
      { model: 'demo-chat' },
      'messages',
      'missing_required_parameter',
    ],
    [
      'chat: messages not an array',
      '/v1/chat/completions',
      { ...chat, messages: 'hi' },
      'messages',
      'invalid_type',
    ],
    [
      'chat: messages empty',
      '/v1/chat/completions',
      { ...chat, messages: [] },
      'messages',
      'invalid_value',
    ],
    [
      'chat: message not an object',
      '/v1/chat/completions',
      { ...chat, messages: [msg({}), 'hi'] },
      'messages[1]',
      'invalid_type',
    ],
    [
      'chat: message is null',
      '/v1/chat/completions',
      { ...chat, messages: [null] },
      'messages[0]',
      'invalid_type',
    ],
    [
      'chat: role unknown',
      '/v1/chat/completions',
      { ...chat, messages: [msg({}), msg({ role: 'robot' })] },
      'messages[1].role',
      'invalid_value',
    ],
    [
      'chat: role not a string',
      '/v1/chat/completions',
      { ...chat, messages: [msg({ role: 1 })] },
      'messages[0].role',
      'invalid_value',
    ],
    [
      'chat: role missing',
      '/v1/chat/completions',
      { ...chat, messages: [{ content: 'hi' }] },
      'messages[0].role',
      'missing_required_parameter',
    ],
    [
      'chat: content not a string',
      '/v1/chat/completions',
      { ...chat, messages: [msg({}), msg({}), msg({ content: 5 })] },
      'messages[2].content',
      'invalid_type',
    ],
    [
      'chat: content null',
      '/v1/chat/completions',
      { ...chat, messages: [msg({ content: null })] },
      'messages[0].content',
      'invalid_type',
    ],
    [
      'chat: content missing',
      '/v1/chat/completions',
      { ...chat, messages: [{ role: 'user' }] },
      'messages[0].content',
      'missing_required_parameter',
    ],
    [
      'chat: unknown message field',
      '/v1/chat/completions',
      { ...chat, messages: [msg({ tool_calls: [] })] },
      'messages[0].tool_calls',
      'unknown_parameter',
    ],
    [
      'chat: temperature a string',
      '/v1/chat/completions',
      { ...chat, temperature: '1' },
      'temperature',
      'invalid_type',
    ],
    [
      'chat: temperature null',
      '/v1/chat/completions',
      { ...chat, temperature: null },
      'temperature',
      'invalid_type',
    ],
    [
      'chat: temperature above 2',
      '/v1/chat/completions',
      { ...chat, temperature: 2.01 },
      'temperature',
      'invalid_value',
    ],
    [
      'chat: temperature below 0',
      '/v1/chat/completions',
      { ...chat, temperature: -0.1 },
      'temperature',
      'invalid_value',
    ],
    [
      'chat: max_tokens 0',
      '/v1/chat/completions',
      { ...chat, max_tokens: 0 },
      'max_tokens',
      'invalid_value',
    ],
    [
      'chat: max_tokens fractional',
      '/v1/chat/completions',
      { ...chat, max_tokens: 1.5 },
      'max_tokens',
      'invalid_type',
    ],
    [
      'chat: max_tokens a string',
      '/v1/chat/completions',
      { ...chat, max_tokens: '10' },
      'max_tokens',
      'invalid_type',
    ],
    [
      'chat: stream not boolean',
      '/v1/chat/completions',
      { ...chat, stream: 'yes' },
      'stream',
      'invalid_type',
    ],
    [
      'chat: stream_options without stream',
      '/v1/chat/completions',
      { ...chat, stream_options: { include_usage: true } },
      'stream_options',
      'invalid_value',
    ],
    [
      'chat: include_usage not boolean',
      '/v1/chat/completions',
      streamRequest({ stream_options: { include_usage: 1 } }),
      'stream_options.include_usage',
      'invalid_type',
    ],
    [
      'chat: unknown stream option',
      '/v1/chat/completions',
      streamRequest({ stream_options: { chunk_size: 1 } }),
      'stream_options.chunk_size',
      'unknown_parameter',
    ],
    ['chat: n above 1', '/v1/chat/completions', { ...chat, n: 2 }, 'n', 'unsupported_value'],
    [
      'chat: unknown field',
      '/v1/chat/completions',
      { ...chat, functions: [] },
      'functions',
      'unknown_parameter',
    ],
    [
      'embeddings: input missing',
      '/v1/embeddings',
      { model: 'demo-embedding' },
      'input',
      'missing_required_parameter',
    ],
    [
      'embeddings: input a number',
      '/v1/embeddings',
      { ...embed, input: 5 },
      'input',
      'invalid_type',
    ],
    [
      'embeddings: input empty string',
      '/v1/embeddings',
      { ...embed, input: '' },
      'input',
      'invalid_value',
    ],
    [
      'embeddings: input empty array',
      '/v1/embeddings',
      { ...embed, input: [] },
      'input',
      'invalid_value',
    ],
    [
      'embeddings: input with a number',
      '/v1/embeddings',
      { ...embed, input: ['a', 3] },
      'input[1]',
      'invalid_type',
    ],
    [
      'embeddings: input with an empty string',
      '/v1/embeddings',
      { ...embed, input: ['a', 'b', ''] },
      'input[2]',
      'invalid_value',
    ],
    [
      'embeddings: token arrays',
      '/v1/embeddings',
      { ...embed, input: [[1, 2]] },
      'input[0]',
      'invalid_type',
    ],
    [
      'embeddings: model missing',
      '/v1/embeddings',
      { input: 'hi' },
      'model',
      'missing_required_parameter',
    ],
    [
      'embeddings: chat model',
      '/v1/embeddings',
      { ...embed, model: 'demo-chat' },
      'model',
      'model_not_supported',
    ],
    [
      'embeddings: unknown model',
      '/v1/embeddings',
      { ...embed, model: 'text-embedding-3-small' },
      'model',
      'model_not_found',
    ],
    [
      'embeddings: encoding_format unknown',
      '/v1/embeddings',
      { ...embed, encoding_format: 'hex' },
      'encoding_format',
      'invalid_value',
    ],
    [
      'embeddings: dimensions 0',
      '/v1/embeddings',
      { ...embed, dimensions: 0 },
      'dimensions',
      'invalid_value',
    ],
    [
      'embeddings: dimensions too many',
      '/v1/embeddings',
      { ...embed, dimensions: 257 },
      'dimensions',
      'invalid_value',
    ],
    [
      'embeddings: unknown field',
      '/v1/embeddings',
      { ...embed, truncate: true },
      'truncate',
      'unknown_parameter',
    ],
    [
      'images: prompt missing',
      '/v1/images/generations',
      { model: 'demo-image' },
      'prompt',
      'missing_required_parameter',
    ],
    [
      'images: prompt not a string',
      '/v1/images/generations',
      { ...image, prompt: 5 },
      'prompt',
      'invalid_type',
    ],
    [
      'images: prompt blank',
      '/v1/images/generations',
      { ...image, prompt: '   ' },
      'prompt',
      'invalid_value',
    ],
    [
      'images: model missing',
      '/v1/images/generations',
      { prompt: 'hi' },
      'model',
      'missing_required_parameter',
    ],
    [
      'images: chat model',
      '/v1/images/generations',
      { ...image, model: 'demo-chat' },
      'model',
      'model_not_supported',
    ],
    [
      'images: size with capital X',
      '/v1/images/generations',
      { ...image, size: '512X512' },
      'size',
      'invalid_value',
    ],
    [
      'images: size one number',
      '/v1/images/generations',
      { ...image, size: '512' },
      'size',
      'invalid_value',
    ],
    [
      'images: size with spaces',
      '/v1/images/generations',
      { ...image, size: '512 x 512' },
      'size',
      'invalid_value',
    ],
    [
      'images: size zero',
      '/v1/images/generations',
      { ...image, size: '0x512' },
      'size',
      'invalid_value',
    ],
    [
      'images: size negative',
      '/v1/images/generations',
      { ...image, size: '-512x512' },
      'size',
      'invalid_value',
    ],
    [
      'images: size too big',
      '/v1/images/generations',
      { ...image, size: '4096x4096' },
      'size',
      'invalid_value',
    ],
    [
      'images: size too small',
      '/v1/images/generations',
      { ...image, size: '32x64' },
      'size',
      'invalid_value',
    ],
    [
      'images: size a number',
      '/v1/images/generations',
      { ...image, size: 512 },
      'size',
      'invalid_type',
    ],
    ['images: n above 4', '/v1/images/generations', { ...image, n: 5 }, 'n', 'invalid_value'],
    ['images: n 0', '/v1/images/generations', { ...image, n: 0 }, 'n', 'invalid_value'],
    [
      'images: response_format unknown',
      '/v1/images/generations',
      { ...image, response_format: 'png' },
      'response_format',
      'invalid_value',
    ],
    [
      'images: unknown field',
      '/v1/images/generations',
      { ...image, quality: 'hd' },
      'quality',
      'unknown_parameter',
    ],
  ];

  it.each(cases)('%s -> 400', async (_name, path, body, param, code) => {
    const response = await call(relay, path, typeof body === 'string' ? { raw: body } : { body });
    const error = await expectError(response, 400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.param).toBe(param);
    expect(error.code).toBe(code);
  });

  it('says what a size must look like and its range', async () => {
    const error = await expectError(
      await call(relay, '/v1/images/generations', { body: { ...image, size: '4096x4096' } }),
      400,
    );
    expect(error.message).toContain('64');
    expect(error.message).toContain('2048');
  });

  it.each([
    ['temperature 0', { ...chat, temperature: 0 }],
    ['temperature 2', { ...chat, temperature: 2 }],
    ['max_tokens 1', { ...chat, max_tokens: 1 }],
    ['stream false', { ...chat, stream: false }],
    ['the fields the official client may add', { ...chat, user: 'u1', n: 1, top_p: 0.5, seed: 7 }],
    [
      'system and assistant roles, with a name',
      {
        ...chat,
        messages: [
          { role: 'system', content: '' },
          { role: 'assistant', content: 'a', name: 'bot' },
          ...chat.messages,
        ],
      },
    ],
  ])('accepts chat with %s', async (_name, body) => {
    expect((await call(relay, '/v1/chat/completions', { body })).status).toBe(200);
  });

  it('does not charge a request it rejects, and charges one it answers', async () => {
    const key = relay.keys[0]!;
    const before = relay.balanceOf(key)!;
    await call(relay, '/v1/chat/completions', { body: { ...chat, temperature: 9 } });
    await call(relay, '/v1/chat/completions', { raw: 'not json' });
    expect(relay.balanceOf(key)).toBe(before);
    await call(relay, '/v1/chat/completions', { body: chat });
    expect(relay.balanceOf(key)).toBeCloseTo(before - relay.settings.cost, 9);
  });

  it('refuses a body above its size limit with 413', async () => {
    const huge = JSON.stringify({ ...embed, input: 'x'.repeat(9 * 1024 * 1024) });
    const error = await expectError(await call(relay, '/v1/embeddings', { raw: huge }), 413);
    expect(error.code).toBe('request_too_large');
  });
});

describe('canonical answers', () => {
  let relay: DemoRelay;
  beforeAll(async () => {
    relay = await startDemoRelay({ tokensPerSecond: 0 });
  });
  afterAll(() => relay.close());

  it('lists models in the canonical shape', async () => {
    const response = await call(relay, '/v1/models');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      object: 'list',
      data: [
        'demo-chat',
        'demo-chat-fast',
        'demo-chat-mini',
        'demo-tools',
        'demo-vision',
        'demo-embedding',
        'demo-embedding-small',
        'demo-image',
      ].map((id) => ({
        id,
        object: 'model',
        created: 1763700000,
        owned_by: 'demo-relay',
        // Chat models say what they read (only the vision model takes images) and what they
        // use (only the tool model calls tools).
        ...(id.startsWith('demo-chat') || id === 'demo-vision' || id === 'demo-tools'
          ? {
              architecture: {
                input_modalities: id === 'demo-vision' ? ['text', 'image'] : ['text'],
              },
              supported_parameters: [
                'max_tokens',
                'temperature',
                ...(id === 'demo-tools' ? ['tools', 'tool_choice', 'parallel_tool_calls'] : []),
              ],
            }
          : {}),
      })),
    });
  });

  it('answers a chat completion in the canonical shape', async () => {
    const body = await okJson<Completion>(call(relay, '/v1/chat/completions', { body: chat }));
    expect(Object.keys(body).sort()).toEqual([
      'choices',
      'created',
      'id',
      'model',
      'object',
      'usage',
    ]);
    expect(body.id).toMatch(/^chatcmpl-\d+$/);
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('demo-chat');
    expect(Number.isInteger(body.created)).toBe(true);
    expect(body.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: expect.stringContaining('## Hi') },
        finish_reason: 'stop',
      },
    ]);
    const { prompt_tokens, completion_tokens, total_tokens } = body.usage;
    expect(total_tokens).toBe(prompt_tokens + completion_tokens);
  });

  it('cuts a reply at max_tokens with finish_reason length', async () => {
    const body = await okJson<Completion>(
      call(relay, '/v1/chat/completions', { body: { ...chat, max_tokens: 3 } }),
    );
    expect(body.choices[0]!.finish_reason).toBe('length');
    expect(body.choices[0]!.message.content).toMatch(/^## Hi\n\n\w+$/);
    expect(body.usage.completion_tokens).toBe(3);
  });

  it('answers embeddings as floats by default and as base64 float32 on request', async () => {
    const floats = await okJson<EmbeddingList>(
      call(relay, '/v1/embeddings', { body: { ...embed, input: ['a b', 'c'] } }),
    );
    expect(Object.keys(floats).sort()).toEqual(['data', 'model', 'object', 'usage']);
    expect(floats.object).toBe('list');
    expect(floats.model).toBe('demo-embedding');
    expect(floats.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    expect(floats.data.map((entry) => [entry.object, entry.index, entry.embedding.length])).toEqual(
      [
        ['embedding', 0, 256],
        ['embedding', 1, 256],
      ],
    );

    const packed = await okJson<EmbeddingList>(
      call(relay, '/v1/embeddings', {
        body: { ...embed, input: ['a b', 'c'], encoding_format: 'base64', dimensions: 64 },
      }),
    );
    const bytes = Buffer.from(packed.data[0]!.embedding as string, 'base64');
    expect(bytes.length).toBe(64 * 4);
    const values = Array.from({ length: 64 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(Math.hypot(...values)).toBeCloseTo(1, 5);
  });

  it('generates images: 512x512 by default, several when n asks', async () => {
    const one = await okJson<ImageList>(
      call(relay, '/v1/images/generations', { body: { model: 'demo-image', prompt: 'sky' } }),
    );
    expect(Object.keys(one).sort()).toEqual(['created', 'data']);
    const png = Buffer.from(one.data[0]!.b64_json!, 'base64');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);

    const four = await okJson<ImageList>(
      call(relay, '/v1/images/generations', { body: { ...image, n: 4 } }),
    );
    expect(four.data).toHaveLength(4);
    expect(new Set(four.data.map((entry) => entry.b64_json)).size).toBe(4);
  });

  it('serves image links without a key, and 404 for an unknown link', async () => {
    const body = await okJson<ImageList>(
      call(relay, '/v1/images/generations', { body: { ...image, response_format: 'url' } }),
    );
    expect(Object.keys(body.data[0]!)).toEqual(['url']);
    const download = await fetch(body.data[0]!.url!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    const error = await expectError(await fetch(`${relay.url}/files/${'0'.repeat(32)}.png`), 404);
    expect(error.code).toBe('not_found');
  });
});

describe('streaming', () => {
  let relay: DemoRelay;
  beforeAll(async () => {
    relay = await startDemoRelay({ tokensPerSecond: 0 });
  });
  afterAll(() => relay.close());

  it('frames the stream exactly as the canonical event stream', async () => {
    const response = await call(relay, '/v1/chat/completions', { body: streamRequest() });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('connection')).toBe('keep-alive');

    const payloads = events(await response.text());
    expect(payloads.at(-1)).toBe('[DONE]');
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));
    const [first, ...rest] = chunks;
    const last = rest.pop();
    const id = first.id;
    expect(id).toMatch(/^chatcmpl-\d+$/);
    for (const chunk of chunks) {
      expect(Object.keys(chunk)).toEqual(['id', 'object', 'created', 'model', 'choices']);
      expect(chunk).toMatchObject({ id, object: 'chat.completion.chunk', model: 'demo-chat' });
    }
    expect(first.choices).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
    ]);
    for (const chunk of rest) {
      expect(chunk.choices).toEqual([
        { index: 0, delta: { content: expect.any(String) }, finish_reason: null },
      ]);
      expect(chunk.choices[0].delta.content).not.toBe('');
    }
    expect(last.choices).toEqual([{ index: 0, delta: {}, finish_reason: 'stop' }]);

    const plain = await okJson<Completion>(call(relay, '/v1/chat/completions', { body: chat }));
    expect(rest.map((chunk) => chunk.choices[0].delta.content).join('')).toBe(
      plain.choices[0]!.message.content,
    );
  });

  it('adds the usage chunk with include_usage, after finish_reason and before [DONE]', async () => {
    const response = await call(relay, '/v1/chat/completions', {
      body: streamRequest({ stream_options: { include_usage: true }, max_tokens: 4 }),
    });
    const payloads = events(await response.text());
    expect(payloads).toHaveLength(1 + 4 + 1 + 1 + 1);
    const finish = JSON.parse(payloads[5]!);
    expect(finish.choices[0].finish_reason).toBe('length');
    const usage = JSON.parse(payloads[6]!);
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual({
      prompt_tokens: expect.any(Number),
      completion_tokens: 4,
      total_tokens: usage.usage.prompt_tokens + 4,
    });
    expect(payloads[7]).toBe('[DONE]');
  });

  it('paces a stream at tokensPerSecond, and demo-chat-fast does not wait', async () => {
    const paced = await fresh({ tokensPerSecond: 100 });
    const started = performance.now();
    await (
      await call(paced, '/v1/chat/completions', { body: streamRequest({ max_tokens: 21 }) })
    ).text();
    // 21 pieces at 100 a second: the last one is due 200 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);

    const quick = performance.now();
    await (
      await call(paced, '/v1/chat/completions', {
        body: streamRequest({ model: 'demo-chat-fast', max_tokens: 21 }),
      })
    ).text();
    expect(performance.now() - quick).toBeLessThan(150);
  });

  it('survives a client that leaves in the middle of a stream', async () => {
    const lines: string[] = [];
    const paced = await fresh({ tokensPerSecond: 200, log: (line) => lines.push(line) });
    const controller = new AbortController();
    const response = await fetch(`${paced.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${paced.keys[0]}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(streamRequest()),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await sleep(50);
    expect(lines[0]).toMatch(/closed early/);
    expect((await call(paced, '/v1/models')).status).toBe(200);
  });

  it('waits latencyMs before answering', async () => {
    const slow = await fresh({ latencyMs: 120 });
    const started = performance.now();
    await (await call(slow, '/v1/models')).json();
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });
});

describe('authentication', () => {
  let relay: DemoRelay;
  beforeAll(async () => {
    relay = await startDemoRelay({ keys: ['sk-demo-one', 'sk-demo-two'] });
  });
  afterAll(() => relay.close());

  it.each([
    ['no Authorization header', null],
    ['an unknown key', 'sk-demo-unknown-key'],
    ['a key that differs in case', 'SK-DEMO-ONE'],
  ])('answers 401 for %s without echoing the key', async (_name, key) => {
    const response = await call(relay, '/v1/chat/completions', { body: chat, key });
    const text = await response.clone().text();
    const error = await expectError(response, 401);
    expect(error).toMatchObject({
      type: 'authentication_error',
      code: 'invalid_api_key',
      param: null,
    });
    if (key) expect(text).not.toContain(key);
    expect(response.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it('answers 401 for a malformed Authorization header', async () => {
    const response = await fetch(`${relay.url}/v1/models`, {
      headers: { Authorization: 'Basic sk-demo-one' },
    });
    await expectError(response, 401);
  });

  it('accepts every configured key', async () => {
    expect((await call(relay, '/v1/models', { key: 'sk-demo-one' })).status).toBe(200);
    expect((await call(relay, '/v1/models', { key: 'sk-demo-two' })).status).toBe(200);
  });
});

describe('accounts', () => {
  it('draws the cost per request and answers 402 once the balance is too low', async () => {
    const relay = await fresh({ balance: 0.25, cost: 0.1 });
    const key = relay.keys[0]!;
    expect(relay.keys[0]).toMatch(/^sk-demo-[0-9a-f]{32}$/);
    expect((await call(relay, '/v1/chat/completions', { body: chat })).status).toBe(200);
    expect(relay.balanceOf(key)).toBeCloseTo(0.15, 9);
    expect((await call(relay, '/v1/embeddings', { body: embed })).status).toBe(200);
    expect(relay.balanceOf(key)).toBeCloseTo(0.05, 9);

    const response = await call(relay, '/v1/chat/completions', { body: chat });
    const error = await expectError(response, 402);
    expect(error).toMatchObject({ code: 'insufficient_balance', param: null });
    expect(response.headers.get('x-ratelimit-remaining-requests')).not.toBeNull();
    expect(relay.balanceOf(key)).toBeCloseTo(0.05, 9);

    relay.setBalance(key, 1);
    expect((await call(relay, '/v1/chat/completions', { body: chat })).status).toBe(200);
    expect(relay.balanceOf(key)).toBeCloseTo(0.9, 9);
    expect(relay.balanceOf('sk-demo-not-a-key')).toBeUndefined();
  });

  it('checks the balance before the body, so an empty account learns that first', async () => {
    const relay = await fresh({ balance: 0 });
    await expectError(
      await call(relay, '/v1/chat/completions', { body: { ...chat, temperature: 5 } }),
      402,
    );
  });

  it('limits the request rate per key, with Retry-After and x-ratelimit-* headers', async () => {
    const relay = await fresh({ ratePerMinute: 2, keys: ['sk-demo-a', 'sk-demo-b'] });
    const first = await call(relay, '/v1/models');
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect(first.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+(\.\d+)?(ms|s)$/);
    // A request refused by validation still counts against the rate.
    const second = await call(relay, '/v1/chat/completions', { body: { model: 'demo-chat' } });
    expect(second.status).toBe(400);
    expect(second.headers.get('x-ratelimit-remaining-requests')).toBe('0');

    const refused = await call(relay, '/v1/models');
    const error = await expectError(refused, 429);
    expect(error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(Number(refused.headers.get('retry-after-ms'))).toBeGreaterThan(29_000);
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+(\.\d+)?s$/);

    expect((await call(relay, '/v1/models', { key: 'sk-demo-b' })).status).toBe(200);
  });
});

describe('routing', () => {
  let relay: DemoRelay;
  beforeAll(async () => {
    relay = await startDemoRelay();
  });
  afterAll(() => relay.close());

  it.each([
    '/',
    '/v1',
    '/v1/completions',
    '/v1/models/demo-chat',
    '/v2/models',
    '/v1/chat/completions/',
  ])('answers 404 with the canonical body for %s', async (path) => {
    const error = await expectError(await call(relay, path), 404);
    expect(error.code).toBe('unknown_url');
  });

  it.each([
    ['GET', '/v1/chat/completions', 'POST'],
    ['PUT', '/v1/embeddings', 'POST'],
    ['DELETE', '/v1/images/generations', 'POST'],
    ['POST', '/v1/models', 'GET'],
  ])('answers 405 to %s %s, naming the allowed method', async (method, path, allowed) => {
    const response = await call(relay, path, { method, raw: method === 'GET' ? undefined : '{}' });
    const error = await expectError(response, 405);
    expect(error.code).toBe('method_not_allowed');
    expect(response.headers.get('allow')).toBe(allowed);
  });
});

/** A GET with a Host header of the test's choosing (fetch sets its own). */
function getWithHost(
  relay: DemoRelay,
  path: string,
  host: string | undefined,
): Promise<{ status: number; contentType: string | undefined; body: string }> {
  const { port } = new URL(relay.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        setHost: false,
        headers: {
          ...(host === undefined ? {} : { Host: host }),
          Authorization: `Bearer ${relay.keys[0]}`,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the Host header (DNS rebinding)', () => {
  let relay: DemoRelay;
  beforeAll(async () => {
    relay = await startDemoRelay();
  });
  afterAll(() => relay.close());

  it('answers the names of this machine with its own port', async () => {
    const { port } = new URL(relay.url);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LocalHost:${port}`,
      `[::1]:${port}`,
    ])
      expect((await getWithHost(relay, '/v1/models', host)).status, host).toBe(200);
  });

  it.each([
    ['another name that resolves here', 'attacker.example:PORT'],
    ['a name ending in localhost', 'localhost.attacker.example:PORT'],
    ['another port', '127.0.0.1:1'],
    ['no port', 'localhost'],
    ['an empty Host', ''],
  ])('refuses %s with the canonical error body', async (_name, template) => {
    const { port } = new URL(relay.url);
    const answer = await getWithHost(relay, '/v1/models', template.replace('PORT', port));
    expect([400, 421]).toContain(answer.status);
    expect(answer.contentType).toBe('application/json');
    const body = JSON.parse(answer.body) as { error: Record<string, unknown> };
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(body.error.message).toMatch(/Host/);
  });

  it('refuses image links by another name too', async () => {
    const { port } = new URL(relay.url);
    const answer = await getWithHost(relay, `/files/${'0'.repeat(32)}.png`, `evil.example:${port}`);
    expect([400, 421]).toContain(answer.status);
  });
});

describe('models that differ, for comparing', () => {
  it('the mini model answers a few plain sentences; the default one a structured reply', async () => {
    const relay = await fresh();
    const ask = (model: string, temperature?: number) =>
      okJson<Completion>(
        call(relay, '/v1/chat/completions', {
          body: { ...chat, model, ...(temperature === undefined ? {} : { temperature }) },
        }),
      ).then((c) => c.choices[0]!.message.content);
    const mini = await ask('demo-chat-mini');
    const full = await ask('demo-chat');
    expect(mini).not.toContain('###');
    expect(mini).toContain('small demo model');
    expect(full).toContain('### What you sent');
    expect(mini.length).toBeLessThan(full.length / 2);
    // The same prompt at another temperature reads differently, and says so; each is repeatable.
    const cool = await ask('demo-chat', 0.2);
    expect(cool).not.toBe(full);
    expect(cool).toContain('Sampled at temperature 0.2');
    await expect(ask('demo-chat', 0.2)).resolves.toBe(cool);
    await expect(ask('demo-chat-mini', 1.5)).resolves.toContain('(Temperature 1.5.)');
  });
});

describe('faults', () => {
  it.each([500, 502, 503, 429, 402])(
    'answers every request with status %i and the canonical body',
    async (status) => {
      const relay = await fresh({ faults: { status } });
      for (const path of ['/v1/models', '/v1/chat/completions']) {
        const response = await call(relay, path, path === '/v1/models' ? {} : { body: chat });
        const error = await expectError(response, status);
        expect(error.message).toContain('injected fault');
        if (status === 429) expect(response.headers.get('retry-after')).toBe('1');
      }
    },
  );

  it('sends an HTML page or an empty body when asked', async () => {
    const relay = await fresh({ faults: { status: 502, statusBody: 'html' } });
    const html = await call(relay, '/v1/models');
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(await html.text()).toContain('<h1>502</h1>');

    relay.setFaults({ status: 503, statusBody: 'empty' });
    const empty = await call(relay, '/v1/models');
    expect(empty.status).toBe(503);
    expect(await empty.text()).toBe('');

    relay.setFaults(undefined);
    expect((await call(relay, '/v1/models')).status).toBe(200);
  });

  it('fails only the next request with failOnce', async () => {
    const relay = await fresh();
    relay.setFaults({ status: 503, failOnce: true });
    expect((await call(relay, '/v1/models')).status).toBe(503);
    expect((await call(relay, '/v1/models')).status).toBe(200);
  });

  it('cuts the connection after N content chunks', async () => {
    const relay = await fresh({ faults: { cutAfterChunks: 3 } });
    const response = await call(relay, '/v1/chat/completions', { body: streamRequest() });
    expect(response.status).toBe(200);
    const { text, failed } = await readAll(response);
    expect(failed).toBe(true);
    const payloads = events(text);
    expect(payloads).toHaveLength(1 + 3);
    expect(text).not.toContain('finish_reason":"stop');
    expect(text).not.toContain('[DONE]');
  });

  it('ends the stream cleanly after N content chunks, without finish_reason or [DONE]', async () => {
    const relay = await fresh({ faults: { endAfterChunks: 2 } });
    const response = await call(relay, '/v1/chat/completions', { body: streamRequest() });
    const { text, failed } = await readAll(response);
    expect(failed).toBe(false);
    const payloads = events(text);
    expect(payloads).toHaveLength(1 + 2);
    expect(payloads.every((payload) => JSON.parse(payload).choices[0].finish_reason === null)).toBe(
      true,
    );
  });

  it('sends an error event after N content chunks, then ends', async () => {
    const relay = await fresh({ faults: { errorAfterChunks: 1 } });
    const response = await call(relay, '/v1/chat/completions', { body: streamRequest() });
    const { text, failed } = await readAll(response);
    expect(failed).toBe(false);
    const payloads = events(text);
    expect(payloads).toHaveLength(1 + 1 + 1);
    const error = JSON.parse(payloads[2]!);
    expect(Object.keys(error)).toEqual(['error']);
    expect(error.error).toMatchObject({ type: 'server_error', code: 'stream_error', param: null });
  });

  it('strikes after the last chunk when N is beyond the reply, and failOnce clears stream faults', async () => {
    const relay = await fresh({ faults: { endAfterChunks: 10_000, failOnce: true } });
    const first = events(
      (await readAll(await call(relay, '/v1/chat/completions', { body: streamRequest() }))).text,
    );
    expect(first.at(-1)).not.toBe('[DONE]');
    // A plain JSON answer is not affected and does not use up the fault...
    expect((await call(relay, '/v1/chat/completions', { body: chat })).status).toBe(200);
    // ...and the fault, once used, is gone.
    const second = events(
      await (await call(relay, '/v1/chat/completions', { body: streamRequest() })).text(),
    );
    expect(second.at(-1)).toBe('[DONE]');
  });

  it('stalls after the headers, and close() still returns promptly', async () => {
    const relay = await startDemoRelay({ faults: { stallAfterHeaders: true } });
    const stream = await call(relay, '/v1/chat/completions', { body: streamRequest() });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const json = await call(relay, '/v1/models');
    expect(json.status).toBe(200);
    const reads = Promise.all([readAll(stream), readAll(json)]);
    const nothingYet = await Promise.race([
      reads.then(() => 'ended'),
      sleep(150).then(() => 'waiting'),
    ]);
    expect(nothingYet).toBe('waiting');

    const started = performance.now();
    await relay.close();
    expect(performance.now() - started).toBeLessThan(1000);
    const [streamRead, jsonRead] = await reads;
    expect(streamRead).toEqual({ text: '', failed: true });
    expect(jsonRead.failed).toBe(true);
    await expect(fetch(`${relay.url}/v1/models`)).rejects.toThrow();
  });

  it('closes promptly with a slow stream in flight', async () => {
    const relay = await startDemoRelay({ tokensPerSecond: 1 });
    const stream = await call(relay, '/v1/chat/completions', { body: streamRequest() });
    const read = readAll(stream);
    await sleep(50);
    const started = performance.now();
    await relay.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await read).failed).toBe(true);
  });

  it('answers 500 with the canonical body when the relay throws, refunds, and keeps serving', async () => {
    const relay = await fresh({ faults: { internalError: true, failOnce: true } });
    const key = relay.keys[0]!;
    const before = relay.balanceOf(key);
    const error = await expectError(await call(relay, '/v1/chat/completions', { body: chat }), 500);
    expect(error).toMatchObject({ type: 'server_error', code: 'internal_error' });
    expect(relay.balanceOf(key)).toBe(before);
    expect((await call(relay, '/v1/chat/completions', { body: chat })).status).toBe(200);
  });

  it('strikes only requests for the models named in faults.models, the others go on', async () => {
    const relay = await fresh({ faults: { status: 429, models: ['demo-chat-mini'] } });
    const mini = await call(relay, '/v1/chat/completions', {
      body: { ...chat, model: 'demo-chat-mini' },
    });
    await expectError(mini, 429);
    expect((await call(relay, '/v1/chat/completions', { body: chat })).status).toBe(200);
    // Requests with no model (the list) are not concerned.
    expect((await call(relay, '/v1/models')).status).toBe(200);
    expect(() => relay.setFaults({ status: 500, models: [''] })).toThrow(RangeError);
  });

  it('refuses fault settings that make no sense', async () => {
    const relay = await fresh();
    expect(() => relay.setFaults({ status: 200 })).toThrow(RangeError);
    expect(() => relay.setFaults({ cutAfterChunks: -1 })).toThrow(RangeError);
    await expect(startDemoRelay({ ratePerMinute: 0 })).rejects.toThrow(RangeError);
  });
});

describe('request log', () => {
  it('logs one line per request and never the key', async () => {
    const lines: string[] = [];
    const relay = await fresh({ keys: ['sk-demo-secret-123'], log: (line) => lines.push(line) });
    await (await call(relay, '/v1/models')).text();
    await (
      await call(relay, '/v1/chat/completions', { body: chat, key: 'sk-demo-other-456' })
    ).text();
    await sleep(20);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/v1\/models 200 \d+ms key#1$/);
    expect(lines[1]).toMatch(/^POST \/v1\/chat\/completions 401 /);
    expect(lines.join('\n')).not.toMatch(/secret-123|other-456/);
  });
});

describe('command line', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
  const cli = 'electron/demo-relay/cli.ts';

  function run(args: string[]) {
    const child = spawn(tsx, [cli, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    return { child, exited, output: () => ({ stdout, stderr }) };
  }

  it('starts, prints its address and settings, answers, and stops on SIGTERM', async () => {
    const relay = run([
      '--port',
      '0',
      '--key',
      'sk-demo-cli',
      '--balance',
      '5',
      '--rate',
      '30',
      '--quiet',
    ]);
    try {
      // The banner is written a line at a time: wait for its last line, not just the first.
      for (let waited = 0; waited < 15_000; waited += 50) {
        if (relay.output().stdout.includes('Press Ctrl+C to stop.')) break;
        await sleep(50);
      }
      const url = /listening on (http:\/\/\S+)/.exec(relay.output().stdout)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const { stdout } = relay.output();
      expect(stdout).toContain('sk-demo-cli');
      expect(stdout).toMatch(/Balance: 5 credits/);
      expect(stdout).toMatch(/costs 0\.01/);
      expect(stdout).toMatch(/30 requests per minute/);

      const response = await fetch(`${url}/v1/models`, {
        headers: { Authorization: 'Bearer sk-demo-cli' },
      });
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      relay.child.kill('SIGTERM');
    }
    expect(await relay.exited).toBe(0);
  });

  it.each([
    [['--rate', '0'], '--rate'],
    [['--port', 'eighty'], '--port'],
    [['--balance', '-1'], '--balance'],
    [['--no-such-option'], 'no-such-option'],
  ])('rejects %j with exit code 2', async (args, mention) => {
    const relay = run(args);
    expect(await relay.exited).toBe(2);
    expect(relay.output().stderr).toContain(mention);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
