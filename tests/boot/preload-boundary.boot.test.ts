/**
 * The installed app's boundary, end to end without a browser: the built main bundle
 * (`out/main/index.js`, under the Electron double) answers the built preload
 * (`out/preload/index.cjs`), run as a sandboxed preload in a realm of its own, and the page's
 * realm gets `window.relay` through Electron's contextBridge copy rules
 * (tests/harness/context-bridge/vm-realms.ts). The page's own module
 * (`renderer/src/lib/bridge-error.ts`) then unwraps each answer in the page's realm.
 *
 * What it shows: a refused key (401), a drained balance (402), a busy relay (429) and a request
 * main refuses reach the page with every field main sent (kind, status, message key and values,
 * field, wait), as the page's own `BridgeError`, and a good answer arrives whole. Before the
 * preload resolved failures as data, each of these reached the page as `{ message }` alone.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { bridgeRealms, bundleVmWorld, type RealmPair } from '../harness/context-bridge/vm-realms';
import { bootApp, type BootedApp } from './boot-app';
import { mainProcessExports, otherProcessExports } from './electron-api';

const { appRoot, runtime } = inject('boot');
const out = join(appRoot, 'out');
const packageJson = JSON.parse(
  await readFile(join(import.meta.dirname, '../../package.json'), 'utf8'),
) as { version: string; productName: string };

const GOOD_KEY = `sk-boot-${randomBytes(12).toString('hex')}`;
const DRAINED_KEY = `sk-boot-${randomBytes(12).toString('hex')}`;

/** The page's own module, bundled for the page's realm. */
async function pageModule(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(import.meta.dirname, '../../renderer/src/lib/bridge-error.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'pageLib',
    platform: 'neutral',
    write: false,
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

let home: string;
let app: BootedApp;
let relay: DemoRelay;
let realms: RealmPair;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'relay-boundary-'));
  await mkdir(join(home, 'userData'), { recursive: true });
  relay = await startDemoRelay({ keys: [GOOD_KEY, DRAINED_KEY], tokensPerSecond: 0 });
  relay.setBalance(DRAINED_KEY, 0);
  app = await bootApp({
    runtime,
    main: join(out, 'main', 'index.js'),
    exportNames: mainProcessExports(),
    otherProcessNames: otherProcessExports(),
    home,
    appName: packageJson.productName,
    appVersion: packageJson.version,
  });
  await app.ready();
  await app.waitForCall('BrowserWindow#1.show');
  const [vmWorld, preload, lib] = await Promise.all([
    bundleVmWorld(),
    readFile(join(out, 'preload', 'index.cjs'), 'utf8'),
    pageModule(),
  ]);
  realms = bridgeRealms({
    runtime: vmWorld,
    preload,
    main: {
      // ipcMain.handle's answer, from the window's page; a handler's throw rejects the invoke.
      async handle(channel, payload) {
        const answer = await app.invoke(channel, payload);
        if (!answer.ok) throw new Error(answer.error);
        return answer.value;
      },
      on: (channel, payload) => void app.send(channel, payload),
    },
  });
  realms.inPage(lib);
  realms.inPage('globalThis.page = pageLib.unwrapBridge(globalThis.relay);');
}, 120_000);

