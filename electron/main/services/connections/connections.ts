/**
 * Saved connections: which relays the person uses, which one is active, and the key of each.
 *
 * The list lives in `connections.json` in the user data folder; each key lives in the
 * `SecretStore` under its connection's id. The key itself never leaves this service except into
 * a relay client: summaries carry only whether a key is saved and its last four characters, and no
 * error message holds it.
 *
 * A saved key belongs to the origin (scheme, host and port) of its connection's address, and goes
 * nowhere else, whatever the page asks for:
 * - changing the address to another origin without giving a new key removes the saved key (the
 *   person pastes it again). A confirmation dialog was the other choice; it was not taken because
 *   a page script can ask again and again until a tired person agrees, while dropping the key
 *   leaves a script nothing to gain but the person's annoyance;
 * - "Test connection" with a draft address reads the saved key only when the draft's origin is the
 *   connection's;
 * - a relay client reads the key on each attempt only while the connection's address still has
 *   the client's origin, and never follows a redirect (`relay-client.ts`);
 * - plain http to a host outside this machine and the local network gets the key only when the
 *   person chose "send my key unencrypted", confirmed in a dialog main opens.
 *
 * Extra request headers (for gateways) are kept with the connection; the value of a header marked
 * secret is kept in the `SecretStore` like the key (under `<id>:headers`), never in the file and
 * never in a summary, and follows the key's rules: bound to the origin, removed when the address
 * moves, sent only by a relay client that never follows a redirect.
 *
 * The binding is kept with the secret itself, in the key store (`secrets.ts`).
 */
import { randomUUID } from 'node:crypto';
import type { DemoRelayOptions, DemoRelay } from '../../../demo-relay/index';
import { Listeners } from '../listeners';
import type { DataFileProblem } from '../data-files';
import type { FetchLike, RelayClient } from '../relay/relay-client';
import type { RequestLimiter } from '../relay/limiter';
import type { KeyStorageStatus, SecretStore } from '../secret-store';
import { RelayClientFactory, type ClientOptions } from './client-factory';
import {
  checkChanges,
  checkNewConnection,
  keyInClear,
  originOf,
  splitHeaders,
  unencryptedRefused,
} from './connection-input';
import { testConnection, type ConnectionDraft, type ConnectionTestResult } from './connection-test';
import { DemoHost } from './demo-host';
import { summarize } from './summary';
import { ConnectionSecrets, headerSecretsAccount } from './secrets';
import { ConnectionsStore, findConnection, type Connection, type ConnectionsFile } from './store';
import type { ConnectionChanges, ConnectionSummary, NewConnection } from './types';

export type * from './types';

export interface ConnectionsServiceOptions {
  /** The user data folder; the list is kept in `connections.json` inside it. */
  dataDir: string;
  secrets: SecretStore;
  /** Electron's `net.fetch` in the app, Node's `fetch` in tests. */
  fetch?: FetchLike;
  /**
   * For the embedded demo relay, which runs in this process on loopback: a fetch that no proxy
   * setting can send elsewhere (Node's own, in the app). `fetch` if absent.
   */
  directFetch?: FetchLike;
  /** How long "Test connection" waits for the relay's headers. Default 15 s. */
  testTimeoutMs?: number;
  /** Starts the demo relay; injectable so tests can watch or slow it. */
  startDemoRelay?: (options: DemoRelayOptions) => Promise<DemoRelay>;
  now?: () => Date;
  newId?: () => string;
  /**
   * Asks the person, in a dialog main opens, to agree to send a key unencrypted to `origin`.
   * Absent (tests, no window), the answer is no.
   */
  confirmUnencrypted?: (origin: string) => Promise<boolean>;
  /** Requests at once to one relay (`relay/limiter.ts`); default `MAX_CONCURRENT_REQUESTS`. */
  maxConcurrentRequests?: number;
}

/**
 * The saved connections, composed of the file (`store.ts`), the key store (`secrets.ts`), the
 * demo relay (`demo-host.ts`) and the relay clients (`client-factory.ts`).
 */
