/**
 * The relay client against a scripted HTTP server: every status of the error table, every
 * "tolerate" case of wire-conventions.md, retries, cancellation and the watchdogs.
 */
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createRelayClient,
  RelayError,
  type RelayClientOptions,
  type RetryInfo,
} from '../../electron/main/services/relay/relay-client';
import { createRequestLimiter } from '../../electron/main/services/relay/limiter';
import {
  canonicalStream,
  contentChunk,
  finishChunk,
  jsonError,
  sseHeaders,
  startScriptedServer,
  writeInPieces,
  type ScriptedServer,
} from '../fakes/scripted-server';

const KEY = 'sk-canary-7f3a9c1e55d04b2a';
const hi = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function client(options: Partial<RelayClientOptions> = {}) {
  return createRelayClient({ baseUrl: server.url, apiKey: KEY, random: () => 0, ...options });
}

async function failure(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    return error as RelayError;
  }
  throw new Error('expected the call to fail');
}

function expectNoKey(error: RelayError): void {
  const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack });
  expect(everything).not.toContain(KEY);
  expect(everything).not.toContain(KEY.slice(3));
}

describe('requests', () => {
  it('sends the bearer key, JSON body, event-stream accept, only the listed fields, and streams by default', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(canonicalStream(['Hi']));
    });
    await client({ baseUrl: `${server.url}/v1/` }).chat({ ...hi, temperature: 0.2, max_tokens: 5 });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      ...hi,
      temperature: 0.2,
      max_tokens: 5,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('asks a streamed reply for its usage, and a relay that refuses the field again without it, once', async () => {
    server.handle((req, res) => {
      if (req.body.includes('stream_options')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: {
              message: 'Unrecognized request argument supplied: stream_options',
              type: 'invalid_request_error',
              param: 'stream_options',
              code: null,
            },
          }),
        );
        return;
      }
      sseHeaders(res);
      res.end(canonicalStream(['Hi']));
    });
    const relay = client({ baseUrl: `${server.url}/strict` });
    await expect(relay.chat(hi)).resolves.toMatchObject({ content: 'Hi' });
    await expect(relay.chat(hi)).resolves.toMatchObject({ content: 'Hi' });
    expect(server.requests.map((r) => 'stream_options' in JSON.parse(r.body))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('sends GET /v1/models with no body', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    );
    await client().listModels();
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models', body: '' });
    expect(server.requests[0]?.headers['content-type']).toBeUndefined();
  });

  it('keeps a mount point in the path', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    );
    await client({ baseUrl: `${server.url}/openai/v1` }).listModels();
    expect(server.requests[0]?.path).toBe('/openai/v1/models');
  });

  it('asks a key function for the key on every attempt, so a replaced key is used', async () => {
    const keys = ['sk-first-key-000001', 'sk-second-key-00002'];
    let calls = 0;
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    );
    server.handleSequence([
      (_req, res) => jsonError(res, 503, { message: 'busy' }, { 'retry-after-ms': '1' }),
    ]);
    await client({ apiKey: async () => keys[calls++] as string }).listModels();
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(
      keys.map((k) => `Bearer ${k}`),
    );
  });

  it('refuses a request that breaks the spec before sending anything', async () => {
    const c = client();
    expect(await failure(c.chat({ ...hi, temperature: 2.5 }))).toMatchObject({
      kind: 'bad_request',
      param: 'temperature',
    });
    expect(await failure(c.chat({ ...hi, max_tokens: 0 }))).toMatchObject({
      kind: 'bad_request',
      param: 'max_tokens',
    });
    expect(await failure(c.chat({ ...hi, max_tokens: 1.5 }))).toMatchObject({
      param: 'max_tokens',
    });
    expect(await failure(c.chat({ model: 'm', messages: [] }))).toMatchObject({
      param: 'messages',
    });
    expect(
      await failure(c.chat({ model: 'm', messages: [{ role: 'robot', content: 'x' }] } as never)),
    ).toMatchObject({ param: 'messages[0].role' });
    expect(await failure(c.chat({ ...hi, tools: [] } as never))).toMatchObject({
      kind: 'bad_request',
      message: expect.stringMatching(/tools/),
    });
    expect(await failure(c.embed({ model: 'e', input: ['a', ''] }))).toMatchObject({
      param: 'input[1]',
    });
    expect(await failure(c.embed({ model: 'e', input: [] }))).toMatchObject({ param: 'input' });
    expect(
      await failure(c.generateImages({ model: 'i', prompt: 'p', size: '1024X1024' })),
    ).toMatchObject({ param: 'size' });
    expect(await failure(c.generateImages({ model: 'i', prompt: '  ' }))).toMatchObject({
      param: 'prompt',
    });
    expect(await failure(c.chat({ ...hi, model: '' }))).toMatchObject({ param: 'model' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('redirects and unencrypted addresses', () => {
  it.each([301, 302, 303, 307, 308])(
    'never follows a %i: the key is not sent on, and the error names where it pointed',
    async (status) => {
      const other = await startScriptedServer();
      try {
        other.handle((_req, res) => res.end('{"data":[]}'));
        server.handle((_req, res) => {
          res.writeHead(status, { location: `${other.url}/v1/models?token=secret-token-1` });
          res.end();
        });
        const error = await failure(client().listModels());
        expect(error).toMatchObject({ kind: 'bad_response', code: 'redirect_refused' });
        expect(error.message).toContain(`redirect to ${other.url}/v1/models?…`);
        expect(error.message).not.toContain('secret-token-1');
        expect(other.requests).toHaveLength(0);
        expectNoKey(error);
        // POSTs too: chat, embeddings and images.
        await failure(client().chat(hi));
        await failure(client().embed({ model: 'e', input: 'x' }));
        await failure(client().generateImages({ model: 'i', prompt: 'p' }));
        expect(other.requests).toHaveLength(0);
      } finally {
        await other.close();
      }
    },
  );

  it('names a redirect that the fetch itself refused (Electron cancels at a manual redirect)', async () => {
    const error = await failure(
      client({
        fetch: () => Promise.reject(new Error('Redirect was cancelled')),
      }).listModels(),
    );
    expect(error).toMatchObject({ kind: 'bad_response', code: 'redirect_refused' });
  });

  it('asks the fetch not to follow redirects', async () => {
    const seen: RequestInit[] = [];
    await failure(
      client({
        fetch: (_url, init) => (seen.push(init), Promise.reject(new Error('offline'))),
        maxRetries: 0,
      }).listModels(),
    );
    expect(seen[0]?.redirect).toBe('manual');
  });

  it('sends no key over plain http to a public host unless allowed, and sends it when allowed', async () => {
    const urls: string[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      urls.push(url);
      expect(new Headers(init.headers).get('authorization')).toBe(`Bearer ${KEY}`);
      return new Response('{"data":[{"id":"m"}]}', {
        headers: { 'content-type': 'application/json' },
      });
    };
    const error = await failure(
      client({ baseUrl: 'http://relay.example.com', fetch }).listModels(),
    );
    expect(error).toMatchObject({ kind: 'bad_request', code: 'key_unencrypted', param: 'baseUrl' });
    expect(urls).toEqual([]);
    // Without a key there is nothing to protect.
    await client({
      baseUrl: 'http://relay.example.com',
      apiKey: '',
      fetch: async (url) => (urls.push(url), new Response('{"data":[]}')),
    }).listModels();
    expect(urls).toHaveLength(1);
    await client({
      baseUrl: 'http://relay.example.com',
      fetch,
      allowKeyInClear: true,
    }).listModels();
    expect(urls).toHaveLength(2);
  });
});

describe('HTTP errors', () => {
  it('400 names the parameter and is not retried', async () => {
    server.handle((_req, res) =>
      jsonError(res, 400, {
        message: 'temperature must be between 0 and 2',
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'invalid_value',
      }),
    );
    const error = await failure(client().chat(hi));
    expect(error).toMatchObject({
      kind: 'bad_request',
      status: 400,
      param: 'temperature',
      code: 'invalid_value',
      message: 'temperature must be between 0 and 2',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('401 is unauthorized and not retried', async () => {
    server.handle((_req, res) =>
      jsonError(res, 401, { message: 'Invalid API key', type: 'authentication_error' }),
    );
    expect(await failure(client().listModels())).toMatchObject({
      kind: 'unauthorized',
      status: 401,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('402 is a balance problem', async () => {
    server.handle((_req, res) =>
      jsonError(res, 402, { message: 'Insufficient balance', code: 'insufficient_balance' }),
    );
    expect(await failure(client().chat(hi))).toMatchObject({
      kind: 'insufficient_balance',
      status: 402,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('403 naming a quota (one-api, new-api) is treated as 402; another 403 as a refused key', async () => {
    server.handle((_req, res) =>
      jsonError(res, 403, { message: '用户额度不足', code: 'insufficient_user_quota' }),
    );
    expect(await failure(client().chat(hi))).toMatchObject({
      kind: 'insufficient_balance',
      status: 403,
    });
    server.handle((_req, res) =>
      jsonError(res, 403, { message: 'model not allowed for this key' }),
    );
    expect(await failure(client().chat(hi))).toMatchObject({ kind: 'unauthorized', status: 403 });
  });

  it('429 insufficient_quota is a balance problem and is not retried', async () => {
    server.handle((_req, res) =>
      jsonError(
        res,
        429,
        {
          message: 'You exceeded your current quota',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
        { 'retry-after': '1' },
      ),
    );
    const retries: RetryInfo[] = [];
    expect(await failure(client({ onRetry: (r) => retries.push(r) }).chat(hi))).toMatchObject({
      kind: 'insufficient_balance',
      status: 429,
    });
    expect(server.requests).toHaveLength(1);
    expect(retries).toHaveLength(0);
  });

  it('429 waits Retry-After, reports the wait, and succeeds on the retry', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(canonicalStream(['ok']));
    });
    server.handleSequence([
      (_req, res) =>
        jsonError(
          res,
          429,
          { message: 'slow down', type: 'rate_limit_error' },
          { 'retry-after': '0.05' },
        ),
    ]);
    const retries: RetryInfo[] = [];
    const started = Date.now();
    const result = await client({ onRetry: (r) => retries.push(r) }).chat(hi);
    expect(result.content).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({
      attempt: 1,
      delayMs: 50,
      error: { kind: 'rate_limited', status: 429 },
    });
  });

  it('prefers retry-after-ms, and gives up after three attempts with the wait it was asked for', async () => {
    server.handle((_req, res) =>
      jsonError(
        res,
        429,
        { message: 'slow down' },
        { 'retry-after-ms': '20', 'retry-after': '30' },
      ),
    );
    const retries: RetryInfo[] = [];
    const error = await failure(client({ onRetry: (r) => retries.push(r) }).listModels());
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 20 });
    expect(server.requests).toHaveLength(3);
    expect(retries.map((r) => [r.attempt, r.delayMs])).toEqual([
      [1, 20],
      [2, 20],
    ]);
  });

  it('does not wait automatically when the relay asks for longer than allowed', async () => {
    server.handle((_req, res) =>
      jsonError(res, 429, { message: 'come back in an hour' }, { 'retry-after': '3600' }),
    );
    const error = await failure(client({ maxRetryDelayMs: 1000 }).chat(hi));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 3_600_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('cancels the wait between retries when the signal aborts', async () => {
    server.handle((_req, res) => jsonError(res, 503, { message: 'busy' }, { 'retry-after': '30' }));
    const controller = new AbortController();
    const waiting = client({ onRetry: () => setTimeout(() => controller.abort(), 10) }).chat(hi, {
      signal: controller.signal,
    });
    expect(await failure(waiting)).toMatchObject({ kind: 'aborted' });
    expect(server.requests).toHaveLength(1);
  });

  it.each([500, 502, 503, 504])(
    '%d is retried with backoff, then reported as a server error',
    async (status) => {
      server.handle((_req, res) => jsonError(res, status, { message: 'upstream failed' }));
      const retries: RetryInfo[] = [];
      const error = await failure(
        client({ onRetry: (r) => retries.push(r), random: () => 0 }).chat(hi),
      );
      expect(error).toMatchObject({ kind: 'server_error', status, message: 'upstream failed' });
      expect(server.requests).toHaveLength(3);
      expect(retries.map((r) => r.delayMs)).toEqual([250, 500]);
    },
  );

  it('408 is retried and then reported as a timeout', async () => {
    server.handle((_req, res) => res.writeHead(408).end());
    expect(await failure(client({ maxRetries: 1 }).listModels())).toMatchObject({
      kind: 'timeout',
      status: 408,
    });
    expect(server.requests).toHaveLength(2);
  });

  it('maxRetries: 0 makes one attempt only', async () => {
    server.handle((_req, res) => jsonError(res, 500, { message: 'x' }));
    await failure(client({ maxRetries: 0 }).listModels());
    expect(server.requests).toHaveLength(1);
  });

  it('tolerates a numeric code, a body with no type, an empty body and an HTML body', async () => {
    server.handle((_req, res) => jsonError(res, 400, { message: 'bad model', code: 1234 }));
    expect(await failure(client().chat(hi))).toMatchObject({
      kind: 'bad_request',
      code: '1234',
      message: 'bad model',
    });

    server.handle((_req, res) => res.writeHead(401).end());
    expect((await failure(client().chat(hi))).message).toMatch(/did not accept the API key/);

    server.handle((_req, res) =>
      res
        .writeHead(502, { 'content-type': 'text/html' })
        .end(
          '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
        ),
    );
    const gateway = await failure(client({ maxRetries: 0 }).chat(hi));
    expect(gateway).toMatchObject({ kind: 'server_error', status: 502 });
    expect(gateway.message).toMatch(/web page/);
    expect(gateway.message).not.toMatch(/<html|nginx/);

    server.handle((_req, res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"error":"model is required"}'),
    );
    expect(await failure(client().chat(hi))).toMatchObject({
      kind: 'bad_request',
      message: 'model is required',
    });

    server.handle((_req, res) =>
      res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":"field required"}'),
    );
    expect(await failure(client().chat(hi))).toMatchObject({
      kind: 'bad_request',
      status: 422,
      message: 'field required',
    });
  });

  it('a 404 says the address is probably not a Model Relay', async () => {
    server.handle((_req, res) =>
      res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><title>Not found</title>'),
    );
    const error = await failure(client().listModels());
    expect(error).toMatchObject({ kind: 'bad_response', status: 404 });
    expect(error.message).toMatch(/Model Relay/);
  });

  it('never lets the key into an error, even when the relay echoes it', async () => {
    server.handle((req, res) =>
      jsonError(res, 401, {
        message: `Incorrect API key provided: ${String(req.headers.authorization).slice(7)}`,
        param: KEY,
        code: `bad ${KEY}`,
      }),
    );
    const error = await failure(client().chat(hi));
    expect(error.message).toContain('[redacted]');
    expectNoKey(error);
  });
});

describe('network failures and watchdogs', () => {
  it('a refused connection says so, with its code', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const error = await failure(
      createRelayClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY }).listModels(),
    );
    expect(error).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
    expect(error.message).toMatch(/refused the connection/);
    expectNoKey(error);
  });

  it('a port that fetch refuses says so, instead of a bare "could not reach"', async () => {
    const error = await failure(
      createRelayClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY }).listModels(),
    );
    expect(error).toMatchObject({ kind: 'network', code: 'BAD_PORT' });
    expect(error.message).toMatch(/port that web clients refuse/);
  });

  it('finds the code inside an AggregateError from connecting to several addresses', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:1'), {
      code: 'ECONNREFUSED',
    });
    const fetchFails = async () => {
      throw new TypeError('fetch failed', { cause: new AggregateError([refused, refused]) });
    };
    const error = await failure(
      createRelayClient({
        baseUrl: 'http://localhost:1',
        apiKey: KEY,
        fetch: fetchFails,
      }).listModels(),
    );
    expect(error).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
  });

  it('a name that does not resolve says DNS', async () => {
    const error = await failure(
      createRelayClient({
        baseUrl: 'https://relay.nonexistent.invalid',
        apiKey: KEY,
        timeoutMs: 5000,
      }).listModels(),
    );
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/did not resolve \(DNS\)/);
  });

  it('gives up waiting for headers after timeoutMs', async () => {
    server.handle(() => undefined);
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 150 }).chat(hi));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('the idle watchdog ends a stream that sends headers and then nothing', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.flushHeaders();
    });
    const started = Date.now();
    const error = await failure(client({ idleTimeoutMs: 200 }).chat(hi));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ kind: 'timeout', partialText: '' });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2000);
  });

  it('the idle watchdog keeps the text of a stream that stalls midway, and keep-alives hold it off', async () => {
    server.handle(async (_req, res) => {
      sseHeaders(res);
      res.write(`data: ${contentChunk('partial ')}\n\n`);
      for (let i = 0; i < 4; i++) {
        await new Promise((resolve) => setTimeout(resolve, 80));
        res.write(': PING\n\n');
      }
      res.write(`data: ${contentChunk('answer')}\n\n`);
    });
    const error = await failure(client({ idleTimeoutMs: 200 }).chat(hi));
    expect(error).toMatchObject({ kind: 'timeout', partialText: 'partial answer' });
  });

  it('abort mid-stream ends at once as aborted, keeping the text so far', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.write(`data: ${contentChunk('first words')}\n\n`);
    });
    const controller = new AbortController();
    const deltas: string[] = [];
    const waiting = client().chat(hi, {
      signal: controller.signal,
      onDelta: (text) => {
        deltas.push(text);
        controller.abort();
      },
    });
    expect(await failure(waiting)).toMatchObject({ kind: 'aborted', partialText: 'first words' });
    expect(deltas).toEqual(['first words']);
  });

  it('a connection reset mid-stream is a network error that keeps the text', async () => {
    server.handle(async (_req, res) => {
      sseHeaders(res);
      res.write(`data: ${contentChunk('so far')}\n\n`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      res.socket?.destroy();
    });
    const error = await failure(client().chat(hi));
    expect(error).toMatchObject({ kind: 'network', partialText: 'so far' });
  });
});

