/**
 * The choice to keep keys in a file (where no keychain works), through the real router and
 * services: turning it on is confirmed in a dialog main opens, turning it off deletes the file at
 * once, and the keys stay usable until the app quits.
 */
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import {
  MemorySecretStore,
  PLAINTEXT_KEYS_FILE,
  PlaintextFileSecretStore,
} from '../../electron/main/services/secret-store';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const KEY = 'sk-demo-key-file-3c9e71d2b8a4';

let relay: DemoRelay;
let dataDir: string;
let app: ChatApp | undefined;

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY] });
});
afterAll(() => relay.close());
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-key-file-'));
});
afterEach(async () => {
  await app?.services.close();
  app = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('keeping keys in a file', () => {
  it('is turned on only after the person confirms it in a dialog from main', async () => {
    app = await openChatApp(dataDir, new MemorySecretStore());
    const path = join(dataDir, PLAINTEXT_KEYS_FILE);

    app.dialogs.confirmAnswers.push(false);
    const declined = await app.api.updateSettings({ allowPlaintextKeys: true });
    expect(declined.allowPlaintextKeys).toBe(false);
    expect((await app.api.getSettings()).allowPlaintextKeys).toBe(false);
    expect(app.dialogs.confirmRequests).toHaveLength(1);
    const question = app.dialogs.confirmRequests[0]!;
    expect(`${question.message} ${question.detail}`).toContain(path);
    expect(question.detail).toMatch(/not encrypted|unencrypted/);

    app.dialogs.confirmAnswers.push(true);
    expect((await app.api.updateSettings({ allowPlaintextKeys: true })).allowPlaintextKeys).toBe(
      true,
    );
    expect(app.dialogs.confirmRequests).toHaveLength(2);
    // Saving it again, or other settings, asks nothing more.
    await app.api.updateSettings({ allowPlaintextKeys: true, theme: 'dark' });
    expect(app.dialogs.confirmRequests).toHaveLength(2);
  });

  it('deletes the file the moment it is turned off; the keys last until the app quits', async () => {
    const path = join(dataDir, PLAINTEXT_KEYS_FILE);
    app = await openChatApp(dataDir, new PlaintextFileSecretStore(path));
    app.dialogs.confirmAnswers.push(true);
    await app.api.updateSettings({ allowPlaintextKeys: true });
    const { id } = await app.api.createConnection({
      name: 'Demo',
      baseUrl: relay.url,
      apiKey: KEY,
    });
    expect(await readFile(path, 'utf8')).toContain(KEY);

    await app.api.updateSettings({ allowPlaintextKeys: false });
    expect(await exists(path)).toBe(false);
    // Still connected for this session, from memory, and saying so.
    await app.api.selectConnection({ id });
    expect((await app.api.listModels({ refresh: true })).models.length).toBeGreaterThan(0);
    expect(await app.api.getKeyStorageStatus()).toMatchObject({
      backend: 'memory',
      persistent: false,
    });
    expect(await exists(path)).toBe(false);
  });
});
