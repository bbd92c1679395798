/**
 * Relay clients for saved connections, and the request limiter each relay shares.
 *
 * A client reads its connection's key (and secret header values) from the key store on every
 * attempt, and only while the connection's address still has the client's origin: an address
 * changed since (by the person, or the demo relay restarting on another port) has a key of its
 * own, or none. A client never follows a redirect (`relay-client.ts`).
 */
import { said } from '../words';
import { createRequestLimiter, type RequestLimiter } from '../relay/limiter';
import {
  createRelayClient,
  RelayError,
  type FetchLike,
  type RelayClient,
  type RelayClientOptions,
} from '../relay/relay-client';
import { originOf } from './connection-input';
import type { ConnectionSecrets } from './secrets';
import type { Connection, ConnectionsStore } from './store';

/** What a caller may set of a saved connection's client: the rest comes from the connection. */
export type ClientOptions = Omit<RelayClientOptions, 'baseUrl' | 'apiKey' | 'fetch'>;

export interface RelayClientFactoryOptions {
  store: Pick<ConnectionsStore, 'read'>;
  secrets: Pick<ConnectionSecrets, 'key' | 'headersToSend'>;
  /** Electron's `net.fetch` in the app, Node's `fetch` in tests. */
  fetch?: FetchLike | undefined;
  /**
   * For the embedded demo relay, which runs in this process on loopback: a fetch that no proxy
   * setting can send elsewhere (Node's own, in the app). `fetch` if absent.
   */
  directFetch?: FetchLike | undefined;
  /** Requests at once to one relay (`relay/limiter.ts`); default `MAX_CONCURRENT_REQUESTS`. */
  maxConcurrentRequests?: number | undefined;
}

export class RelayClientFactory {
  readonly #store: Pick<ConnectionsStore, 'read'>;
  readonly #secrets: Pick<ConnectionSecrets, 'key' | 'headersToSend'>;
  readonly #fetch: FetchLike | undefined;
  readonly #directFetch: FetchLike | undefined;
  readonly #maxConcurrentRequests: number | undefined;
  readonly #limiters = new Map<string, RequestLimiter>();

  constructor(options: RelayClientFactoryOptions) {
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#fetch = options.fetch;
    this.#directFetch = options.directFetch;
    this.#maxConcurrentRequests = options.maxConcurrentRequests;
  }

  /** The fetch for requests that are not a saved connection's (a test of a draft). */
  get fetch(): FetchLike | undefined {
    return this.#fetch;
  }

  /**
   * The request limiter of a connection's relay, one per connection and address: every client
   * made for it shares it, and so must anything else that sends that relay many requests.
   */
  limiterFor(id: string, baseUrl: string): RequestLimiter {
    const key = `${id} ${originOf(baseUrl)}`;
    let limiter = this.#limiters.get(key);
    if (limiter === undefined) {
      // One per connection: the limiter of an address it had before goes (in-flight requests
      // keep the slots they hold; they release them into the old one).
      for (const other of this.#limiters.keys())
        if (other.startsWith(`${id} `)) this.#limiters.delete(other);
      limiter = createRequestLimiter(
        this.#maxConcurrentRequests === undefined
          ? {}
          : { maxConcurrent: this.#maxConcurrentRequests },
      );
      this.#limiters.set(key, limiter);
    }
    return limiter;
  }

  /** A client for `connection` as saved now (a demo one's relay already running). */
  clientFor(connection: Connection, options: ClientOptions = {}): RelayClient {
    const { id } = connection;
    const origin = originOf(connection.baseUrl);
    /** The connection as saved now, refused when it no longer points at this client's origin. */
    const current = async (): Promise<Connection> => {
      const now = (await this.#store.read()).connections.find((c) => c.id === id);
      if (now === undefined || originOf(now.baseUrl) !== origin) {
        throw new RelayError('bad_request', said('connections.addressChanged'), {
          code: 'address_changed',
        });
      }
      return now;
    };
    // The demo relay runs in this process on loopback: reached directly, whatever the proxy.
    const fetch = connection.isDemo ? (this.#directFetch ?? this.#fetch) : this.#fetch;
    return createRelayClient({
      limiter: this.limiterFor(id, connection.baseUrl),
      ...options,
      baseUrl: connection.baseUrl,
      allowKeyInClear: connection.allowUnencrypted === true,
      // No saved key sends no Authorization header: keyless local services work, and a relay
      // that wants a key answers 401 with its own message.
      apiKey: async () => {
        await current();
        return (await this.#secrets.key(id, origin)) ?? '';
      },
      // The extra headers as saved now, their secret values under the same rule as the key.
      headers: async () => this.#secrets.headersToSend(await current()),
      ...(fetch ? { fetch } : {}),
    });
  }
}