describe('streams: tolerated framings', () => {
  async function streamOf(body: string | Buffer, cuts: number[] = []) {
    server.handle(async (_req, res) => {
      sseHeaders(res);
      await writeInPieces(res, body, cuts);
      res.end();
    });
    const deltas: string[] = [];
    const result = await client().chat(hi, { onDelta: (d) => deltas.push(d) });
    return { result, deltas };
  }

  it('reads the canonical stream', async () => {
    const { result, deltas } = await streamOf(canonicalStream(['Hel', 'lo', ' wörld ✓']));
    expect(result).toEqual({ content: 'Hello wörld ✓', finishReason: 'stop', interrupted: false });
    expect(deltas).toEqual(['Hel', 'lo', ' wörld ✓']);
  });

  it('reads events split inside a UTF-8 character and between \\r and \\n', async () => {
    const body = canonicalStream(['é→😀']).replace(/\n/g, '\r\n');
    const emoji = Buffer.from(body).indexOf(Buffer.from('😀'));
    const crlf = Buffer.from(body).indexOf('\r\n');
    const { result } = await streamOf(body, [crlf + 1, emoji + 1, emoji + 2, emoji + 3]);
    expect(result.content).toBe('é→😀');
  });

  it('reads lines ending in \\r alone', async () => {
    const { result } = await streamOf(canonicalStream(['a', 'b']).replace(/\n/g, '\r'));
    expect(result.content).toBe('ab');
  });

  it('joins several data lines of one event with a newline', async () => {
    const chunk = contentChunk('joined');
    const split = chunk.indexOf('"choices"');
    const body = `data: ${chunk.slice(0, split)}\ndata: ${chunk.slice(split)}\n\ndata: ${finishChunk()}\n\ndata: [DONE]\n\n`;
    expect((await streamOf(body)).result.content).toBe('joined');
  });

  it('ignores comments, event, id and retry fields', async () => {
    const body = `: OPENROUTER PROCESSING\n\nretry: 3000\nid: 1\nevent: message\ndata: ${contentChunk('x')}\n\n: PING\n\nid: 2\ndata: ${contentChunk('y')}\n\nretry: soon\nfoo: bar\n\ndata: ${finishChunk()}\n\ndata: [DONE]\n\n`;
    expect((await streamOf(body)).result.content).toBe('xy');
  });

  it('reads usage from a final chunk with no choices, and tolerates usage: null', async () => {
    const body =
      `data: ${contentChunk('x', { usage: null })}\n\n` +
      `data: ${finishChunk()}\n\n` +
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } })}\n\n` +
      'data: [DONE]\n\n';
    const { result } = await streamOf(body);
    expect(result).toEqual({
      content: 'x',
      finishReason: 'stop',
      usage: { promptTokens: 9, completionTokens: 2, totalTokens: 11 },
      interrupted: false,
    });
  });

  it('a stream that ends without [DONE] after a finish_reason is complete', async () => {
    const { result } = await streamOf(canonicalStream(['done'], { done: false }));
    expect(result).toEqual({ content: 'done', finishReason: 'stop', interrupted: false });
  });

  it('reports finish reasons such as length', async () => {
    const body = `data: ${contentChunk('cut')}\n\ndata: ${finishChunk('length')}\n\ndata: [DONE]\n\n`;
    expect((await streamOf(body)).result).toMatchObject({
      content: 'cut',
      finishReason: 'length',
      interrupted: false,
    });
  });

  it('a stream that ends without either is kept and marked interrupted', async () => {
    const { result } = await streamOf(
      canonicalStream(['half a ', 'rep'], { done: false, finish: false }),
    );
    expect(result).toEqual({ content: 'half a rep', finishReason: null, interrupted: true });
  });

  it('a last event cut off by the end of the stream is a truncation, not a failure', async () => {
    const body = `data: ${contentChunk('kept')}\n\ndata: {"id":"c1","choi`;
    expect((await streamOf(body)).result).toEqual({
      content: 'kept',
      finishReason: null,
      interrupted: true,
    });
  });

  it('a last event without its blank line is still delivered', async () => {
    const body = `data: ${contentChunk('a')}\n\ndata: ${finishChunk()}`;
    expect((await streamOf(body)).result).toEqual({
      content: 'a',
      finishReason: 'stop',
      interrupted: false,
    });
  });

  it('an error object after the stream began keeps the text and shows the error', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(
        `data: ${contentChunk('before ')}\n\ndata: {"error":{"message":"upstream overloaded","type":"server_error","code":"overloaded"}}\n\n`,
      );
    });
    const error = await failure(client().chat(hi));
    expect(error).toMatchObject({
      kind: 'server_error',
      code: 'overloaded',
      partialText: 'before ',
    });
    expect(error.message).toMatch(/upstream overloaded/);
  });

  it('an `event: error` event ends the reply with its error', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(
        `data: ${contentChunk('abc')}\n\nevent: error\ndata: {"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}\n\n`,
      );
    });
    expect(await failure(client().chat(hi))).toMatchObject({
      kind: 'rate_limited',
      partialText: 'abc',
    });
  });

  it('a chunk with a top-level error and finish_reason "error" ends the reply with its error', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(
        `data: ${contentChunk('xyz')}\n\ndata: ${JSON.stringify({ id: 'c1', error: { message: 'Provider returned error', code: 502 }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] })}\n\n`,
      );
    });
    expect(await failure(client().chat(hi))).toMatchObject({
      kind: 'server_error',
      code: '502',
      partialText: 'xyz',
    });
  });

  it('a 200 with an HTML body is a bad response, not a crash', async () => {
    server.handle((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body>Login required</body></html>'),
    );
    expect((await failure(client().chat(hi))).kind).toBe('bad_response');
    server.handle((_req, res) => res.writeHead(200).end('<!doctype html><p>captive portal</p>'));
    expect((await failure(client().chat(hi))).kind).toBe('bad_response');
  });

  it('a 200 with a JSON completion where a stream was asked for gives the completion', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [
            { index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      ),
    );
    const deltas: string[] = [];
    const result = await client().chat(hi, { onDelta: (d) => deltas.push(d) });
    expect(result).toEqual({
      content: 'whole',
      finishReason: 'stop',
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      interrupted: false,
    });
    expect(deltas).toEqual(['whole']);
  });

  it('a 200 with a JSON error body where a stream was asked for is that error', async () => {
    server.handle((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          '{"error":{"message":"no such model","type":"invalid_request_error","param":"model"}}',
        ),
    );
    expect(await failure(client().chat(hi))).toMatchObject({ kind: 'bad_request', param: 'model' });
  });

  it('a stream event that is not JSON is a bad response that keeps the text', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(`data: ${contentChunk('ok ')}\n\ndata: <html>\n\n`);
    });
    expect(await failure(client().chat(hi))).toMatchObject({
      kind: 'bad_response',
      partialText: 'ok ',
    });
  });

  it('a stream with no event at all is a bad response', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(': just a comment\n\n');
    });
    expect((await failure(client().chat(hi))).kind).toBe('bad_response');
  });
});

