/**
 * Section 10, key binding: a hostile page (any payload the contract allows, sent through the real
 * router to the real services) tries to get the saved API key to a second local server, by every
 * route that makes a request: "Test connection" with another address, an address changed and then
 * used (models, chat, embeddings, images), a relay that redirects, and random sequences of
 * connection calls (fast-check). The second server records every request it receives; the key must
 * never be in one.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { openChatApp, type ChatApp } from '../fakes/chat-app';
import { cleanUp, suiteDir } from './lib/canary';
import { count, recordFigures, type Figure } from './lib/record';

const KEY = 'sk-binding-canary-7d1e4b09f2a6c3';
const SEQUENCES = count(400, 25);

interface Recorder {
  server: Server;
  url: string;
  /** Every request: method, path and whether the key was anywhere in its headers or body. */
  requests: Array<{ method: string; path: string; withKey: boolean }>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The attacker's server: answers like a relay, so that nothing stops at an error before a retry. */
async function startRecorder(): Promise<Recorder> {
  const requests: Recorder['requests'] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const headers = JSON.stringify(request.headers);
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        withKey: headers.includes(KEY) || body.includes(KEY),
      });
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ object: 'list', data: [{ id: 'demo-chat', object: 'model' }] }),
      );
    });
  });
  return { server, url: await listen(server), requests };
}

/** A relay on the right origin that sends every request on to `target` with a redirect. */
async function startRedirector(target: string, status: number) {
  const server = createServer((request, response) => {
    response.statusCode = status;
    response.setHeader('location', `${target}${request.url ?? '/'}`);
    response.end();
  });
  return { server, url: await listen(server) };
}

let relay: DemoRelay;
let evil: Recorder;
let app: ChatApp;
let dataDir: string;
const figures: Figure[] = [];
const servers: Server[] = [];

function leaks(): number {
  return evil.requests.filter((r) => r.withKey).length;
}

/** Runs a call the page may make and ignores its refusal: only where the key went matters. */
async function attempt(call: () => Promise<unknown>): Promise<void> {
  await call().catch(() => undefined);
}

/** One saved connection to the real relay, with the key, made active; returns its id. */
async function connect(name: string): Promise<string> {
  const saved = await app.api.createConnection({ name, baseUrl: relay.url, apiKey: KEY });
  await app.api.selectConnection({ id: saved.id });
  return saved.id;
}

/** Every route that sends a request with the active connection's key. */
async function useActiveConnection(): Promise<void> {
  await attempt(() => app.api.listModels({ refresh: true }));
  await attempt(async () => {
    const conversation = await app.api.createConversation({ model: 'demo-chat-fast' });
    const { replyId } = await app.api.sendMessage({
      conversationId: conversation.id,
      text: 'hello',
      options: { stream: true },
    });
    await app.finished(replyId);
  });
  await attempt(() => app.api.embedQuery({ model: 'demo-embedding', text: 'hello' }));
  await attempt(() =>
    app.api.generateImages({
      requestId: `r-${Math.random().toString(36).slice(2)}`,
      model: 'demo-image',
      prompt: 'a lighthouse',
      size: '256x256',
      count: 1,
    }),
  );
}

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000 });
  evil = await startRecorder();
  servers.push(evil.server);
  dataDir = await suiteDir('key-binding');
  app = await openChatApp(dataDir);
});

afterAll(async () => {
  await app?.services.close();
  await relay?.close();
  for (const server of servers) server.closeAllConnections?.();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  cleanUp([dataDir]);
  recordFigures(10, 'Key binding', figures, [
    `The saved key was the canary ${KEY.slice(0, 14)}…; the other server, on another port of 127.0.0.1, answered every request as a relay would and recorded whether the key was in its headers or body.`,
    `Sequences: ${SEQUENCES} random sequences of 1 to 12 connection calls (test, update, create, select, then every route that makes a request), each ending with a check of the other server.`,
  ]);
});

