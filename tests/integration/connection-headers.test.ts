/**
 * Extra request headers per connection, end to end against a recording server: what is sent,
 * where a secret value is kept (the key store, never the file or a summary), and the key's rules
 * applied to secret values too (bound to the origin, never after a redirect, never in clear
 * outside the local network, never in a message).
 */
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ConnectionsService,
  type ConnectionsServiceOptions,
} from '../../electron/main/services/connections/connections';
import {
  headerSecretsAccount,
  readBoundSecret,
} from '../../electron/main/services/connections/secrets';
import { CONNECTIONS_FILE } from '../../electron/main/services/connections/store';
import { createRelayClient, RelayError } from '../../electron/main/services/relay/relay-client';
import { AppError } from '../../electron/main/services/app-error';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { startScriptedServer, type ScriptedServer } from '../fakes/scripted-server';

/** The secret a key store value holds (stored bound to its origin). */
function secretIn(stored: string | undefined): string | undefined {
  return stored === undefined ? undefined : readBoundSecret(stored)?.secret;
}

const KEY = 'sk-test-headers-key-4f1e2d3c';
const PORTKEY = 'pk-secret-value-9a8b7c6d5e';
const CF_SECRET = 'cf-access-secret-0011223344';

let server: ScriptedServer;
let other: ScriptedServer;
beforeAll(async () => {
  [server, other] = await Promise.all([startScriptedServer(), startScriptedServer()]);
});
afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
});

const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] });

let dir: string;
let secrets: MemorySecretStore;
const services: ConnectionsService[] = [];

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'relay-headers-'));
  secrets = new MemorySecretStore();
  for (const s of [server, other]) {
    s.requests.length = 0;
    s.handle((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS));
  }
});
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await fs.rm(dir, { recursive: true, force: true });
});

function service(options: Partial<ConnectionsServiceOptions> = {}): ConnectionsService {
  const created = new ConnectionsService({ dataDir: dir, secrets, ...options });
  services.push(created);
  return created;
}

const HEADERS = [
  { name: 'X-Title', value: 'Relay Desktop' },
  { name: 'x-portkey-api-key', value: PORTKEY, secret: true },
];

/** Every byte written in the data folder. */
async function folderText(): Promise<string> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => fs.readFile(join(e.parentPath, e.name), 'utf8')),
  );
  return texts.join('\n');
}

describe('saving extra headers', () => {
  it('keeps a secret value in the key store, never in the file or a summary', async () => {
    const connections = service();
    const saved = await connections.create({
      name: 'Gateway',
      baseUrl: server.url,
      apiKey: KEY,
      headers: HEADERS,
    });
    expect(saved.headers).toEqual([
      { name: 'X-Title', secret: false, value: 'Relay Desktop', hasValue: true },
      { name: 'x-portkey-api-key', secret: true, hasValue: true },
    ]);
    expect(JSON.stringify(await connections.list())).not.toContain(PORTKEY);
    const file = await folderText();
    expect(file).toContain('Relay Desktop');
    expect(file).not.toContain(PORTKEY);
    expect(
      JSON.parse(await fs.readFile(join(dir, CONNECTIONS_FILE), 'utf8')).connections[0].headers,
    ).toEqual([
      { name: 'X-Title', secret: false, value: 'Relay Desktop' },
      { name: 'x-portkey-api-key', secret: true },
    ]);
    expect(JSON.parse(secretIn(await secrets.get(headerSecretsAccount(saved.id))) ?? '{}')).toEqual(
      {
        'x-portkey-api-key': PORTKEY,
      },
    );
  });

  it('sends them with every request, with the key', async () => {
    const connections = service();
    const { id } = await connections.create({
      name: 'G',
      baseUrl: server.url,
      apiKey: KEY,
      headers: HEADERS,
    });
    await (await connections.clientFor(id)).listModels();
    expect(server.requests[0]?.headers).toMatchObject({
      'x-title': 'Relay Desktop',
      'x-portkey-api-key': PORTKEY,
      authorization: `Bearer ${KEY}`,
    });
  });

  it.each([
    [{ name: 'Authorization', value: 'Bearer x' }, /key field/],
    [{ name: 'Host', value: 'evil.example' }, /comes from the address/],
    [{ name: 'Transfer-Encoding', value: 'chunked' }, /hop-by-hop/],
    [{ name: 'X-A', value: 'a\r\nX-B: b' }, /line break/],
    [{ name: 'X-A' }, /Give a value for X-A/],
    [{ name: 'api-key', secret: true }, /Give a value for api-key/],
  ])('refuses %j, naming the header', async (header, message) => {
    const failure = await service()
      .create({ name: 'G', baseUrl: server.url, headers: [header] })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'invalid_request' });
    expect((failure as AppError).details.issues?.[0]).toEqual({
      field: 'headers.0',
      message: expect.stringMatching(message),
    });
    expect(await fs.readdir(dir)).not.toContain(CONNECTIONS_FILE);
  });
});