describe('non-streamed chat', () => {
  it('reads a completion, tolerating missing id, created and usage and content: null', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [
            { message: { role: 'assistant', content: null }, finish_reason: 'content_filter' },
          ],
          extra: 1,
        }),
      ),
    );
    const result = await client().chat({ ...hi, stream: false });
    expect(result).toEqual({ content: '', finishReason: 'content_filter', interrupted: false });
    expect(server.requests[0]?.headers.accept).toBe('application/json');
    expect(JSON.parse(server.requests[0]?.body ?? '').stream).toBe(false);
  });

  it('refuses JSON that is not a completion', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[]}'),
    );
    expect((await failure(client().chat({ ...hi, stream: false }))).kind).toBe('bad_response');
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":'),
    );
    expect((await failure(client().chat({ ...hi, stream: false }))).kind).toBe('bad_response');
  });
});

describe('the size of a reply', () => {
  it('cuts a stream at maxReplyChars, between characters, with the text so far', async () => {
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(canonicalStream(['abcd', 'ef😀gh', 'never read']));
    });
    const deltas: string[] = [];
    const error = await failure(
      client({ maxReplyChars: 7 }).chat(hi, { onDelta: (text) => deltas.push(text) }),
    );
    expect(error).toMatchObject({ kind: 'bad_response', code: 'reply_too_long' });
    expect(error.message).toMatch(/passed 7 characters/);
    // Seven UTF-16 units would end inside the emoji: it is left out whole.
    expect(error.partialText).toBe('abcdef');
    expect(deltas.join('')).toBe('abcdef');
  });

  it('cuts a whole completion the same way', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [
            { message: { role: 'assistant', content: 'x'.repeat(50) }, finish_reason: 'stop' },
          ],
        }),
      ),
    );
    const error = await failure(client({ maxReplyChars: 20 }).chat({ ...hi, stream: false }));
    expect(error).toMatchObject({ code: 'reply_too_long', partialText: 'x'.repeat(20) });
  });
});