describe('a hostile page cannot get the saved key to another origin', () => {
  const addresses = () => {
    const port = new URL(evil.url).port;
    return [
      evil.url,
      `${evil.url}/v1`,
      `${evil.url}/mount/v1/`,
      `http://localhost:${port}`,
      // The relay's own host on another port is another origin too.
      `${relay.url.replace(/:\d+$/, '')}:${port}`,
    ];
  };

  it('by "Test connection" with another address and the saved connection id', async () => {
    const id = await connect('test-route');
    const before = evil.requests.length;
    for (const baseUrl of addresses()) {
      const result = await app.api.testConnection({ id, baseUrl });
      // The other server answers as a relay, so the test itself passes: without the key.
      expect(result.ok, baseUrl).toBe(true);
    }
    expect(evil.requests.length - before).toBe(addresses().length);
    expect(leaks()).toBe(0);
    // The same address as the connection's still tests with the saved key.
    expect((await app.api.testConnection({ id, baseUrl: `${relay.url}/v1/` })).ok).toBe(true);
    figures.push({
      name: 'test with another address: requests that carried the key',
      value: leaks(),
      target: '0',
      ok: leaks() === 0,
    });
  });

  it('by changing the address, then using the connection on every route', async () => {
    for (const baseUrl of addresses()) {
      const id = await connect(`moved-${baseUrl}`);
      const moved = await app.api.updateConnection({ id, changes: { baseUrl } });
      // The key was given for the relay's origin: moving the address removed it.
      expect(moved.hasKey, baseUrl).toBe(false);
      await useActiveConnection();
      // Moving back does not bring the key back either.
      const back = await app.api.updateConnection({ id, changes: { baseUrl: relay.url } });
      expect(back.hasKey).toBe(false);
    }
    expect(evil.requests.length).toBeGreaterThan(0);
    expect(leaks()).toBe(0);
    figures.push({
      name: 'address changed, then models, chat, embeddings, images: requests that carried the key',
      value: leaks(),
      target: '0',
      ok: leaks() === 0,
    });
  });

  it.each([301, 302, 303, 307, 308])(
    'by a relay that answers %i, redirecting to another origin',
    async (status) => {
      const redirector = await startRedirector(evil.url, status);
      servers.push(redirector.server);
      const saved = await app.api.createConnection({
        name: `redirect-${status}`,
        baseUrl: redirector.url,
        apiKey: KEY,
      });
      await app.api.selectConnection({ id: saved.id });
      const before = evil.requests.length;
      const test = await app.api.testConnection({ id: saved.id, baseUrl: redirector.url });
      expect(test.ok).toBe(false);
      expect(test.error?.message).toMatch(/redirect/);
      await useActiveConnection();
      // Not even a request without the key: a redirect is not followed at all.
      expect(evil.requests.length - before).toBe(0);
      figures.push({
        name: `redirect ${status} to another origin: requests that reached it`,
        value: evil.requests.length - before,
        target: '0',
        ok: evil.requests.length === before,
      });
    },
  );

  it('by any sequence of connection calls (fast-check)', async () => {
    const id = await connect('sequences');
    const address = fc.constantFrom(...addresses(), relay.url, `${relay.url}/v1`);
    const command = fc.oneof(
      address.map((baseUrl) => ({ op: 'test' as const, baseUrl })),
      address.map((baseUrl) => ({ op: 'update' as const, baseUrl })),
      address.map((baseUrl) => ({ op: 'create' as const, baseUrl })),
      fc.constant({ op: 'select' as const }),
      fc.constant({ op: 'use' as const }),
    );
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
        // Each sequence starts from a connection to the relay holding the key.
        await app.api.updateConnection({ id, changes: { baseUrl: relay.url, apiKey: KEY } });
        for (const c of commands) {
          if (c.op === 'test')
            await attempt(() => app.api.testConnection({ id, baseUrl: c.baseUrl }));
          if (c.op === 'update')
            await attempt(() => app.api.updateConnection({ id, changes: { baseUrl: c.baseUrl } }));
          if (c.op === 'create')
            await attempt(() => app.api.createConnection({ name: 'other', baseUrl: c.baseUrl }));
          if (c.op === 'select') await attempt(() => app.api.selectConnection({ id }));
          if (c.op === 'use') await attempt(() => app.api.listModels({ refresh: true }));
        }
        ran += 1;
        return leaks() === 0;
      }),
      { numRuns: SEQUENCES },
    );
    figures.push({ name: 'random call sequences run', value: ran, target: `${SEQUENCES}` });
    figures.push({
      name: 'random call sequences: requests that carried the key',
      value: leaks(),
      target: '0',
      ok: leaks() === 0,
    });
    expect(leaks()).toBe(0);
  });
});
