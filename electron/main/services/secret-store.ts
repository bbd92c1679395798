/**
 * Where API keys are kept: the `SecretStore` interface and the stores that need no native code.
 *
 * Services take a `SecretStore` in their constructor. In the app it is the OS keychain
 * (`platform/keychain.ts`) or, when no keychain works, one of the two stores below; in tests it is
 * the memory store or the real keychain. A store keeps one secret per account id (a saved
 * connection's id) and never logs, returns in an error or otherwise exposes a secret.
 */
import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from './connections-file';

/** How keys are kept right now, in words a person can act on. */
export interface KeyStorageStatus {
  /** True only when the operating system protects the key (Keychain, Credential Manager, Secret Service). */
  secure: boolean;
  /** True when a saved key is still there after the app quits. */
  persistent: boolean;
  backend: 'keychain' | 'memory' | 'file';
  /** Why the store is not the keychain, as a sentence to show the person. */
  reason?: string;
  /** The underlying failure, for logs and bug reports; never holds a key. */
  detail?: string;
}

export interface SecretStore {
  readonly status: KeyStorageStatus;
  /** The secret saved for `account`, or undefined when there is none. */
  get(account: string): Promise<string | undefined>;
  /** Saves or replaces the secret for `account`. */
  set(account: string, secret: string): Promise<void>;
  /** Removes the secret; resolves false when there was none. */
  delete(account: string): Promise<boolean>;
}

/** A store that failed (locked, unreachable, unwritable file). The message never holds a key. */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
}

export const MEMORY_REASON =
  'No secure key store (Secret Service) was found, so your key is kept in memory until you quit.';

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
      reason: MEMORY_REASON,
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
  readonly status: KeyStorageStatus;
  readonly #path: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string, status: Partial<KeyStorageStatus> = {}) {
    this.#path = path;
    this.status = {
      secure: false,
      persistent: true,
      backend: 'file',
      reason: `No secure key store was found. As you chose, your key is saved unencrypted in ${path}, which any program running as you can read.`,
      ...status,
    };
  }

  async get(account: string): Promise<string | undefined> {
    await this.#queue;
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
      const secrets = await this.#read();
      change(secrets);
      await writeFileAtomic(this.#path, JSON.stringify(secrets), { mode: 0o600 });
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
