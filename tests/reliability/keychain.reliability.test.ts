/**
 * Section 6, keychain: a round trip through the unlocked Secret Service (gnome-keyring over
 * D-Bus, as `npm run test:reliability` and .ci/run provide); no Secret Service at all (detected,
 * keys in memory only, and the status says so plainly); a restart keeps the key.
 *
 * Without a Secret Service on the machine the keychain checks are skipped and the figures say so,
 * unless RELAY_REQUIRE_KEYCHAIN=1, which makes them fail instead.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore, probeKeychain } from '../../electron/main/platform/keychain';
import { MEMORY_REASON } from '../../electron/main/services/secret-store';
import { inChild, withoutSecretService } from '../fakes/keychain-child';
import { CANARY_KEY, cleanUp, suiteDir, sweep } from './lib/canary';
import { count, FULL, recordFigures, type Figure } from './lib/record';

const SERVICE = `dev.relaydesktop.reliability-${randomBytes(4).toString('hex')}`;
const ROUND_TRIPS = count(100, 10);
const probe = await probeKeychain({ service: SERVICE, timeoutMs: 10_000 });
const required = process.env.RELAY_REQUIRE_KEYCHAIN === '1';
const skipKeychain = !probe.ok && !required;

const figures: Figure[] = [];
const notes: string[] = [];
const dirs: string[] = [];
const accounts: string[] = [];
const store = new KeychainSecretStore({ service: SERVICE, timeoutMs: 10_000 });

afterAll(async () => {
  if (probe.ok) await Promise.all(accounts.map((a) => store.delete(a).catch(() => false)));
  if (skipKeychain) {
    figures.unshift({
      name: 'Secret Service available',
      value: 'no: keychain checks skipped',
      target: 'yes',
      ok: false,
    });
    notes.push(`Skipped: ${probe.ok ? '' : probe.detail}`);
  }
  const swept = sweep(dirs);
  figures.push({
    name: 'Canary key in the user data folders',
    value: swept.hits.length,
    target: '0',
    ok: swept.hits.length === 0,
  });
  recordFigures(6, 'Keychain', figures, [...new Set(notes)]);
  cleanUp(dirs);
  expect(swept.hits).toEqual([]);
});

const ms = (start: number) => Math.round(performance.now() - start);

describe.skipIf(skipKeychain)('the unlocked Secret Service', () => {
  it('is reachable', () => {
    expect(probe).toEqual({ ok: true });
  });

  it(`keeps, replaces and deletes the canary key (${ROUND_TRIPS} round trips)`, async () => {
    const times: number[] = [];
    let exact = 0;
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const account = `connection-${randomBytes(6).toString('hex')}`;
      accounts.push(account);
      const started = performance.now();
      await store.set(account, `${CANARY_KEY}-${i}`);
      const read = await store.get(account);
      await store.set(account, CANARY_KEY);
      const replaced = await store.get(account);
      const deleted = await store.delete(account);
      const gone = await store.get(account);
      times.push(ms(started));
      if (read === `${CANARY_KEY}-${i}` && replaced === CANARY_KEY && deleted && gone === undefined)
        exact++;
    }
    times.sort((a, b) => a - b);
    figures.push(
      { name: 'Round trips (set, get, replace, get, delete, get)', value: ROUND_TRIPS },
      {
        name: 'Round trips exactly right',
        value: `${exact} of ${ROUND_TRIPS}`,
        ok: exact === ROUND_TRIPS,
      },
      { name: 'Round trip time, p50', value: times[Math.floor(times.length / 2)] ?? 0, unit: 'ms' },
      { name: 'Round trip time, max', value: times.at(-1) ?? 0, unit: 'ms' },
    );
    expect(exact).toBe(ROUND_TRIPS);
  });

  it('a restart keeps the key: a second process reads what the first saved, and no file is written', async () => {
    const dir = await suiteDir('keychain-restart');
    dirs.push(dir);
    const account = `connection-${randomBytes(6).toString('hex')}`;
    accounts.push(account);
    const first = await inChild({ service: SERVICE, account, set: CANARY_KEY, userDataDir: dir });
    expect(first.status).toEqual({ secure: true, persistent: true, backend: 'keychain' });
    const started = performance.now();
    const second = await inChild({ service: SERVICE, account, userDataDir: dir });
    const restartMs = ms(started);
    expect(second).toEqual({ status: first.status, read: CANARY_KEY });
    expect(readdirSync(dir)).toEqual([]);
    figures.push(
      { name: 'Key read back after a restart (a second process)', value: 'yes', ok: true },
      { name: 'Second process: start, open the store, read', value: restartMs, unit: 'ms' },
      {
        name: 'Files written in the user data folder with the keychain',
        value: 0,
        target: '0',
        ok: true,
      },
    );
  });
});

describe.skipIf(process.platform !== 'linux')('no Secret Service', () => {
  // Both ways of having no bus in the full run; `npm test` has the second in keychain.test.ts.
  it.each(
    (
      [
        ['DBUS_SESSION_BUS_ADDRESS points nowhere', 'unix:path=/nonexistent/relay-desktop-bus'],
        ['DBUS_SESSION_BUS_ADDRESS is unset', undefined],
      ] as Array<[string, string | undefined]>
    ).slice(0, FULL ? 2 : 1),
  )(
    'is detected when %s: memory only, said plainly, nothing written, gone on restart',
    async (what, bus) => {
      const dir = await suiteDir('keychain-none');
      dirs.push(dir);
      const env = withoutSecretService(dir, bus);
      const started = performance.now();
      const result = await inChild(
        { service: SERVICE, account: 'memory-only', set: CANARY_KEY, userDataDir: dir },
        env,
      );
      const detectMs = ms(started);
      expect(result.status).toMatchObject({
        secure: false,
        persistent: false,
        backend: 'memory',
        reason: MEMORY_REASON,
      });
      expect(result.status.reason).toMatch(/No secure key store .* kept in memory until you quit/);
      expect(result.read).toBe(CANARY_KEY);
      expect(readdirSync(dir)).toEqual([]);
      const next = await inChild(
        { service: SERVICE, account: 'memory-only', userDataDir: dir },
        env,
      );
      expect(next.read).toBeNull();
      figures.push(
        {
          name: `No Secret Service (${what}): backend`,
          value: result.status.backend,
          target: 'memory',
          ok: true,
        },
        {
          name: `… process start to "memory only" status and round trip`,
          value: detectMs,
          unit: 'ms',
        },
        { name: '… files written', value: 0, target: '0', ok: true },
        { name: '… key after a restart', value: 'none (as said)', ok: true },
      );
      notes.push(`What the person is told without a Secret Service: “${MEMORY_REASON}”`);
    },
  );
});
