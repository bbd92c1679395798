/**
 * The key store against the real Secret Service (gnome-keyring over D-Bus), and what happens when
 * there is none. `.ci/run` runs the tests inside `dbus-run-session` with an unlocked gnome-keyring
 * and sets RELAY_REQUIRE_KEYCHAIN=1, so there the keychain tests must run. Elsewhere (a plain
 * `npx vitest` outside D-Bus) they are skipped, and the skip says why.
 *
 * Entries go under a service name of their own per run, so these tests never touch the app's keys.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  KeychainSecretStore,
  openSecretStore,
  probeKeychain,
} from '../../electron/main/platform/keychain';
import { ConnectionsService } from '../../electron/main/services/connections/connections';
import { readBoundSecret } from '../../electron/main/services/connections/secrets';
import {
  MEMORY_REASON,
  PLAINTEXT_KEYS_FILE,
  PlaintextFileSecretStore,
} from '../../electron/main/services/secret-store';
import {
  inChild as runInChild,
  withoutSecretService,
  type ChildOptions,
  type ChildResult,
} from '../fakes/keychain-child';

const SERVICE = `dev.relaydesktop.test-${randomBytes(4).toString('hex')}`;
const KEY = `sk-keychain-canary-${randomBytes(8).toString('hex')}`;

const probe = await probeKeychain({ service: SERVICE, timeoutMs: 10_000 });
const required = process.env.RELAY_REQUIRE_KEYCHAIN === '1';
const skipReason = probe.ok
  ? ''
  : `no usable Secret Service (${probe.detail}); run the tests inside dbus-run-session with an unlocked gnome-keyring, as .ci/run does`;
if (skipReason && !required) console.warn(`Keychain tests skipped: ${skipReason}`);
const skipKeychain = !probe.ok && !required;

/** A fresh Node process under this run's service name (a restart, or no Secret Service). */
function inChild(
  options: Omit<ChildOptions, 'service'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildResult> {
  return runInChild({ ...options, service: SERVICE }, env);
}

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'relay-keychain-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe.skipIf(skipKeychain)(
  `the real keychain${skipKeychain ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const store = new KeychainSecretStore({ service: SERVICE, timeoutMs: 10_000 });
    const accounts: string[] = [];
    const account = () => {
      const id = `connection-${randomBytes(6).toString('hex')}`;
      accounts.push(id);
      return id;
    };
    afterAll(async () => {
      await Promise.all(accounts.map((a) => store.delete(a).catch(() => false)));
    });

    it('is reachable and keeps a secret (required in CI)', () => {
      expect(probe).toEqual({ ok: true });
    });

    it('saves, reads, replaces and deletes a key', async () => {
      const id = account();
      expect(await store.get(id)).toBeUndefined();
      await store.set(id, KEY);
      expect(await store.get(id)).toBe(KEY);
      await store.set(id, `${KEY}-2`);
      expect(await store.get(id)).toBe(`${KEY}-2`);
      expect(await store.delete(id)).toBe(true);
      expect(await store.get(id)).toBeUndefined();
      expect(await store.delete(id)).toBe(false);
    });

    it('finds every key of the service in one look-up', async () => {
      const a = account();
      const b = account();
      await store.set(a, `${KEY}-a`);
      await store.set(b, `${KEY}-b`);
      const all = await store.getAll();
      expect(all.get(a)).toBe(`${KEY}-a`);
      expect(all.get(b)).toBe(`${KEY}-b`);
      await store.delete(a);
      expect((await store.getAll()).has(a)).toBe(false);
    });

    it('keeps one entry per connection', async () => {
      const a = account();
      const b = account();
      await store.set(a, `${KEY}-a`);
      await store.set(b, `${KEY}-b`);
      await store.delete(a);
      expect(await store.get(b)).toBe(`${KEY}-b`);
    });

    it('is the store the app opens, reported as secure and persistent', async () => {
      const opened = await openSecretStore({ service: SERVICE, userDataDir: dir });
      expect(opened.status).toEqual({ secure: true, persistent: true, backend: 'keychain' });
    });

    it('still has the key after a restart: a second process reads what the first saved', async () => {
      const id = account();
      const first = await inChild({ account: id, set: KEY, userDataDir: dir });
      expect(first.status.backend).toBe('keychain');
      const second = await inChild({ account: id, userDataDir: dir });
      expect(second).toEqual({ status: first.status, read: KEY });
      expect(await fs.readdir(dir)).toEqual([]);
    });

    it('holds the keys of saved connections and removes them with the connection', async () => {
      const connections = new ConnectionsService({ dataDir: dir, secrets: store });
      const created = await connections.create({
        name: 'Keychain',
        baseUrl: 'https://relay.example.com',
        apiKey: KEY,
      });
      accounts.push(created.id);
      expect(created).toMatchObject({ hasKey: true, keyLast4: KEY.slice(-4) });
      // Kept with the origin it was given for (read only for a connection at that origin).
      expect(readBoundSecret((await store.get(created.id)) ?? '')).toEqual({
        origin: 'https://relay.example.com',
        secret: KEY,
      });
      const files = await fs.readdir(dir);
      for (const name of files)
        expect(await fs.readFile(join(dir, name), 'utf8')).not.toContain(KEY);
      await connections.delete(created.id);
      expect(await store.get(created.id)).toBeUndefined();
    });

    it('moves keys from a plaintext file into the keychain once one works, and deletes the file', async () => {
      const id = account();
      const file = new PlaintextFileSecretStore(join(dir, PLAINTEXT_KEYS_FILE));
      await file.set(id, KEY);
      const opened = await openSecretStore({ service: SERVICE, userDataDir: dir });
      expect(opened.status.backend).toBe('keychain');
      expect(await opened.get(id)).toBe(KEY);
      await expect(fs.access(join(dir, PLAINTEXT_KEYS_FILE))).rejects.toThrow();
    });
  },
);

// What a person sees on a Linux desktop without a Secret Service. The D-Bus address only matters
// on Linux; macOS and Windows always have their keychain.
describe.skipIf(process.platform !== 'linux')('without a Secret Service', () => {
  it.each([
    ['DBUS_SESSION_BUS_ADDRESS points nowhere', 'unix:path=/nonexistent/relay-desktop-bus'],
    ['DBUS_SESSION_BUS_ADDRESS is unset', undefined],
  ])('keeps keys in memory for the session and says so, when %s', async (_case, busAddress) => {
    const env = withoutSecretService(dir, busAddress);
    const result = await inChild({ account: 'memory-only', set: KEY, userDataDir: dir }, env);
    expect(result.status).toEqual({
      secure: false,
      persistent: false,
      backend: 'memory',
      reason: MEMORY_REASON,
      // The same sentence by its key, for the page's language.
      messageId: 'keys.storage.memory',
      detail: expect.any(String),
    });
    // The round trip works within the session…
    expect(result.read).toBe(KEY);
    // …but nothing was written anywhere, and the next start has no key.
    expect(await fs.readdir(dir)).toEqual([]);
    const next = await inChild({ account: 'memory-only', userDataDir: dir }, env);
    expect(next.read).toBeNull();
  });

  it('keeps keys in a file only this user can read, when the person chose that', async () => {
    const env = withoutSecretService(dir, 'unix:path=/nonexistent/relay-desktop-bus');
    const path = join(dir, PLAINTEXT_KEYS_FILE);
    const first = await inChild(
      { account: 'file', set: KEY, userDataDir: dir, allowPlaintextFile: true },
      env,
    );
    expect(first.status).toMatchObject({ secure: false, persistent: true, backend: 'file' });
    expect(first.status.reason).toContain('unencrypted');
    expect(first.status.reason).toContain(path);
    expect((await fs.stat(path)).mode & 0o777).toBe(0o600);
    const second = await inChild(
      { account: 'file', userDataDir: dir, allowPlaintextFile: true },
      env,
    );
    expect(second.read).toBe(KEY);
  });
});
