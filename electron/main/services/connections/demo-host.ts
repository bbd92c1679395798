/**
 * The embedded demo relay, hosted in this process on a free loopback port: "Try the demo relay"
 * starts it with a fresh key and saves the one demo connection with its address and key; after
 * the app restarted, the first use of that connection starts it again (on another port, the
 * saved address following). Its server, accounts and models load the first time it is used
 * rather than at every start of the app.
 */
import type { DemoRelay, DemoRelayOptions } from '../../../demo-relay/index';
import { originOf } from './connection-input';
import type { ConnectionSecrets } from './secrets';
import {
  findConnection,
  type Connection,
  type ConnectionsFile,
  type ConnectionsStore,
} from './store';

export const DEMO_CONNECTION_NAME = 'Demo relay';

export type StartDemoRelay = (options: DemoRelayOptions) => Promise<DemoRelay>;

async function startDemoRelay(options: DemoRelayOptions): Promise<DemoRelay> {
  return (await import('../../../demo-relay/index')).startDemoRelay(options);
}

export interface DemoHostOptions {
  store: ConnectionsStore;
  secrets: ConnectionSecrets;
  newId: () => string;
  /** Starts the demo relay; injectable so tests can watch or slow it. */
  startDemoRelay?: StartDemoRelay | undefined;
}

export class DemoHost {
  readonly #store: ConnectionsStore;
  readonly #secrets: ConnectionSecrets;
  readonly #newId: () => string;
  readonly #start: StartDemoRelay;
  #demo: { relay: DemoRelay; connectionId: string } | undefined;

  constructor(options: DemoHostOptions) {
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#newId = options.newId;
    this.#start = options.startDemoRelay ?? startDemoRelay;
  }

  /** The demo connection the running relay serves, if one runs. */
  get runningFor(): string | undefined {
    return this.#demo?.connectionId;
  }

  /**
   * The demo connection `id` with its relay running: started (and the connection's address and
   * key saved) when it is not running for it; the demo connection created when `id` is absent.
   * Called inside a change of the store (`ConnectionsStore.mutate`), on its latest `file`.
   */
  async ensure(file: ConnectionsFile, id: string | undefined): Promise<Connection> {
    const existing = id === undefined ? undefined : findConnection(file, id);
    if (existing && this.#demo?.connectionId === existing.id) return existing;
    await this.close();
    const relay = await this.#start({ host: '127.0.0.1', port: 0 });
    try {
      const key = relay.keys[0];
      if (key === undefined) throw new Error('The demo relay started without a key.');
      const connection: Connection = existing
        ? { ...existing, baseUrl: relay.url }
        : { id: this.#newId(), name: DEMO_CONNECTION_NAME, baseUrl: relay.url, isDemo: true };
      await this.#secrets.setKey(connection.id, originOf(relay.url), key);
      const connections = existing
        ? file.connections.map((c) => (c.id === connection.id ? connection : c))
        : [...file.connections, connection];
      await this.#store.write({ ...file, activeId: file.activeId ?? connection.id, connections });
      this.#demo = { relay, connectionId: connection.id };
      return connection;
    } catch (error) {
      await relay.close();
      throw error;
    }
  }

  /** Stops the relay if it runs; its connection stays saved and starts it again on next use. */
  async close(): Promise<void> {
    const demo = this.#demo;
    this.#demo = undefined;
    await demo?.relay.close();
  }
}
