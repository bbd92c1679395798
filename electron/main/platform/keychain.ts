/**
 * The OS keychain behind the `SecretStore` interface, and the choice of store at start-up.
 *
 * `@napi-rs/keyring` uses the macOS Keychain, the Windows Credential Manager, or on Linux the
 * Secret Service (gnome-keyring, KWallet, KeePassXC) over D-Bus. Left to itself, on Linux it falls
 * back without a word to the kernel keyutils keyring when no Secret Service answers; that keyring
 * lives in kernel memory and is gone after a reboot, so a person would lose their key while being
 * told it was safe. Every entry here is therefore pinned to the Secret Service
 * (`linux: { store: 'secret-service' }`, ignored on other systems): an unreachable Secret Service
 * throws instead, and `openSecretStore` then says so and keeps keys in memory.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AsyncEntry, findCredentialsAsync, type EntryOptions } from '@napi-rs/keyring';
import {
  MemorySecretStore,
  PLAINTEXT_KEYS_FILE,
  PlaintextFileSecretStore,
  SecretStoreError,
  type KeyStorageStatus,
  type SecretStore,
  storageReason,
} from '../services/secret-store';
import { said, type Said } from '../services/words';

/** The keychain service name: every saved connection is one entry under it, named by its id. */
export const KEYCHAIN_SERVICE = 'dev.relaydesktop.app';

const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };
const PROBE_ACCOUNT = '.relay-desktop-probe';

/** One call to the keychain must not hang start-up or a request for ever (a stuck D-Bus peer). */
async function withDeadline<T>(
  what: string,
  timeoutMs: number,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new SecretStoreError(`The system keyring did not answer within ${timeoutMs / 1000} s.`),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(controller.signal), deadline]);
  } catch (error) {
    if (error instanceof SecretStoreError) throw error;
    throw new SecretStoreError(`${what}: ${describeNativeError(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function describeNativeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface KeychainOptions {
  /** Default `dev.relaydesktop.app`; tests use their own so they never touch the app's keys. */
  service?: string;
  /** Per call; default 30 s, long enough for a person to type their keyring password. */
  timeoutMs?: number;
}

/** Keys in the OS keychain, one entry per account (saved connection id). */
export class KeychainSecretStore implements SecretStore {
  readonly status: KeyStorageStatus = { secure: true, persistent: true, backend: 'keychain' };
  readonly #service: string;
  readonly #timeoutMs: number;

  constructor(options: KeychainOptions = {}) {
    this.#service = options.service ?? KEYCHAIN_SERVICE;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  async get(account: string): Promise<string | undefined> {
    const password = await this.#call('Reading the key failed', account, (entry, signal) =>
      entry.getPassword(signal),
    );
    return password ?? undefined;
  }

  async set(account: string, secret: string): Promise<void> {
    await this.#call('Saving the key failed', account, (entry, signal) =>
      entry.setPassword(secret, signal),
    );
  }

  async delete(account: string): Promise<boolean> {
    return this.#call('Removing the key failed', account, (entry, signal) =>
      entry.deletePassword(signal),
    );
  }

  /**
   * One search of the keychain for every entry of the app's service: with 20 connections, 20
   * reads took 100 to 160 ms at start, the search 12 to 35 ms (Secret Service, 2 cores).
   */
  async getAll(): Promise<Map<string, string>> {
    const found = await withDeadline('Reading the keys failed', this.#timeoutMs, (signal) =>
      findCredentialsAsync(this.#service, undefined, signal),
    );
    return new Map(found.map(({ account, password }) => [account, password]));
  }

  #call<T>(
    what: string,
    account: string,
    run: (entry: AsyncEntry, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    return withDeadline(what, this.#timeoutMs, (signal) =>
      // The constructor connects to D-Bus on Linux and throws there when it cannot.
      Promise.resolve().then(() =>
        run(new AsyncEntry(this.#service, account, ENTRY_OPTIONS), signal),
      ),
    );
  }
}

export type KeychainProbe = { ok: true } | { ok: false; reason: Said; detail: string };

/**
 * Checks that the keychain really keeps a secret: writes a random probe value, reads it back and
 * deletes it. Reachable is not enough (a locked keyring whose unlock prompt cannot be shown
 * answers on D-Bus and then refuses), so only a full round trip counts.
 */
export async function probeKeychain(options: KeychainOptions = {}): Promise<KeychainProbe> {
  const store = new KeychainSecretStore(options);
  const value = randomBytes(16).toString('hex');
  try {
    await store.set(PROBE_ACCOUNT, value);
    const read = await store.get(PROBE_ACCOUNT);
    await store.delete(PROBE_ACCOUNT);
    if (read !== value) {
      return {
        ok: false,
        reason: said('keys.storage.mismatch'),
        detail: 'probe value mismatch',
      };
    }
    return { ok: true };
  } catch (error) {
    const detail = describeNativeError(error);
    return { ok: false, reason: reasonFor(detail), detail };
  }
}

/** Turns the keyring's failure into a sentence a person can act on. */
function reasonFor(detail: string): Said {
  if (/prompt was dismissed|locked/i.test(detail)) return said('keys.storage.locked');
  if (/did not answer within/i.test(detail)) return said('keys.storage.noAnswer');
  if (process.platform === 'linux') return said('keys.storage.memory');
  return said('keys.storage.unusable');
}

export interface OpenSecretStoreOptions extends KeychainOptions {
  /** The user data folder, for the plaintext file when the person chose it. */
  userDataDir: string;
  /**
   * Only after the person explicitly agreed: when no keychain works, keep keys unencrypted in a
   * 0600 file in the user data folder instead of in memory (see `PlaintextFileSecretStore`).
   */
  allowPlaintextFile?: boolean;
}

/**
 * The store the app uses: the keychain when a probe round-trips, otherwise memory for this session
 * (or the plaintext file, if the person chose it). Keys left in the plaintext file from a session
 * without a keychain move into the keychain once it works, and the file is deleted.
 */
export async function openSecretStore(options: OpenSecretStoreOptions): Promise<SecretStore> {
  const file = new PlaintextFileSecretStore(join(options.userDataDir, PLAINTEXT_KEYS_FILE));
  const probe = await probeKeychain(options);
  if (probe.ok) {
    const keychain = new KeychainSecretStore(options);
    // A failed move leaves the file for the next start; the keychain works regardless.
    await migrate(file, keychain).catch(() => undefined);
    return keychain;
  }
  if (options.allowPlaintextFile) {
    return new PlaintextFileSecretStore(join(options.userDataDir, PLAINTEXT_KEYS_FILE), {
      detail: probe.detail,
    });
  }
  return new MemorySecretStore({ ...storageReason(probe.reason), detail: probe.detail });
}

async function migrate(from: PlaintextFileSecretStore, to: SecretStore): Promise<void> {
  const entries = await from.entries();
  if (entries.length === 0) return;
  for (const [account, secret] of entries) {
    if ((await to.get(account)) === undefined) await to.set(account, secret);
  }
  await from.remove();
}