describe('models', () => {
  it('refuses an HTML page, an empty body and JSON without a list', async () => {
    server.handle((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><html><body>Welcome to nginx!</body></html>'),
    );
    expect((await failure(client().listModels())).message).toMatch(/web page, not a Model Relay/);
    server.handle((_req, res) => res.writeHead(200).end());
    expect((await failure(client().listModels())).kind).toBe('bad_response');
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'),
    );
    expect((await failure(client().listModels())).message).toMatch(/without a list of models/);
  });

  it('classifies and applies overrides', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: [
            { id: 'gpt-4o', owned_by: 'openai' },
            { id: 'text-embedding-3-small' },
            { id: 'dall-e-3' },
          ],
        }),
      ),
    );
    const models = await client().listModels({ overrides: { 'gpt-4o': 'image' } });
    expect(models.map((m) => [m.id, m.kind, m.ownedBy])).toEqual([
      ['gpt-4o', 'image', 'openai'],
      ['text-embedding-3-small', 'embedding', undefined],
      ['dall-e-3', 'image', undefined],
    ]);
  });
});

describe('embeddings', () => {
  function float32Base64(values: number[]): string {
    return Buffer.from(new Float32Array(values).buffer).toString('base64');
  }

  it('returns vectors in input order from an out-of-order list, floats and base64 alike, without usage', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          data: [
            { object: 'embedding', index: 1, embedding: float32Base64([0.5, -0.25]) },
            { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
          ],
        }),
      ),
    );
    const result = await client().embed({ model: 'e', input: ['a', 'b'] });
    expect(result).toEqual({
      model: 'e',
      vectors: [
        [0.1, 0.2],
        [0.5, -0.25],
      ],
    });
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ model: 'e', input: ['a', 'b'] });
  });

  it('reads usage and the model the relay names', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          model: 'e-2024',
          data: [{ index: 0, embedding: [1] }],
          usage: { prompt_tokens: 3, total_tokens: 3 },
        }),
      ),
    );
    expect(await client().embed({ model: 'e', input: 'one' })).toEqual({
      model: 'e-2024',
      vectors: [[1]],
      usage: { promptTokens: 3, totalTokens: 3 },
    });
  });

  it.each([
    ['too few vectors', { data: [{ index: 0, embedding: [1] }] }],
    [
      'a duplicated index',
      {
        data: [
          { index: 0, embedding: [1] },
          { index: 0, embedding: [2] },
        ],
      },
    ],
    [
      'vectors of different lengths',
      {
        data: [
          { index: 0, embedding: [1] },
          { index: 1, embedding: [1, 2] },
        ],
      },
    ],
    [
      'a vector with a non-number',
      {
        data: [
          { index: 0, embedding: [1] },
          { index: 1, embedding: ['x'] },
        ],
      },
    ],
    [
      'bad base64',
      {
        data: [
          { index: 0, embedding: 'not base64!' },
          { index: 1, embedding: [1] },
        ],
      },
    ],
    ['no data', { object: 'list' }],
  ])('refuses %s', async (_name, body) => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    );
    expect((await failure(client().embed({ model: 'e', input: ['a', 'b'] }))).kind).toBe(
      'bad_response',
    );
  });
});

