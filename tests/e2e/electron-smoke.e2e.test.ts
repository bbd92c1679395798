/**
 * The real app, in Electron: launch, try the demo relay, see its models.
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

  beforeAll(async () => {
    await build({ root: ROOT, logLevel: 'warn' });
    userData = await mkdtemp(join(tmpdir(), 'relay-electron-'));
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await rm(userData, { recursive: true, force: true });
  });

  it('launches, connects to the demo relay and lists its models', async () => {
    if ('reason' in electron) return;
    app = await _electron.launch({
      executablePath: electron.binary,
      args: [join(ROOT, 'out', 'main', 'index.js'), `--user-data-dir=${userData}`],
      env: { ...process.env, XDG_CONFIG_HOME: userData },
    });
    const window = await app.firstWindow();
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
});
