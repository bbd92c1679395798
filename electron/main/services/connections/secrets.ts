/**
 * The secrets of saved connections in the `SecretStore`: each key under its connection's id, the
 * values of its secret headers under `<id>:headers` (a JSON object by name).
 *
 * Each value is kept with the origin it was given for (`bindSecret`), and is read only for a
 * connection whose address has that origin. So a `connections.json` changed outside the app (a
 * backup edited, then restored; a file edited by hand) moves no key: the connection reads as
 * having none, and asks for it again. A value saved before secrets were bound (0.1) is bound the
 * first time it is read, to the origin its connection has then.
 *
 * No error message holds a secret.
 */
import { z } from 'zod';
import { AppError } from '../app-error';
import { RelayError } from '../relay/relay-client';
import type { CustomHeader } from '../relay/custom-headers';
import type { KeyStorageStatus, SecretStore } from '../secret-store';
import { said, type Said } from '../words';
import { originOf } from './connection-input';
import type { Connection } from './store';

/** The key store entry of a connection's secret header values (a JSON object by name). */
export function headerSecretsAccount(id: string): string {
  return `${id}:headers`;
}

const boundSecretSchema = z.object({ v: z.literal(1), origin: z.string(), secret: z.string() });
const headerSecretsSchema = z.record(z.string(), z.string());

/** A secret as the key store keeps it: with the origin it was given for. */
export function bindSecret(origin: string, secret: string): string {
  return JSON.stringify({ v: 1, origin, secret });
}

/** The origin and the secret of a value from the key store; undefined for one saved unbound. */
export function readBoundSecret(stored: string): { origin: string; secret: string } | undefined {
  if (!stored.startsWith('{')) return undefined;
  try {
    const parsed = boundSecretSchema.safeParse(JSON.parse(stored));
    return parsed.success ? { origin: parsed.data.origin, secret: parsed.data.secret } : undefined;
  } catch {
    return undefined;
  }
}

/** Why the key store failed, in main's words (never the secret). */
export function keyStoreMessage(error: unknown, action: 'read' | 'save' | 'remove'): Said {
  return error instanceof Error && error.message
    ? said('connections.keyStore.because', { action, detail: error.message })
    : said('connections.keyStore', { action });
}

/** Values already read in one look-up (`getAll`), by account. */
export type SavedSecrets = ReadonlyMap<string, string>;

export class ConnectionSecrets {
  readonly #store: SecretStore;

  constructor(store: SecretStore) {
    this.#store = store;
  }

  /** How keys are kept (keychain, or memory for this session). */
  get status(): KeyStorageStatus {
    return { ...this.#store.status };
  }

  /**
   * Every secret saved, in one look-up where the store has one (`getAll`); undefined where it
   * has none or it fails, and each is then read on its own (which says why one cannot be read).
   */
  async saved(): Promise<SavedSecrets | undefined> {
    try {
      return await this.#store.getAll?.();
    } catch {
      return undefined;
    }
  }

  /**
   * The secret saved for `account` when it was given for `origin`; undefined when there is none
   * or it was given for another origin (the address changed outside the app: a restored backup,
   * an edited file). A value saved before secrets were bound is bound now, to `origin`.
   * A store that fails is refused in main's words, or as it threw with `storeErrors: 'as thrown'`.
   */
  async key(
    account: string,
    origin: string,
    saved?: SavedSecrets,
    { storeErrors = 'said' }: { storeErrors?: 'said' | 'as thrown' } = {},
  ): Promise<string | undefined> {
    const stored =
      saved?.get(account) ??
      (storeErrors === 'said' ? await this.stored(account) : await this.#store.get(account));
    if (stored === undefined) return undefined;
    const bound = readBoundSecret(stored);
    if (bound !== undefined) return bound.origin === origin ? bound.secret : undefined;
    // Saved by a version that did not bind secrets: it belongs to the address it is read for now.
    await this.#store.set(account, bindSecret(origin, stored)).catch(() => undefined);
    return stored;
  }

  /** A value as the key store keeps it (bound to its origin), or undefined. */
  async stored(account: string): Promise<string | undefined> {
    try {
      return await this.#store.get(account);
    } catch (error) {
      throw new AppError('internal', keyStoreMessage(error, 'read'));
    }
  }

  /** Saves `secret` for `account`, bound to `origin`. */
  async setKey(account: string, origin: string, secret: string): Promise<void> {
    try {
      await this.#store.set(account, bindSecret(origin, secret));
    } catch (error) {
      throw new AppError('internal', keyStoreMessage(error, 'save'));
    }
  }

  async deleteKey(account: string): Promise<void> {
    try {
      await this.#store.delete(account);
    } catch (error) {
      throw new AppError('internal', keyStoreMessage(error, 'remove'));
    }
  }

  /**
   * Puts back a value as it was stored before (`stored`), or removes it when there was none:
   * after a failed save, so the saved connection and its secrets still agree. Never throws.
   */
  async restore(account: string, previous: string | undefined): Promise<void> {
    const put =
      previous === undefined ? this.#store.delete(account) : this.#store.set(account, previous);
    await put.catch(() => undefined);
  }

  /** The secret header values saved for a connection, by name (none: an empty object). */
  async headerSecrets(
    id: string,
    origin: string,
    saved?: SavedSecrets,
  ): Promise<Record<string, string>> {
    const raw = await this.key(headerSecretsAccount(id), origin, saved);
    if (raw === undefined) return {};
    try {
      const parsed = headerSecretsSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  /** Saves the secret header values of a connection, for `origin`; none removes the entry. */
  async setHeaderSecrets(
    id: string,
    origin: string,
    secrets: Readonly<Record<string, string>>,
  ): Promise<void> {
    if (Object.keys(secrets).length === 0) await this.deleteKey(headerSecretsAccount(id));
    else await this.setKey(headerSecretsAccount(id), origin, JSON.stringify(secrets));
  }

  /** What a request sends: every extra header with its value, secret ones from the key store. */
  async headersToSend(connection: Connection): Promise<CustomHeader[]> {
    const stored = connection.headers ?? [];
    if (stored.length === 0) return [];
    const secrets = stored.some((h) => h.secret)
      ? await this.headerSecrets(connection.id, originOf(connection.baseUrl))
      : {};
    return stored.map((header) => {
      if (!header.secret) return { name: header.name, value: header.value ?? '', secret: false };
      const value = secrets[header.name];
      if (value === undefined) {
        throw new RelayError(
          'bad_request',
          said('connections.secretHeaderMissing', { name: header.name }),
          { code: 'header_missing' },
        );
      }
      return { name: header.name, value, secret: true };
    });
  }
}
