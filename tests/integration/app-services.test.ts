/**
 * The app's services behind the real router and bridge, against the demo relay: what the
 * renderer can do over IPC, with no Electron.
 */
import { readBoundSecret } from '../../electron/main/services/connections/secrets';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { createAppServices, type AppServices } from '../../electron/main/app-services';
import { createRouter, trustedSender } from '../../electron/main/ipc/router';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { pageBridge } from '../fakes/page-bridge';
import { EVENTS, ROUTES } from '../../electron/shared/ipc/contract';
import { checkedEvents } from '../fakes/contract-events';

/** The secret a key store value holds (stored bound to its origin). */
function secretIn(stored: string | undefined): string | undefined {
  return stored === undefined ? undefined : readBoundSecret(stored)?.secret;
}

const KEY = 'sk-demo-canary-a91f3e77c2d4';
const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };

let relay: DemoRelay;
let dataDir: string;
let services: AppServices;
let secrets: MemorySecretStore;
const crossed: string[] = [];
const events: Array<{ channel: string; payload: unknown }> = [];

async function open() {
  services = await createAppServices({
    userDataDir: dataDir,
    secretStore: secrets,
    emit: checkedEvents((channel, payload) => events.push({ channel, payload })),
    version: '9.9.9',
    platform: 'test',
  });
  const router = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [1]),
  });
  return pageBridge(
    async (channel, payload) => {
      const result = await router.dispatch(channel, payload, sender);
      // Everything main sends back to the page, to check that no key is ever in it.
      crossed.push(JSON.stringify(result));
      return result;
    },
    () => () => undefined,
    (channel, payload) => void router.receive(channel, payload, sender),
  );
}

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 10_000 });
});
afterAll(() => relay.close());
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-services-'));
  secrets = new MemorySecretStore();
  crossed.length = 0;
  events.length = 0;
});
afterEach(async () => {
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('app services over the router', () => {
  it('answers app info and default settings on first run, with no connection yet', async () => {
    const relayApi = await open();
    // No system language given: English.
    expect(await relayApi.getAppInfo()).toEqual({
      version: '9.9.9',
      platform: 'test',
      systemLocale: 'en',
    });
    expect(await relayApi.listConnections()).toEqual([]);
    expect((await relayApi.getSettings()).chatDefaults.temperature).toBe(1);
    await expect(relayApi.listModels()).rejects.toMatchObject({ kind: 'not_found' });
    // A new data folder has nothing to copy before its tables are made.
    expect((await readdir(dataDir)).filter((f) => f.endsWith('.bak'))).toEqual([]);
  });

  it('connects, lists models grouped by kind, and never sends the key back', async () => {
    const relayApi = await open();
    const saved = await relayApi.createConnection({
      name: 'Local',
      baseUrl: `${relay.url}/v1/`,
      apiKey: KEY,
      consoleUrl: 'https://console.example.com',
    });
    expect(saved).toMatchObject({
      name: 'Local',
      hasKey: true,
      keyLast4: KEY.slice(-4),
      active: true,
      isDemo: false,
    });
    const listing = await relayApi.listModels();
    expect(listing.models.map((m) => [m.id, m.kind])).toEqual(
      expect.arrayContaining([
        ['demo-chat', 'chat'],
        ['demo-embedding', 'embedding'],
        ['demo-image', 'image'],
      ]),
    );
    for (const message of crossed) expect(message).not.toContain(KEY);
    for (const file of await readdir(dataDir))
      expect(await readFile(join(dataDir, file), 'utf8')).not.toContain(KEY);
  });

  it('a wrong key gives unauthorized; a corrected key works', async () => {
    const relayApi = await open();
    const saved = await relayApi.createConnection({
      name: 'Local',
      baseUrl: relay.url,
      apiKey: 'sk-demo-wrong-000000',
    });
    await expect(relayApi.listModels()).rejects.toMatchObject({
      kind: 'unauthorized',
      status: 401,
    });
    await relayApi.updateConnection({ id: saved.id, changes: { apiKey: KEY } });
    expect((await relayApi.listModels({ refresh: true })).models.length).toBeGreaterThan(0);
  });

  it("lists another saved connection's models without making it the one in use", async () => {
    const relayApi = await open();
    const first = await relayApi.createConnection({
      name: 'First',
      baseUrl: relay.url,
      apiKey: KEY,
    });
    const wrong = await relayApi.createConnection({
      name: 'Wrong key',
      baseUrl: relay.url,
      apiKey: 'sk-demo-wrong-000000',
    });
    await relayApi.selectConnection({ id: first.id });
    const other = await relayApi.listModels({ connectionId: first.id });
    expect(other.connectionId).toBe(first.id);
    expect(other.models.some((m) => m.id === 'demo-chat')).toBe(true);
    // Another connection's refusal is its own; the one in use stays as it was.
    await expect(relayApi.listModels({ connectionId: wrong.id })).rejects.toMatchObject({
      kind: 'unauthorized',
    });
    expect((await relayApi.listConnections()).find((c) => c.active)?.id).toBe(first.id);
    expect((await relayApi.listModels()).connectionId).toBe(first.id);
  });

  it('a drained balance gives insufficient_balance', async () => {
    const relayApi = await open();
    await relayApi.createConnection({ name: 'Local', baseUrl: relay.url, apiKey: KEY });
    relay.setBalance(KEY, 0);
    try {
      await expect(relayApi.listModels()).rejects.toMatchObject({
        kind: 'insufficient_balance',
        status: 402,
      });
    } finally {
      relay.setBalance(KEY, 100);
    }
  });

  it('tests a draft connection and says precisely what failed', async () => {
    const relayApi = await open();
    expect(await relayApi.testConnection({ baseUrl: relay.url, apiKey: KEY })).toMatchObject({
      ok: true,
      requestUrl: `${relay.url}/v1/models`,
    });
    expect(
      await relayApi.testConnection({ baseUrl: relay.url, apiKey: 'sk-demo-nope-1234567' }),
    ).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(await relayApi.testConnection({ baseUrl: 'not an address', apiKey: KEY })).toMatchObject(
      { ok: false },
    );
  });

  it('starts the demo relay as a labelled demo connection', async () => {
    const relayApi = await open();
    const demo = await relayApi.startDemoRelay();
    expect(demo).toMatchObject({ isDemo: true, active: true, hasKey: true });
    expect((await relayApi.listModels()).models.some((m) => m.id === 'demo-chat')).toBe(true);
  });

  it('keeps overrides, last models and settings across a restart', async () => {
    let relayApi = await open();
    await relayApi.createConnection({ name: 'Local', baseUrl: relay.url, apiKey: KEY });
    await relayApi.listModels();
    await relayApi.setModelKind({ modelId: 'demo-chat', kind: 'image' });
    await relayApi.setLastModel({ feature: 'chat', modelId: 'demo-chat-fast' });
    await relayApi.updateSettings({
      theme: 'dark',
      timeouts: { requestSeconds: 30, idleSeconds: 20 },
    });
    await services.close();

    relayApi = await open();
    const listing = await relayApi.listModels();
    expect(listing.models.find((m) => m.id === 'demo-chat')).toMatchObject({
      kind: 'image',
      kindSource: 'override',
    });
    expect(listing.lastModel).toEqual({ chat: 'demo-chat-fast' });
    expect(await relayApi.getSettings()).toMatchObject({
      theme: 'dark',
      timeouts: { requestSeconds: 30, idleSeconds: 20 },
    });
    await relayApi.setModelKind({ modelId: 'demo-chat', kind: null });
    expect((await relayApi.listModels()).models.find((m) => m.id === 'demo-chat')).toMatchObject({
      kind: 'chat',
      kindSource: 'id',
    });
  });

  it('tells the windows each saved change of the settings, and nothing for a refused one', async () => {
    const relayApi = await open();
    const changes = () => events.filter((e) => e.channel === EVENTS.settingsChanged.channel);
    const saved = await relayApi.updateSettings({ language: 'de' });
    expect(changes().map((e) => e.payload)).toEqual([saved]);
    await expect(
      relayApi.updateSettings({ chatDefaults: { temperature: 3, maxTokens: null } }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    expect(changes()).toHaveLength(1);
  });

  it('refuses invalid settings and connections with clear messages', async () => {
    const relayApi = await open();
    await expect(
      relayApi.updateSettings({ chatDefaults: { temperature: 3, maxTokens: null } }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringMatching(/temperature/),
    });
    await expect(relayApi.createConnection({ name: '', baseUrl: relay.url })).rejects.toMatchObject(
      { kind: 'invalid_request' },
    );
    await expect(
      relayApi.createConnection({ name: 'x', baseUrl: 'ftp://nope' }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(relayApi.selectConnection({ id: 'missing' })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('deleting a connection removes its key from the store', async () => {
    const relayApi = await open();
    const saved = await relayApi.createConnection({
      name: 'Local',
      baseUrl: relay.url,
      apiKey: KEY,
    });
    expect(secretIn(await secrets.get(saved.id))).toBe(KEY);
    await relayApi.deleteConnection({ id: saved.id });
    expect(await secrets.get(saved.id)).toBeUndefined();
    expect(await relayApi.listConnections()).toEqual([]);
    expect(events.some((e) => e.channel === 'connections:changed')).toBe(true);
  });

  it('reports retry waits as events for the countdown', async () => {
    const relayApi = await open();
    await relayApi.createConnection({ name: 'Local', baseUrl: relay.url, apiKey: KEY });
    relay.setFaults({ status: 503, failOnce: true });
    await relayApi.listModels({ refresh: true });
    const retry = events.find((e) => e.channel === 'relay:retry-scheduled');
    expect(retry?.payload).toMatchObject({ attempt: 1, kind: 'server_error' });
  });
});
