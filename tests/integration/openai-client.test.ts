/**
 * The official `openai` npm client, unchanged, against the demo relay: the proof that the relay
 * speaks the canonical wire format (wire-conventions.md) that real clients expect.
 */
import { inflateSync } from 'node:zlib';
import OpenAI, { APIError, AuthenticationError, BadRequestError, RateLimitError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';

let relay: DemoRelay;
let client: OpenAI;

beforeAll(async () => {
  relay = await startDemoRelay({ tokensPerSecond: 0, ratePerMinute: 1000 });
  client = new OpenAI({ baseURL: `${relay.url}/v1`, apiKey: relay.keys[0]!, maxRetries: 0 });
});
afterAll(() => relay.close());

/** Width and height from a PNG's IHDR, after checking it is a PNG whose pixels inflate. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idatLength = png.readUInt32BE(33);
  expect(png.toString('latin1', 37, 41)).toBe('IDAT');
  expect(inflateSync(png.subarray(41, 41 + idatLength)).length).toBe((width * 3 + 1) * height);
  return { width, height };
}

describe('the official openai client against the demo relay', () => {
  it('lists the demo models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      expect(model.object).toBe('model');
      expect(model.owned_by).toBe('demo-relay');
      ids.push(model.id);
    }
    expect(ids).toEqual([
      'demo-chat',
      'demo-chat-fast',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
      'demo-embedding',
      'demo-embedding-small',
      'demo-image',
    ]);
  });

  it('streams the same text it answers without streaming', async () => {
    const messages = [{ role: 'user' as const, content: 'Compare streaming and plain replies' }];
    const plain = await client.chat.completions.create({ model: 'demo-chat', messages });
    expect(plain.object).toBe('chat.completion');
    expect(plain.choices[0]!.finish_reason).toBe('stop');
    expect(plain.usage!.completion_tokens).toBeGreaterThan(20);
    const text = plain.choices[0]!.message.content!;
    expect(text).toContain('| --- |');

    const stream = await client.chat.completions.create({
      model: 'demo-chat',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamed = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      const choice = chunk.choices[0];
      streamed += choice?.delta.content ?? '';
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(streamed).toBe(text);
    expect(finish).toBe('stop');
    expect(usage).toEqual(plain.usage);
  });

  it('works with the streaming helper and its final message', async () => {
    const runner = client.chat.completions.stream({
      model: 'demo-chat-fast',
      messages: [{ role: 'user', content: 'helper' }],
    });
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]!.message.content).toContain('## Helper');
  });

  it('gets the same embeddings as base64 (its default) and as floats', async () => {
    const input = ['cat', 'kitten', 'invoice'];
    const viaBase64 = await client.embeddings.create({ model: 'demo-embedding', input });
    const viaFloat = await client.embeddings.create({
      model: 'demo-embedding',
      input,
      encoding_format: 'float',
    });
    expect(viaBase64.data).toHaveLength(3);
    expect(viaBase64.usage.prompt_tokens).toBe(3);
    viaBase64.data.forEach((entry, index) => {
      const float = viaFloat.data[index]!.embedding;
      expect(entry.index).toBe(index);
      expect(entry.embedding).toHaveLength(256);
      entry.embedding.forEach((value, i) => expect(value).toBeCloseTo(float[i]!, 6));
    });
    const [cat, kitten, invoice] = viaFloat.data.map((entry) => entry.embedding);
    const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
    expect(dot(cat!, kitten!)).toBeGreaterThan(dot(cat!, invoice!));
  });

  it('generates images as base64 and as links that serve a PNG of the right size', async () => {
    const inline = await client.images.generate({
      model: 'demo-image',
      prompt: 'a quiet harbour',
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(pngSize(Buffer.from(inline.data![0]!.b64_json!, 'base64'))).toEqual({
      width: 256,
      height: 256,
    });

    const linked = await client.images.generate({
      model: 'demo-image',
      prompt: 'a quiet harbour',
      size: '320x192' as '256x256',
      response_format: 'url',
      n: 2,
    });
    expect(linked.data).toHaveLength(2);
    const url = linked.data![0]!.url!;
    expect(url.startsWith(`${relay.url}/files/`)).toBe(true);
    const download = await fetch(url);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(pngSize(Buffer.from(await download.arrayBuffer()))).toEqual({ width: 320, height: 192 });
  });

  it('raises BadRequestError naming the parameter', async () => {
    const error = await client.chat.completions
      .create({ model: 'demo-chat', messages: [{ role: 'user', content: 'x' }], temperature: 3 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).status).toBe(400);
    expect((error as BadRequestError).param).toBe('temperature');
    expect((error as BadRequestError).type).toBe('invalid_request_error');
  });

  it('raises AuthenticationError for a wrong key', async () => {
    const stranger = new OpenAI({
      baseURL: `${relay.url}/v1`,
      apiKey: 'sk-demo-wrong',
      maxRetries: 0,
    });
    const error = await stranger.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('invalid_api_key');
    expect((error as AuthenticationError).message).not.toContain('sk-demo-wrong');
  });

  it('raises an APIError with status 402 once the balance is gone', async () => {
    const poor = await startDemoRelay({ balance: 0.02, cost: 0.01 });
    try {
      const poorClient = new OpenAI({
        baseURL: `${poor.url}/v1`,
        apiKey: poor.keys[0]!,
        maxRetries: 0,
      });
      await poorClient.models.list();
      await poorClient.models.list();
      const error = await poorClient.models.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(402);
      expect((error as APIError).code).toBe('insufficient_balance');
    } finally {
      await poor.close();
    }
  });

  it('raises RateLimitError with Retry-After', async () => {
    const strict = await startDemoRelay({ ratePerMinute: 1 });
    try {
      const strictClient = new OpenAI({
        baseURL: `${strict.url}/v1`,
        apiKey: strict.keys[0]!,
        maxRetries: 0,
      });
      await strictClient.models.list();
      const error = await strictClient.models.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).headers?.get('retry-after')).toBe('60');
    } finally {
      await strict.close();
    }
  });
});

describe('function calling with the official openai client', () => {
  const sum = {
    type: 'function' as const,
    function: {
      name: 'add',
      description: 'Adds two numbers',
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
    },
  };

  it('streams tool calls the client assembles into the same calls it gets without streaming', async () => {
    const request = {
      model: 'demo-tools',
      messages: [{ role: 'user' as const, content: 'add 20 and 22' }],
      tools: [sum],
    };
    const stream = client.chat.completions.stream({ ...request, stream: true });
    const streamed = await stream.finalChatCompletion();
    const whole = await client.chat.completions.create(request);
    const [choice] = streamed.choices;
    expect(choice?.finish_reason).toBe('tool_calls');
    const calls = choice?.message.tool_calls ?? [];
    expect(
      calls.map(
        (c) => c.type === 'function' && [c.function.name, JSON.parse(c.function.arguments)],
      ),
    ).toEqual([['add', { a: 20, b: 22 }]]);
    expect(whole.choices[0]?.finish_reason).toBe('tool_calls');
    expect(whole.choices[0]?.message.content).toBeNull();
    const [wholeCall] = whole.choices[0]?.message.tool_calls ?? [];
    expect(wholeCall?.type === 'function' && wholeCall.function.arguments).toBe('{"a":20,"b":22}');
  });

  it('runs a whole tool loop (runTools): calls, results sent back, and an answer quoting them', async () => {
    const seen: unknown[] = [];
    const runner = client.chat.completions.runTools({
      model: 'demo-tools',
      messages: [{ role: 'user', content: 'What is 2 plus 3?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'add',
            description: 'Adds two numbers',
            parameters: sum.function.parameters,
            parse: JSON.parse,
            function: (input: { a: number; b: number }) => {
              seen.push(input);
              return `The sum of ${input.a} and ${input.b} is ${input.a + input.b}.`;
            },
          },
        },
      ],
    });
    const answer = await runner.finalContent();
    expect(seen).toEqual([{ a: 2, b: 3 }]);
    expect(answer).toContain('**add** answered: “The sum of 2 and 3 is 5.”');
  });
});