describe('changing extra headers', () => {
  it('keeps a saved secret value when the form sends the header without one', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'G', baseUrl: server.url, headers: HEADERS });
    await connections.update(id, {
      headers: [
        { name: 'X-Title', value: 'Renamed' },
        { name: 'x-portkey-api-key', secret: true },
      ],
    });
    await (await connections.clientFor(id)).listModels();
    expect(server.requests[0]?.headers).toMatchObject({
      'x-title': 'Renamed',
      'x-portkey-api-key': PORTKEY,
    });
  });

  it('removes secret values when the address moves to another origin, and sends nothing until given again', async () => {
    const connections = service();
    const { id } = await connections.create({
      name: 'G',
      baseUrl: server.url,
      apiKey: KEY,
      headers: HEADERS,
    });
    const moved = await connections.update(id, { baseUrl: other.url });
    expect(moved.headers[1]).toEqual({ name: 'x-portkey-api-key', secret: true, hasValue: false });
    expect(await secrets.get(headerSecretsAccount(id))).toBeUndefined();
    const failure = await (await connections.clientFor(id)).listModels().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RelayError);
    expect((failure as RelayError).code).toBe('header_missing');
    expect(other.requests).toHaveLength(0);

    // A move with the headers sent again without a value: the old origin's value is not taken.
    const again = await connections
      .update(id, { baseUrl: server.url, headers: [{ name: 'x-portkey-api-key', secret: true }] })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(AppError);
    expect((again as AppError).message).toMatch(/saved value was given for the old address/);
    expect(again).toMatchObject({
      messageId: 'form.headerValueMoved',
      values: { name: 'x-portkey-api-key' },
    });
  });

  it('drops the key store entry when the secret headers go, and when the connection goes', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'G', baseUrl: server.url, headers: HEADERS });
    await connections.update(id, { headers: [{ name: 'X-Title', value: 'Only this' }] });
    expect(await secrets.get(headerSecretsAccount(id))).toBeUndefined();
    await connections.update(id, { headers: HEADERS });
    expect(await secrets.get(headerSecretsAccount(id))).toBeDefined();
    await connections.delete(id);
    expect(await secrets.get(headerSecretsAccount(id))).toBeUndefined();
  });
});

describe('testing with extra headers', () => {
  it('uses the saved secret value only for the same origin', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'G', baseUrl: server.url, headers: HEADERS });
    const draftHeaders = [{ name: 'x-portkey-api-key', secret: true }];
    expect(
      await connections.test({ baseUrl: server.url, id, headers: draftHeaders }),
    ).toMatchObject({ ok: true });
    expect(server.requests[0]?.headers['x-portkey-api-key']).toBe(PORTKEY);

    const elsewhere = await connections.test({ baseUrl: other.url, id, headers: draftHeaders });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: 'header_missing' } });
    expect(JSON.stringify(elsewhere)).toContain('the saved value belongs to');
    expect(other.requests).toHaveLength(0);
  });

  it('sends typed values as they are', async () => {
    const result = await service().test({
      baseUrl: server.url,
      headers: [{ name: 'CF-Access-Client-Secret', value: CF_SECRET, secret: true }],
    });
    expect(result).toMatchObject({ ok: true });
    expect(server.requests[0]?.headers['cf-access-client-secret']).toBe(CF_SECRET);
  });
});

describe('the relay client with extra headers', () => {
  const client = (options: Partial<Parameters<typeof createRelayClient>[0]> = {}) =>
    createRelayClient({
      baseUrl: server.url,
      apiKey: KEY,
      maxRetries: 0,
      headers: [{ name: 'api-key', value: CF_SECRET, secret: true }],
      ...options,
    });

  it('keeps secret values out of every message, even one the relay echoes', async () => {
    server.handle((req, res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ error: { message: `bad api-key ${String(req.headers['api-key'])}` } }),
        ),
    );
    const failure = (await client()
      .listModels()
      .catch((e: unknown) => e)) as RelayError;
    expect(failure.kind).toBe('bad_request');
    expect(failure.message).toContain('[redacted]');
    expect(JSON.stringify({ ...failure, message: failure.message })).not.toContain(CF_SECRET);
  });

  it('never follows a redirect with them', async () => {
    server.handle((_req, res) => res.writeHead(307, { location: `${other.url}/v1/models` }).end());
    const failure = (await client()
      .listModels()
      .catch((e: unknown) => e)) as RelayError;
    expect(failure.code).toBe('redirect_refused');
    expect(other.requests).toHaveLength(0);
  });

  it('refuses secret values over plain http outside the local network, as it refuses the key', async () => {
    const sent: string[] = [];
    const failure = (await createRelayClient({
      baseUrl: 'http://relay.example.com',
      apiKey: '',
      headers: [{ name: 'api-key', value: CF_SECRET, secret: true }],
      fetch: async (url) => (sent.push(url), new Response(MODELS)),
    })
      .listModels()
      .catch((e: unknown) => e)) as RelayError;
    expect(failure.code).toBe('key_unencrypted');
    expect(failure.message).toContain('the secret headers');
    expect(sent).toEqual([]);
  });

  it('refuses a header name a caller slipped past the form, before sending anything', async () => {
    const failure = (await client({ headers: [{ name: 'Host', value: 'evil', secret: false }] })
      .listModels()
      .catch((e: unknown) => e)) as RelayError;
    expect(failure).toMatchObject({ kind: 'bad_request', code: 'bad_header' });
    expect(server.requests).toHaveLength(0);
  });

  it('does not send them to fetch a generated image, even from the relay', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    server.handleSequence([
      (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ created: 1, data: [{ url: `${server.url}/files/1.png` }] })),
      (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png),
    ]);
    await client().generateImages({ model: 'i', prompt: 'fox', size: '256x256' });
    expect(server.requests[0]?.headers['api-key']).toBe(CF_SECRET);
    expect(server.requests[1]?.path).toBe('/files/1.png');
    expect(server.requests[1]?.headers['api-key']).toBeUndefined();
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });
});

describe('the demo relay', () => {
  it('is reached with the direct fetch, which no proxy setting reaches', async () => {
    const viaSession: string[] = [];
    const direct: string[] = [];
    const connections = service({
      fetch: async (url, init) => (viaSession.push(url), fetch(url, init)),
      directFetch: async (url, init) => (direct.push(url), fetch(url, init)),
    });
    const demo = await connections.startDemo();
    await (await connections.clientFor(demo.id)).listModels();
    expect(direct).toEqual([`${demo.baseUrl}/v1/models`]);
    expect(viaSession).toEqual([]);
  });
});