export class ConnectionsService {
  readonly #store: ConnectionsStore;
  readonly #secrets: ConnectionSecrets;
  readonly #demo: DemoHost;
  readonly #clients: RelayClientFactory;
  readonly #testTimeoutMs: number;
  readonly #newId: () => string;
  readonly #confirmUnencrypted: (origin: string) => Promise<boolean>;
  readonly #listeners = new Listeners();

  constructor(options: ConnectionsServiceOptions) {
    this.#store = new ConnectionsStore(options.dataDir, options.now);
    this.#secrets = new ConnectionSecrets(options.secrets);
    this.#newId = options.newId ?? randomUUID;
    this.#demo = new DemoHost({
      store: this.#store,
      secrets: this.#secrets,
      newId: this.#newId,
      startDemoRelay: options.startDemoRelay,
    });
    this.#clients = new RelayClientFactory({
      store: this.#store,
      secrets: this.#secrets,
      fetch: options.fetch,
      directFetch: options.directFetch,
      maxConcurrentRequests: options.maxConcurrentRequests,
    });
    this.#testTimeoutMs = options.testTimeoutMs ?? 15_000;
    this.#confirmUnencrypted = options.confirmUnencrypted ?? (async () => false);
  }

  /**
   * Calls `listener` after a connection was saved, removed, or had its name, address, console
   * address or headers changed (sync sends those); not for a key alone or the one in use.
   */
  onChange(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  /** How keys are kept (keychain, or memory for this session), to tell the person. */
  keyStorage(): KeyStorageStatus {
    return this.#secrets.status;
  }

  /** A damaged or unreadable connections file found at start, to tell the person once. */
  fileProblem(): Promise<DataFileProblem | undefined> {
    return this.#store.problem();
  }

  async list(): Promise<ConnectionSummary[]> {
    const file = await this.#store.read();
    const saved = await this.#secrets.saved();
    return Promise.all(file.connections.map((c) => summarize(this.#secrets, c, saved)));
  }

  async get(id: string): Promise<ConnectionSummary> {
    return summarize(this.#secrets, findConnection(await this.#store.read(), id));
  }

  /** The connection in use, if any. */
  async activeId(): Promise<string | undefined> {
    return (await this.#store.read()).activeId;
  }

  /** Saves a new connection (and its key); the first one saved becomes the active one. */
  async create(input: NewConnection): Promise<ConnectionSummary> {
    const valid = checkNewConnection(input);
    const allowUnencrypted =
      valid.allowUnencrypted === true && (await this.#agreeUnencrypted(valid.baseUrl));
    const headers = splitHeaders(valid.headers ?? [], {});
    const hasSecretHeaders = Object.keys(headers.secrets).length > 0;
    if ((valid.apiKey || hasSecretHeaders) && keyInClear(valid.baseUrl) && !allowUnencrypted) {
      throw unencryptedRefused(valid.baseUrl);
    }
    return this.#store
      .mutate(async (file) => {
        const connection: Connection = {
          id: this.#newId(),
          name: valid.name,
          baseUrl: valid.baseUrl,
        };
        if (valid.consoleUrl) connection.consoleUrl = valid.consoleUrl;
        if (allowUnencrypted) connection.allowUnencrypted = true;
        if (headers.stored.length > 0) connection.headers = headers.stored;
        const origin = originOf(connection.baseUrl);
        if (valid.apiKey) await this.#secrets.setKey(connection.id, origin, valid.apiKey);
        const next: ConnectionsFile = {
          ...file,
          activeId: file.activeId ?? connection.id,
          connections: [...file.connections, connection],
        };
        try {
          if (hasSecretHeaders)
            await this.#secrets.setHeaderSecrets(connection.id, origin, headers.secrets);
          await this.#store.write(next);
        } catch (error) {
          // The key and the secret headers must not outlive a connection that was never saved.
          if (valid.apiKey) await this.#secrets.restore(connection.id, undefined);
          await this.#secrets.restore(headerSecretsAccount(connection.id), undefined);
          throw error;
        }
        return connection;
      })
      .then((connection) => {
        this.#listeners.tell();
        return summarize(this.#secrets, connection);
      });
  }

  /**
   * Changes name, address or console address; replaces the key only when one is given. A new
   * address on another origin without a new key removes the saved key: it was given for the old
   * origin only.
   */
  async update(id: string, changes: ConnectionChanges): Promise<ConnectionSummary> {
    const valid = checkChanges(changes);
    return this.#store
      .mutate(async (file) => {
        const current = findConnection(file, id);
        const updated: Connection = { ...current };
        if (valid.name !== undefined) updated.name = valid.name;
        if (valid.baseUrl !== undefined) updated.baseUrl = valid.baseUrl;
        if (valid.consoleUrl === null || valid.consoleUrl === '') delete updated.consoleUrl;
        else if (valid.consoleUrl !== undefined) updated.consoleUrl = valid.consoleUrl;

        const moved = originOf(updated.baseUrl) !== originOf(current.baseUrl);
        // The choice to send the key unencrypted was made for one address: a move clears it.
        if (moved) delete updated.allowUnencrypted;
        if (valid.allowUnencrypted === false) delete updated.allowUnencrypted;
        else if (
          valid.allowUnencrypted === true &&
          (updated.allowUnencrypted === true || (await this.#agreeUnencrypted(updated.baseUrl)))
        ) {
          updated.allowUnencrypted = true;
        }
        // Secret header values belong to the origin, like the key: a move keeps only new ones.
        const previousSecrets = await this.#secrets.headerSecrets(id, originOf(current.baseUrl));
        let newSecrets: Record<string, string> | undefined;
        if (valid.headers !== undefined) {
          const split = splitHeaders(
            valid.headers,
            moved ? {} : previousSecrets,
            moved ? 'moved' : undefined,
          );
          if (split.stored.length > 0) updated.headers = split.stored;
          else delete updated.headers;
          newSecrets = split.secrets;
        } else if (moved && Object.keys(previousSecrets).length > 0) {
          newSecrets = {};
        }
        const secretHeaders = (updated.headers ?? []).some((h) => h.secret);
        if (
          (valid.apiKey || (secretHeaders && newSecrets !== undefined)) &&
          keyInClear(updated.baseUrl) &&
          updated.allowUnencrypted !== true
        ) {
          throw unencryptedRefused(updated.baseUrl);
        }

        // null removes the key, a string replaces it, and a move without a new key removes it.
        const newKey = valid.apiKey === undefined && moved ? null : valid.apiKey;
        const origin = originOf(updated.baseUrl);
        // As stored (bound to its origin), to put back if saving fails.
        const previousKey = newKey === undefined ? undefined : await this.#secrets.stored(id);
        const previousHeaders =
          newSecrets === undefined
            ? undefined
            : await this.#secrets.stored(headerSecretsAccount(id));
        if (newKey === null) await this.#secrets.deleteKey(id);
        else if (newKey !== undefined) await this.#secrets.setKey(id, origin, newKey);
        try {
          if (newSecrets !== undefined)
            await this.#secrets.setHeaderSecrets(id, origin, newSecrets);
          await this.#store.write({
            ...file,
            connections: file.connections.map((c) => (c.id === id ? updated : c)),
          });
        } catch (error) {
          // Put the old key and headers back, so the saved connection and its secrets still agree.
          if (newKey !== undefined) await this.#secrets.restore(id, previousKey);
          if (newSecrets !== undefined)
            await this.#secrets.restore(headerSecretsAccount(id), previousHeaders);
          throw error;
        }
        return updated;
      })
      .then((connection) => {
        if (
          valid.name !== undefined ||
          valid.baseUrl !== undefined ||
          valid.consoleUrl !== undefined ||
          valid.headers !== undefined
        )
          this.#listeners.tell();
        return summarize(this.#secrets, connection);
      });
  }

  /** Forgets a connection and removes its key from the key store. */
  async delete(id: string): Promise<void> {
    await this.#store.mutate(async (file) => {
      const connection = findConnection(file, id);
      // The key goes first: a connection left without a key is harmless, a key left behind is not.
      await this.#secrets.deleteKey(id);
      await this.#secrets.deleteKey(headerSecretsAccount(id));
      const connections = file.connections.filter((c) => c.id !== id);
      const next: ConnectionsFile = { ...file, connections };
      if (file.activeId === id) {
        if (connections[0]) next.activeId = connections[0].id;
        else delete next.activeId;
      }
      await this.#store.write(next);
      if (connection.isDemo && this.#demo.runningFor === id) await this.#demo.close();
    });
    this.#listeners.tell();
  }

  /** Makes a saved connection the one the app uses. */
  async select(id: string): Promise<void> {
    await this.#store.mutate(async (file) => {
      findConnection(file, id);
      if (file.activeId !== id) await this.#store.write({ ...file, activeId: id });
    });
  }

  /**
   * The request limiter of a connection's relay, one per connection and address: every client
   * made for it shares it, and so must anything else that sends that relay many requests.
   */
  limiterFor(id: string, baseUrl: string): RequestLimiter {
    return this.#clients.limiterFor(id, baseUrl);
  }

  /**
   * A relay client for a saved connection; it reads the key from the store on every attempt.
   * A demo connection whose relay is not running (the app restarted) gets it started again.
   */
  async clientFor(id: string, options: ClientOptions = {}): Promise<RelayClient> {
    let connection = await this.#store.mutate(async (file) => findConnection(file, id));
    if (connection.isDemo)
      connection = await this.#store.mutate((file) => this.#demo.ensure(file, id));
    return this.#clients.clientFor(connection, options);
  }

  /** "Test connection": GET /v1/models for an address and key that need not be saved yet. */
  test(draft: ConnectionDraft): Promise<ConnectionTestResult> {
    return testConnection(
      {
        store: this.#store,
        secrets: this.#secrets,
        fetch: this.#clients.fetch,
        timeoutMs: this.#testTimeoutMs,
        agreeUnencrypted: (baseUrl) => this.#agreeUnencrypted(baseUrl),
      },
      draft,
    );
  }

  /** The person's own agreement, in a dialog from main, to send a key unencrypted. */
  async #agreeUnencrypted(baseUrl: string): Promise<boolean> {
    if (!keyInClear(baseUrl)) return true;
    try {
      return await this.#confirmUnencrypted(originOf(baseUrl));
    } catch {
      return false;
    }
  }

  /**
   * "Try the demo relay": starts the embedded relay on a free loopback port with a fresh key,
   * saves (or refreshes) the one demo connection with that address and key, and makes it active.
   */
  startDemo(): Promise<ConnectionSummary> {
    return this.#store
      .mutate(async (file) => {
        const connection = await this.#demo.ensure(
          file,
          file.connections.find((c) => c.isDemo)?.id,
        );
        const latest = await this.#store.current();
        if (latest.activeId !== connection.id)
          await this.#store.write({ ...latest, activeId: connection.id });
        return connection;
      })
      .then((connection) => summarize(this.#secrets, connection));
  }

  /**
   * The demo connection, its relay started (or the connection created), leaving the active
   * connection as it is: for the demo knowledge base.
   */
  ensureDemo(): Promise<ConnectionSummary> {
    return this.#store
      .mutate((file) => this.#demo.ensure(file, file.connections.find((c) => c.isDemo)?.id))
      .then((connection) => summarize(this.#secrets, connection));
  }

  /** Stops the embedded demo relay; its connection stays saved and restarts it on next use. */
  async stopDemo(): Promise<void> {
    await this.#store.mutate(() => this.#demo.close());
  }

  /** Stops what the service started (the demo relay). */
  close(): Promise<void> {
    return this.stopDemo();
  }
}
