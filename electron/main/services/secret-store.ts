/**
 * Where API keys are kept: the `SecretStore` interface and the stores that need no native code.
 *
 * Services take a `SecretStore` in their constructor. In the app it is the OS keychain
 * (`platform/keychain.ts`) or, when no keychain works, one of the two stores below; in tests it is
 * the memory store or the real keychain. A store keeps one secret per account id (a saved
 * connection's id) and never logs, returns in an error or otherwise exposes a secret.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ErrorMessageKey, MessageValues } from '../../shared/messages/keys';
import { writeFileAtomic } from './data-files';
import { messageFieldsAs, said, type Said } from './words';

/** The file keys are kept in when the person chose that, inside the user data folder. */
export const PLAINTEXT_KEYS_FILE = 'keys.insecure.json';

/** How keys are kept right now, in words a person can act on. */
export interface KeyStorageStatus {
  /** True only when the operating system protects the key (Keychain, Credential Manager, Secret Service). */
  secure: boolean;
  /** True when a saved key is still there after the app quits. */
  persistent: boolean;
  backend: 'keychain' | 'memory' | 'file';
  /** Why the store is not the keychain, as a sentence to show the person (in English). */
  reason?: string | undefined;
  /** `reason` by its key in main's catalogue, and its values: shown in the person's language. */
  messageId?: ErrorMessageKey | undefined;
  values?: MessageValues | undefined;
  /** The underlying failure, for logs and bug reports; never holds a key. */
  detail?: string | undefined;
}

export interface SecretStore {
  readonly status: KeyStorageStatus;
  /** The secret saved for `account`, or undefined when there is none. */
  get(account: string): Promise<string | undefined>;
  /** Saves or replaces the secret for `account`. */
  set(account: string, secret: string): Promise<void>;
  /** Removes the secret; resolves false when there was none. */
  delete(account: string): Promise<boolean>;
  /**
   * Every secret saved, by account, in one look-up, where one `get` each would cost a round trip
   * (the keychain): for the list of connections. Optional; an account it leaves out is read with
   * `get` all the same, so it may find fewer than there are, never more.
   */
  getAll?(): Promise<Map<string, string>>;
}

/** A store that failed (locked, unreachable, unwritable file). The message never holds a key. */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
}

/** A reason as the status carries it: English text, with its key and values. */
export function storageReason(
  sentence: Said,
): Pick<KeyStorageStatus, 'reason' | 'messageId' | 'values'> {
  return messageFieldsAs('reason', sentence);
}

const memoryReason = (): Said => said('keys.storage.memory');

export const MEMORY_REASON = memoryReason().english;

/**
 * Keys for this session only: the fallback when no keychain works, and the store tests use.
 */
export class MemorySecretStore implements SecretStore {
  readonly status: KeyStorageStatus;
  readonly #secrets = new Map<string, string>();

  constructor(status: Partial<KeyStorageStatus> = {}) {
    this.status = {
      secure: false,
      persistent: false,
      backend: 'memory',
      ...storageReason(memoryReason()),
      ...status,
    };
  }

  async get(account: string): Promise<string | undefined> {
    return this.#secrets.get(account);
  }

  async set(account: string, secret: string): Promise<void> {
    this.#secrets.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return this.#secrets.delete(account);
  }