describe('images', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  it('decodes b64_json and sniffs the type, with the revised prompt', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          created: 1,
          data: [{ b64_json: png.toString('base64'), revised_prompt: 'a red fox' }],
          usage: { total_tokens: 5 },
        }),
      ),
    );
    const result = await client().generateImages({ model: 'i', prompt: 'fox', size: '256x256' });
    expect(result.images).toHaveLength(1);
    expect(Buffer.from(result.images[0]?.bytes ?? [])).toEqual(png);
    expect(result.images[0]).toMatchObject({ mimeType: 'image/png', revisedPrompt: 'a red fox' });
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      model: 'i',
      prompt: 'fox',
      size: '256x256',
    });
  });

  it('downloads url results from the relay at once, without sending the key', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    server.handle((req, res) => {
      if (req.path.startsWith('/files/')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(jpeg);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: [{ url: `${server.url}/files/a.jpg` }, { b64_json: png.toString('base64') }],
        }),
      );
    });
    const result = await client().generateImages({ model: 'i', prompt: 'p' });
    expect(result.images.map((i) => i.mimeType)).toEqual(['image/jpeg', 'image/png']);
    const download = server.requests.find((r) => r.path === '/files/a.jpg');
    expect(download?.headers.authorization).toBeUndefined();
  });

  it('accepts a data: URL in place of a link', async () => {
    server.handle((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ data: [{ url: `data:image/png;base64,${png.toString('base64')}` }] }),
        ),
    );
    expect((await client().generateImages({ model: 'i', prompt: 'p' })).images[0]?.mimeType).toBe(
      'image/png',
    );
  });

  it.each([
    ['an http link to another host', 'http://images.example.com/a.png', /unencrypted/],
    ['a link to a private address', 'https://192.168.1.10/a.png', /not a public internet address/],
    [
      'a link to the cloud metadata address',
      'https://169.254.169.254/latest',
      /not a public internet address/,
    ],
    ['a mapped loopback address', 'https://[::ffff:127.0.0.1]/a.png', /not a public internet/],
    ['a NAT64 address', 'https://[64:ff9b::a9fe:a9fe]/latest', /not a public internet address/],
    ['a file link', 'file:///etc/passwd', /not fetched/],
  ])('refuses %s', async (_name, url, message) => {
    server.handle((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: [{ url }] })),
    );
    const error = await failure(client().generateImages({ model: 'i', prompt: 'p' }));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(message);
  });

  it('fetches from the relay only at its own origin: another port of its host is refused', async () => {
    // A service on this machine that the relay should not be able to reach through the app.
    const internal = await startScriptedServer();
    try {
      internal.handle((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
      server.handle((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: [{ url: `${internal.url}/secret.png` }] })),
      );
      const error = await failure(client().generateImages({ model: 'i', prompt: 'p' }));
      expect(error.kind).toBe('bad_response');
      expect(error.message).toMatch(/unencrypted/);
      expect(internal.requests).toEqual([]);
    } finally {
      await internal.close();
    }
  });

  it('refuses a name whose answers include an inside address, asking DNS once', async () => {
    const calls: string[] = [];
    const error = await failure(
      (async () => {
        server.handle((_req, res) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ data: [{ url: 'https://images.rebind.test/a.png' }] })),
        );
        return client({
          resolveHost: async (host) => (calls.push(host), ['203.0.113.50', '10.0.0.7']),
        }).generateImages({ model: 'i', prompt: 'p' });
      })(),
    );
    expect(error.message).toMatch(/images\.rebind\.test.*not a public internet address/);
    expect(calls).toEqual(['images.rebind.test']);
  });

  it('refuses a download that is not an image, or too large, or gone', async () => {
    const answer = (path: string) => (req: { path: string }, res: ServerResponse) => {
      if (req.path === '/v1/images/generations') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: [{ url: `${server.url}${path}` }] }));
      } else if (req.path === '/html') {
        res.writeHead(200, { 'content-type': 'image/png' }).end('<html>not an image</html>');
      } else if (req.path === '/big') {
        res.writeHead(200).end(Buffer.alloc(4096, 0x89));
      } else {
        res.writeHead(404).end();
      }
    };
    server.handle(answer('/html'));
    expect((await failure(client().generateImages({ model: 'i', prompt: 'p' }))).message).toMatch(
      /not a PNG, JPEG, WebP or GIF/,
    );
    server.handle(answer('/big'));
    expect(
      (await failure(client({ maxImageBytes: 1024 }).generateImages({ model: 'i', prompt: 'p' })))
        .message,
    ).toMatch(/larger than/);
    server.handle(answer('/gone'));
    expect((await failure(client().generateImages({ model: 'i', prompt: 'p' }))).message).toMatch(
      /could not be downloaded .*expire/,
    );
  });

  it('refuses an answer with no images or with entries of neither kind', async () => {
    server.handle((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    );
    expect((await failure(client().generateImages({ model: 'i', prompt: 'p' }))).kind).toBe(
      'bad_response',
    );
    server.handle((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"data":[{"revised_prompt":"x"}]}'),
    );
    expect((await failure(client().generateImages({ model: 'i', prompt: 'p' }))).message).toMatch(
      /neither b64_json nor url/,
    );
  });
});

