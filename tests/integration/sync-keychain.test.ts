/**
 * Sync's secrets in the real keychain (gnome-keyring over D-Bus, as `.ci/run` gives): the sync
 * key and this computer's id are kept there, a restart syncs without asking for the phrase
 * again, and turning sync off takes them out. Skipped, saying why, outside a Secret Service
 * unless RELAY_REQUIRE_KEYCHAIN=1. Entries go under a service name of their own per run.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/main/app-services';
import { createRouter, trustedSender } from '../../electron/main/ipc/router';
import { KeychainSecretStore, probeKeychain } from '../../electron/main/platform/keychain';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { pageBridge, type PageBridge } from '../fakes/page-bridge';

const SERVICE = `dev.relaydesktop.test-sync-${randomBytes(4).toString('hex')}`;
const ACCOUNTS = ['sync.key', 'sync.device', 'sync.secret'];
const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 7 };

const probe = await probeKeychain({ service: SERVICE, timeoutMs: 10_000 });
const required = process.env.RELAY_REQUIRE_KEYCHAIN === '1';
const skipReason = probe.ok
  ? ''
  : `no usable Secret Service (${probe.detail}); run inside dbus-run-session with an unlocked gnome-keyring, as .ci/run does`;
if (skipReason && !required) console.warn(`Sync keychain tests skipped: ${skipReason}`);
const skip = !probe.ok && !required;

let root: string;
let storage: string;
let opened: AppServices[] = [];

async function open(name: string, keychain: KeychainSecretStore): Promise<PageBridge> {
  const services = await createAppServices({
    userDataDir: join(root, name),
    secretStore: keychain,
    dialogs: {
      chooseSavePath: async () => undefined,
      chooseOpenPaths: async () => [],
      chooseFolder: async () => storage,
    },
    syncSeams: {
      scryptCost: { N: 2 ** 12, r: 8, p: 1 },
      timing: { startDelayMs: 3_600_000, pollMs: 3_600_000, intervalMs: 3_600_000 },
    },
  });
  opened.push(services);
  const router = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [7]),
  });
  return pageBridge(
    (channel, payload) => router.dispatch(channel, payload, sender),
    () => () => undefined,
    (channel, payload) => void router.receive(channel, payload, sender),
  );
}

async function closeAll() {
  for (const services of opened) await services.close();
  opened = [];
}

describe.skipIf(skip)(`sync in the real keychain${skip ? ` (skipped: ${skipReason})` : ''}`, () => {
  // Each computer its own keychain: its own service name.
  const laptopKeys = new KeychainSecretStore({ service: `${SERVICE}-a`, timeoutMs: 10_000 });
  const desktopKeys = new KeychainSecretStore({ service: `${SERVICE}-b`, timeoutMs: 10_000 });

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'relay-sync-keychain-'));
    storage = join(root, 'storage');
    await mkdir(storage);
  });
  afterEach(async () => {
    await closeAll();
    for (const store of [laptopKeys, desktopKeys])
      for (const account of ACCOUNTS) await store.delete(account).catch(() => false);
    await rm(root, { recursive: true, force: true });
  });

  it('a wrong phrase leaves the keychain empty; the right one keeps the key there', async () => {
    const laptop = await open('laptop', laptopKeys);
    await laptop.chooseSyncFolder();
    const { phrase } = await laptop.startNewSync({ target: { kind: 'folder' } });
    await laptop.createConversation({ title: 'Kept through a restart' });
    await laptop.syncNow();
    expect(await laptopKeys.get('sync.key')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await laptopKeys.get('sync.device')).toMatch(/^[0-9a-f]{16}$/);

    const desktop = await open('desktop', desktopKeys);
    await desktop.chooseSyncFolder();
    await expect(
      desktop.joinSync({
        target: { kind: 'folder' },
        phrase: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
      }),
    ).rejects.toMatchObject({ messageId: 'sync.phrase.wrong' });
    for (const account of ACCOUNTS) expect(await desktopKeys.get(account)).toBeUndefined();
    await desktop.joinSync({ target: { kind: 'folder' }, phrase });
    expect(await desktopKeys.get('sync.key')).toBe(await laptopKeys.get('sync.key'));
    // The key is in the keychain only: not in the user data folder.
    const file = await readFile(join(root, 'desktop', 'sync.json'), 'utf8');
    expect(file).not.toContain((await desktopKeys.get('sync.key'))!);
  });

  it('a restart syncs with the key from the keychain; turning off takes it out', async () => {
    const laptop = await open('laptop', laptopKeys);
    await laptop.chooseSyncFolder();
    const { phrase } = await laptop.startNewSync({ target: { kind: 'folder' } });
    const desktop = await open('desktop', desktopKeys);
    await desktop.chooseSyncFolder();
    await desktop.joinSync({ target: { kind: 'folder' }, phrase });
    await closeAll();

    const laptopAgain = await open('laptop', laptopKeys);
    await laptopAgain.createConversation({ title: 'After the restart' });
    expect((await laptopAgain.syncNow()).problem).toBeNull();
    const desktopAgain = await open('desktop', desktopKeys);
    expect((await desktopAgain.syncNow()).problem).toBeNull();
    expect((await desktopAgain.listConversations()).map((c) => c.title)).toContain(
      'After the restart',
    );

    expect((await desktopAgain.turnOffSync()).state).toBe('off');
    for (const account of ACCOUNTS) expect(await desktopKeys.get(account)).toBeUndefined();
    expect(await laptopKeys.get('sync.key')).toBeDefined();
  });
});
