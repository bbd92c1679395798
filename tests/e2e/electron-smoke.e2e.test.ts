/**
 * The real app, in Electron: launch, try the demo relay, see its models; and a wrong key's 401
 * crossing the real contextBridge whole, so the models screen opens the key field in place.
 *
 * Runs wherever an Electron binary is installed. Where none is (npm cannot download it on the
 * machines that build this project), it is reported as skipped with the reason in its name.
 * `require('electron')` is not used to find the binary: when it is missing, electron's index.js
 * tries to download it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'electron-vite';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_ALLOWLIST } from './harness/allowlist';
import { newKey, startRelay } from './harness/relay';
import { ConnectPage } from './pages/connect-page';
import { ModelsPage } from './pages/models-page';

const ROOT = resolve(import.meta.dirname, '../..');

function findElectron(): { binary: string } | { reason: string } {
  const folder = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(folder, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      reason: 'no Electron binary is installed (node_modules/electron/path.txt is missing)',
    };
  }
  const binary = join(folder, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { reason: `the Electron binary ${binary} is missing` };
  return { binary };
}

const electron = findElectron();
const title =
  'reason' in electron
    ? `real app in Electron (skipped: ${electron.reason})`
    : 'real app in Electron';

describe.skipIf('reason' in electron)(title, () => {
  let app: ElectronApplication | undefined;
  let userData: string;

  async function launch(folder: string): Promise<ElectronApplication> {
    if ('reason' in electron) throw new Error(electron.reason);
    app = await _electron.launch({
      executablePath: electron.binary,
      args: [join(ROOT, 'out', 'main', 'index.js'), `--user-data-dir=${folder}`],
      env: { ...process.env, XDG_CONFIG_HOME: folder },
    });
    return app;
  }

  beforeAll(async () => {
    await build({ root: ROOT, logLevel: 'warn' });
    userData = await mkdtemp(join(tmpdir(), 'relay-electron-'));
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await rm(userData, { recursive: true, force: true });
  });

  it('launches, connects to the demo relay and lists its models', async () => {
    const window = await (await launch(userData)).firstWindow();
    const connect = new ConnectPage(window);
    await connect.waitUntilShown();
    await connect.tryDemo.click();
    const models = new ModelsPage(window);
    await models.open();
    await models.waitForModels();
    await expect(models.modelIds('Chat')).resolves.toEqual([
      'demo-chat',
      'demo-chat-fast',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
    ]);
    await expect(models.demoNotice.textContent()).resolves.toMatch(/synthetic replies/);
    // The real preload exposes the allowlist and nothing of Node.
    const seen = await window.evaluate(() => {
      const page = globalThis as unknown as Record<string, unknown>;
      return {
        require: typeof page['require'],
        process: typeof page['process'],
        keys: Object.keys(page['relay'] as object).sort(),
      };
    });
    expect(seen).toEqual({ require: 'undefined', process: 'undefined', keys: RELAY_ALLOWLIST });
  }, 60_000);

  it('a wrong key: the 401 reaches the page whole and the models screen opens the key field', async () => {
    await app?.close();
    app = undefined;
    const relay = await startRelay([newKey()]);
    const folder = await mkdtemp(join(tmpdir(), 'relay-electron-401-'));
    let launched: ElectronApplication | undefined;
    try {
      launched = await launch(folder);
      const window = await launched.firstWindow();
      const connect = new ConnectPage(window);
      await connect.waitUntilShown();
      await connect.connect({ name: 'Team relay', baseUrl: relay.url, apiKey: newKey() });
      const models = new ModelsPage(window);
      await models.open();
      await models.failure.waitFor();
      // Opened only when the failure arrives with its kind: an Error rebuilt by the
      // contextBridge with its message alone would show a generic failure and no field.
      await window.getByLabel('API key for Team relay').waitFor();
    } finally {
      await launched?.close();
      app = undefined;
      await relay.close();
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