describe("a connection's request limiter, shared by its clients", () => {
  /** Answers embeddings after `ms`, counting the requests open at once. */
  function slowEmbeddings(ms: number) {
    const seen = { open: 0, most: 0, arrived: [] as Array<{ input: string; at: number }> };
    server.handle(async (req, res) => {
      seen.arrived.push({ input: req.body, at: Date.now() });
      seen.open++;
      seen.most = Math.max(seen.most, seen.open);
      await new Promise((resolve) => setTimeout(resolve, ms));
      const input = (JSON.parse(req.body) as { input: string[] }).input;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: 'e',
          data: input.map((_, index) => ({ object: 'embedding', index, embedding: [index, 1] })),
        }),
      );
      seen.open--;
    });
    return seen;
  }

  it('sends at most its number of requests at once, whichever client sends them', async () => {
    const seen = slowEmbeddings(40);
    const limiter = createRequestLimiter({ maxConcurrent: 3 });
    const [a, b] = [client({ limiter }), client({ limiter })];
    const calls = Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? a : b).embed({ model: 'e', input: [`text ${i}`] }, { priority: 'background' }),
    );
    const results = await Promise.all(calls);
    expect(results).toHaveLength(10);
    expect(server.requests).toHaveLength(10);
    expect(seen.most).toBe(3);
    expect(limiter.state()).toMatchObject({ active: 0, waiting: 0 });
  });

  it("holds every request of the connection during a 429's Retry-After, then retries", async () => {
    const seen = slowEmbeddings(5);
    let limitedAt = 0;
    server.handleSequence([
      (_req, res) => {
        limitedAt = Date.now();
        jsonError(
          res,
          429,
          { message: 'slow down', type: 'rate_limit_error' },
          { 'retry-after': '0.3' },
        );
      },
    ]);
    const limiter = createRequestLimiter({ maxConcurrent: 4 });
    const first = client({ limiter }).embed({ model: 'e', input: ['a'] });
    while (limitedAt === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Another client of the same connection, asking during the wait: it waits too.
    const asked = Date.now();
    const second = client({ limiter }).embed({ model: 'e', input: ['b'] });
    await Promise.all([first, second]);
    // The 429, then its retry and the other client's request, both only once the wait is over.
    expect(server.requests).toHaveLength(3);
    const other = seen.arrived.find((a) => a.input.includes('"b"'));
    expect(other!.at - asked).toBeGreaterThanOrEqual(200);
    expect(other!.at - limitedAt).toBeGreaterThanOrEqual(280);
    expect(
      seen.arrived.find((a) => a.input.includes('"a"'))!.at - limitedAt,
    ).toBeGreaterThanOrEqual(280);
    expect(limiter.state()).toMatchObject({ active: 0, waiting: 0 });
  });

  it('frees the slot of a request that failed, was refused or was cancelled', async () => {
    const limiter = createRequestLimiter({ maxConcurrent: 1 });
    server.handle((_req, res) =>
      jsonError(res, 400, { message: 'bad', type: 'invalid_request_error' }),
    );
    await failure(client({ limiter }).embed({ model: 'e', input: ['a'] }));
    expect(limiter.state().active).toBe(0);
    server.handle(() => undefined); // never answers
    const controller = new AbortController();
    const hanging = client({ limiter }).chat(hi, { signal: controller.signal });
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(limiter.state().active).toBe(1);
    controller.abort();
    await failure(hanging);
    expect(limiter.state().active).toBe(0);
    server.handle((_req, res) => {
      sseHeaders(res);
      res.end(canonicalStream(['streamed']));
    });
    expect((await client({ limiter }).chat(hi)).content).toBe('streamed');
    expect(limiter.state().active).toBe(0);
  });
});
