/**
 * The relay client against the demo relay: the real server the app ships, with its accounts,
 * limits and fault injection.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import {
  createRelayClient,
  RelayError,
  type RelayClientOptions,
  type RetryInfo,
} from '../../electron/main/services/relay/relay-client';

const KEY = 'sk-demo-canary-0c4f9e2d7a1b';
const chatRequest = {
  model: 'demo-chat-fast',
  messages: [{ role: 'user' as const, content: 'Tell me about tables' }],
};

let relay: DemoRelay;
beforeAll(async () => {
  relay = await startDemoRelay({
    keys: [KEY, 'sk-demo-second-key-1234'],
    ratePerMinute: 10_000,
    balance: 1000,
    tokensPerSecond: 0,
  });
});
afterAll(() => relay.close());
afterEach(() => {
  relay.setFaults(undefined);
  relay.setBalance(KEY, 1000);
});

function client(options: Partial<RelayClientOptions> = {}) {
  return createRelayClient({
    baseUrl: `${relay.url}/v1`,
    apiKey: KEY,
    random: () => 0,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<RelayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RelayError);
  const relayError = error as RelayError;
  expect(
    JSON.stringify({ ...relayError, message: relayError.message, stack: relayError.stack }),
  ).not.toContain(KEY);
  return relayError;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return dot / Math.sqrt(na * nb);
}

describe('the relay client and the demo relay', () => {
  it('lists the demo models, one of each kind', async () => {
    const models = await client().listModels();
    const byId = Object.fromEntries(models.map((m) => [m.id, m.kind]));
    expect(byId).toMatchObject({
      'demo-chat': 'chat',
      'demo-chat-fast': 'chat',
      'demo-embedding': 'embedding',
      'demo-image': 'image',
    });
    expect(models.every((m) => m.ownedBy !== undefined)).toBe(true);
  });

  it('streams a markdown reply that equals the non-streamed one', async () => {
    const deltas: string[] = [];
    const streamed = await client().chat(chatRequest, { onDelta: (d) => deltas.push(d) });
    const whole = await client().chat({ ...chatRequest, stream: false });
    expect(streamed.interrupted).toBe(false);
    expect(streamed.finishReason).toBe('stop');
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join('')).toBe(streamed.content);
    expect(streamed.content).toBe(whole.content);
    expect(streamed.content).toMatch(/^#/m);
    expect(streamed.content).toContain('```');
    expect(streamed.content).toMatch(/\|.*\|/);
    expect(whole.usage?.totalTokens).toBeGreaterThan(0);
  });

  it('stops at max_tokens with finish reason length', async () => {
    const result = await client().chat({ ...chatRequest, max_tokens: 3 });
    expect(result.finishReason).toBe('length');
  });

  it('embeds with meaning: cat is nearer to kitten than to invoice', async () => {
    const { vectors, model } = await client().embed({
      model: 'demo-embedding',
      input: ['cat', 'kitten', 'invoice'],
    });
    expect(model).toBe('demo-embedding');
    const [cat, kitten, invoice] = vectors as [number[], number[], number[]];
    expect(cosine(cat, kitten)).toBeGreaterThan(cosine(cat, invoice));
  });

  it('generates a PNG of the requested size', async () => {
    const { images } = await client().generateImages({
      model: 'demo-image',
      prompt: 'a lighthouse at dusk',
      size: '96x64',
    });
    expect(images).toHaveLength(1);
    const png = Buffer.from(images[0]?.bytes ?? []);
    expect(images[0]?.mimeType).toBe('image/png');
    expect(png.readUInt32BE(16)).toBe(96);
    expect(png.readUInt32BE(20)).toBe(64);
  });

  it('a wrong key is unauthorized', async () => {
    expect(await failure(client({ apiKey: 'sk-demo-wrong-key-000' }).listModels())).toMatchObject({
      kind: 'unauthorized',
      status: 401,
    });
  });

  it('a drained balance is insufficient_balance, and is not retried', async () => {
    relay.setBalance(KEY, 0);
    const retries: RetryInfo[] = [];
    expect(
      await failure(client({ onRetry: (r) => retries.push(r) }).chat(chatRequest)),
    ).toMatchObject({ kind: 'insufficient_balance', status: 402 });
    expect(retries).toHaveLength(0);
  });

  it('the relay refuses what our own checks cannot know, naming the parameter', async () => {
    expect(await failure(client().chat({ ...chatRequest, model: 'no-such-model' }))).toMatchObject({
      kind: 'bad_request',
      param: 'model',
    });
    expect(await failure(client().embed({ model: 'demo-chat', input: 'x' }))).toMatchObject({
      kind: 'bad_request',
      param: 'model',
    });
  });

  it('retries a failure that happens once, reporting the wait', async () => {
    relay.setFaults({ status: 503, failOnce: true });
    const retries: RetryInfo[] = [];
    const result = await client({ onRetry: (r) => retries.push(r) }).chat(chatRequest);
    expect(result.interrupted).toBe(false);
    expect(retries.map((r) => r.error.status)).toEqual([503]);
  });

  it('a 502 page from a proxy is a server error after the retries', async () => {
    relay.setFaults({ status: 502, statusBody: 'html' });
    const error = await failure(client({ maxRetries: 1 }).listModels());
    expect(error).toMatchObject({ kind: 'server_error', status: 502 });
  });

  it('a cut stream keeps its text', async () => {
    relay.setFaults({ cutAfterChunks: 5 });
    const error = await failure(client().chat(chatRequest));
    expect(error.kind).toBe('network');
    expect(error.partialText?.length).toBeGreaterThan(0);
  });

  it('a stream that ends early is marked interrupted', async () => {
    relay.setFaults({ endAfterChunks: 5 });
    const result = await client().chat(chatRequest);
    expect(result.interrupted).toBe(true);
    expect(result.content.length).toBeGreaterThan(0);
  });

  it('an error event mid-stream keeps the text and shows the error', async () => {
    relay.setFaults({ errorAfterChunks: 4 });
    const error = await failure(client().chat(chatRequest));
    expect(error.partialText?.length).toBeGreaterThan(0);
    expect(error.message).toMatch(/relay reported an error/);
  });

  it('a stalled stream is ended by the idle watchdog', async () => {
    relay.setFaults({ stallAfterHeaders: true });
    const error = await failure(client({ idleTimeoutMs: 250 }).chat(chatRequest));
    expect(error.kind).toBe('timeout');
  });

  it('an internal failure of the relay is a server error', async () => {
    relay.setFaults({ internalError: true });
    expect(await failure(client({ maxRetries: 0 }).listModels())).toMatchObject({
      kind: 'server_error',
      status: 500,
    });
  });

  it('stop mid-stream aborts the request', async () => {
    const slow = await startDemoRelay({ keys: [KEY], tokensPerSecond: 50 });
    try {
      const controller = new AbortController();
      let received = 0;
      const error = await failure(
        createRelayClient({ baseUrl: slow.url, apiKey: KEY }).chat(
          { ...chatRequest, model: 'demo-chat' },
          {
            signal: controller.signal,
            onDelta: () => {
              if (++received === 3) controller.abort();
            },
          },
        ),
      );
      expect(error.kind).toBe('aborted');
      expect(error.partialText?.length).toBeGreaterThan(0);
    } finally {
      await slow.close();
    }
  });
});

describe('the demo relay rate limit', () => {
  it('answers 429 with a wait the client reports, and succeeds after it', async () => {
    const limited = await startDemoRelay({ keys: [KEY], ratePerMinute: 2 });
    try {
      const c = createRelayClient({ baseUrl: limited.url, apiKey: KEY, maxRetries: 0 });
      await c.listModels();
      await c.listModels();
      const error = await failure(c.listModels());
      expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
      expect(error.retryAfterMs).toBeGreaterThan(0);
      expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
    } finally {
      await limited.close();
    }
  });
});