  async getAll(): Promise<Map<string, string>> {
    return new Map(this.#secrets);
  }

  /** The accounts that have a secret. */
  accounts(): string[] {
    return [...this.#secrets.keys()];
  }

  /** Replaces every secret at once. */
  replaceAll(secrets: Readonly<Record<string, string>>): void {
    this.#secrets.clear();
    for (const [account, secret] of Object.entries(secrets)) this.#secrets.set(account, secret);
  }
}

/**
 * Keys in a plain JSON file readable only by the user (mode 0600), used only when the person has
 * explicitly asked for it because no keychain works on their machine.
 *
 * Why offer this at all rather than refuse: without it, a person on a desktop without a Secret
 * Service (a minimal window manager, a headless box) must paste their key after every start,
 * and people in that position tend to put the key somewhere worse (a shell profile, a note).
 * A 0600 file in the app's own data folder is the same protection `gh`, `aws` and `docker` give
 * tokens in that situation. What makes it acceptable is that it is never chosen silently: the
 * status says plainly that the key is unencrypted and where it is, and the app must pass
 * `allowPlaintextFile` only after the person agreed to that sentence.
 */
export class PlaintextFileSecretStore implements SecretStore {
  #status: KeyStorageStatus;
  readonly #path: string;
  #queue: Promise<unknown> = Promise.resolve();
  /** Once the person turned the file off: the keys, for the rest of the session only. */
  #memory: MemorySecretStore | undefined;

  constructor(path: string, status: Partial<KeyStorageStatus> = {}) {
    this.#path = path;
    this.#status = {
      secure: false,
      persistent: true,
      backend: 'file',
      ...storageReason(said('keys.storage.file', { path })),
      ...status,
    };
  }

  get status(): KeyStorageStatus {
    return this.#memory?.status ?? this.#status;
  }

  get path(): string {
    return this.#path;
  }

  async get(account: string): Promise<string | undefined> {
    await this.#queue;
    if (this.#memory) return this.#memory.get(account);
    return (await this.#read())[account];
  }

  set(account: string, secret: string): Promise<void> {
    return this.#update((secrets) => {
      secrets[account] = secret;
      return undefined;
    });
  }

  async delete(account: string): Promise<boolean> {
    let existed = false;
    await this.#update((secrets) => {
      existed = Object.hasOwn(secrets, account);
      delete secrets[account];
      return undefined;
    });
    return existed;
  }

  /** Every saved secret, to move them into the keychain once one works. */
  async entries(): Promise<[string, string][]> {
    await this.#queue;
    return Object.entries(await this.#read());
  }

  /** Deletes the file (after its keys moved to a secure store). */
  async remove(): Promise<void> {
    await this.#queue;
    await rm(this.#path, { force: true });
  }

  /**
   * Stops keeping keys in the file, at once: its keys move to memory for the rest of the session
   * and the file is deleted. A file that cannot be read is deleted all the same (its keys are
   * then entered again): the person asked for no key on disk.
   */
  moveToMemory(): Promise<void> {
    const next = this.#queue.then(async () => {
      if (this.#memory) return;
      const memory = new MemorySecretStore({
        detail: this.#status.detail,
        ...storageReason(said('keys.storage.noLongerFile')),
      });
      const secrets = await this.#read().catch(() => ({}) as Record<string, string>);
      for (const [account, secret] of Object.entries(secrets)) await memory.set(account, secret);
      this.#memory = memory;
      await rm(this.#path, { force: true });
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #read(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new SecretStoreError(
        `The key file ${this.#path} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
      const secrets: Record<string, string> = Object.create(null);
      for (const [account, secret] of Object.entries(parsed)) {
        if (typeof secret === 'string') secrets[account] = secret;
      }
      return secrets;
    } catch {
      // Never echo the file: it holds keys.
      throw new SecretStoreError(`The key file ${this.#path} is damaged; enter your keys again.`);
    }
  }

  #update(change: (secrets: Record<string, string>) => undefined): Promise<void> {
    const next = this.#queue.then(async () => {
      const memory = this.#memory;
      if (memory) {
        const secrets: Record<string, string> = {};
        for (const account of memory.accounts()) secrets[account] = (await memory.get(account))!;
        change(secrets);
        memory.replaceAll(secrets);
        return;
      }
      const secrets = await this.#read();
      change(secrets);
      await writeFileAtomic(this.#path, JSON.stringify(secrets), { mode: 0o600 });
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/**
 * Stops keeping keys in a file, at once (the person turned the choice off): the file in
 * `userDataDir` is deleted now, and when it is the store in use, its keys move to memory until
 * the app quits.
 */
export async function stopKeepingKeysInFile(
  userDataDir: string,
  store: SecretStore,
): Promise<void> {
  if (store instanceof PlaintextFileSecretStore) await store.moveToMemory();
  await rm(join(userDataDir, PLAINTEXT_KEYS_FILE), { force: true });
}