afterAll(async () => {
  await app?.kill();
  await relay?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

/** Runs `body` (an async function's body, with `relay` and `page` in scope) in the page's realm. */
async function inPage<T>(body: string): Promise<T> {
  const json = await realms.inPage<Promise<string>>(
    `(async () => { const relay = globalThis.relay; const page = globalThis.page; ${body} })()` +
      `.then((seen) => JSON.stringify(seen === undefined ? null : seen))`,
  );
  return JSON.parse(json) as T;
}

const ERROR_FIELDS = [
  'kind',
  'message',
  'status',
  'param',
  'code',
  'retryAfterMs',
  'partialText',
  'messageId',
  'values',
  'parts',
];

/** What a failed call leaves the page with: whether the page's own error, and its fields. */
async function failure(
  call: string,
): Promise<{ pageError: boolean; fields: Record<string, unknown> }> {
  return inPage(`
    try { await page.${call}; return { pageError: false, fields: 'resolved' }; } catch (error) {
      const fields = {};
      for (const key of ${JSON.stringify(ERROR_FIELDS)}) if (error[key] !== undefined) fields[key] = error[key];
      return { pageError: error instanceof Error && error.name === 'BridgeError', fields };
    }`);
}

/** The error main's router answers `channel` with, asked directly of the main bundle. */
async function mainError(channel: string, payload: unknown): Promise<Record<string, unknown>> {
  const answer = await app.invoke(channel, payload);
  if (!answer.ok) throw new Error(answer.error);
  const result = answer.value as { ok: boolean; error?: Record<string, unknown> };
  if (result.ok || !result.error) throw new Error(`${channel} did not fail`);
  return result.error;
}

describe('the built preload, behind the context bridge, against the built main bundle', () => {
  it('exposes the contract and nothing of Node, frozen, and answers a good call whole', async () => {
    expect(realms.preloadErrors).toEqual([]);
    const seen = await inPage<{ frozen: boolean; require: string; info: unknown }>(`
      return { frozen: Object.isFrozen(relay), require: typeof globalThis.require,
        info: await relay.getAppInfo() };`);
    expect(seen).toEqual({
      frozen: true,
      require: 'undefined',
      info: { ok: true, value: expect.objectContaining({ version: packageJson.version }) },
    });
  });

  it('a request main refuses reaches the page with its kind, message key, values and field', async () => {
    const seen = await failure(`deleteConnection({ id: '' })`);
    expect(seen.pageError).toBe(true);
    expect(seen.fields).toMatchObject({
      kind: 'invalid_request',
      param: 'id',
      messageId: expect.any(String),
      values: expect.any(Object),
    });
    expect(seen.fields).toEqual(await mainError('connections:delete', { id: '' }));
  });

  it('a refused key (401) reaches the page with every field main sent', async () => {
    await inPage(`
      const made = await page.createConnection({ name: 'Boundary', baseUrl: ${JSON.stringify(relay.url)}, apiKey: 'sk-not-a-key-0123456789' });
      await page.selectConnection({ id: made.id });`);
    const seen = await failure('listModels({ refresh: true })');
    expect(seen.pageError).toBe(true);
    expect(seen.fields).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(seen.fields).toEqual(await mainError('models:list', { refresh: true }));
  });

  it('a drained balance (402) reaches the page with every field main sent', async () => {
    await inPage(`
      const [made] = await page.listConnections();
      await page.updateConnection({ id: made.id, changes: { apiKey: ${JSON.stringify(DRAINED_KEY)} } });`);
    const seen = await failure('listModels({ refresh: true })');
    expect(seen.pageError).toBe(true);
    expect(seen.fields).toMatchObject({ kind: 'insufficient_balance', status: 402 });
    expect(seen.fields).toEqual(await mainError('models:list', { refresh: true }));
  });

  it('a busy relay (429) reaches the page with every field main sent, the wait it asked for too', async () => {
    await inPage(`
      const [made] = await page.listConnections();
      await page.updateConnection({ id: made.id, changes: { apiKey: ${JSON.stringify(GOOD_KEY)} } });`);
    relay.setFaults({ status: 429 });
    try {
      const seen = await failure('listModels({ refresh: true })');
      expect(seen.pageError).toBe(true);
      expect(seen.fields).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 1000 });
      expect(seen.fields).toEqual(await mainError('models:list', { refresh: true }));
    } finally {
      relay.setFaults(undefined);
    }
    // And with the relay answering again, the same call arrives whole.
    const models = await inPage<{ ok: boolean; value: { models: unknown[] } }>(
      'return relay.listModels({ refresh: true });',
    );
    expect(models.ok).toBe(true);
    expect(models.value.models.length).toBeGreaterThan(0);
  });

  it('a drop reaches the page as grants through the page’s own module: one entry per file', async () => {
    // No DOM here, so nothing is a file on disk: each entry is null, resolved as data, and the
    // page's module unwraps it as it unwraps a route's answer.
    const seen = await inPage<{ exposed: unknown; page: unknown }>(`
      const files = [{ name: 'a.txt' }, { name: 'b.txt' }];
      return { exposed: await relay.grantDroppedFiles(files, 'attach'),
        page: await page.grantDroppedFiles(files, 'knowledge') };`);
    expect(seen).toEqual({ exposed: { ok: true, value: [null, null] }, page: [null, null] });
  });
});
