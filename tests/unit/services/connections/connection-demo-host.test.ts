/** The demo relay host with a stand-in relay: started once, saved with its key, stopped. */
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DemoRelay } from '../../../../electron/demo-relay/index';
import {
  DemoHost,
  DEMO_CONNECTION_NAME,
} from '../../../../electron/main/services/connections/demo-host';
import {
  ConnectionSecrets,
  readBoundSecret,
} from '../../../../electron/main/services/connections/secrets';
import { ConnectionsStore } from '../../../../electron/main/services/connections/store';
import { MemorySecretStore } from '../../../../electron/main/services/secret-store';

let dir: string;
let keys: MemorySecretStore;
let store: ConnectionsStore;
let started: Array<{ url: string; closed: boolean }>;

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'relay-demo-host-'));
  keys = new MemorySecretStore();
  store = new ConnectionsStore(dir);
  started = [];
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function host(relayKeys: string[] = ['sk-demo-fresh-key-0001']): DemoHost {
  let ids = 0;
  return new DemoHost({
    store,
    secrets: new ConnectionSecrets(keys),
    newId: () => `demo-${++ids}`,
    startDemoRelay: async (options) => {
      expect(options).toEqual({ host: '127.0.0.1', port: 0 });
      const relay = { url: `http://127.0.0.1:${4000 + started.length}`, closed: false };
      started.push(relay);
      return {
        url: relay.url,
        keys: relayKeys,
        close: async () => {
          relay.closed = true;
        },
      } as unknown as DemoRelay;
    },
  });
}

describe('the demo relay host', () => {
  it('starts the relay and saves the demo connection with its key, bound to its address', async () => {
    const demo = host();
    const connection = await store.mutate((file) => demo.ensure(file, undefined));
    expect(connection).toEqual({
      id: 'demo-1',
      name: DEMO_CONNECTION_NAME,
      baseUrl: 'http://127.0.0.1:4000',
      isDemo: true,
    });
    expect(demo.runningFor).toBe('demo-1');
    expect(await store.read()).toEqual({
      version: 1,
      activeId: 'demo-1',
      connections: [connection],
    });
    expect(readBoundSecret((await keys.get('demo-1'))!)).toEqual({
      origin: 'http://127.0.0.1:4000',
      secret: 'sk-demo-fresh-key-0001',
    });
  });

  it('reuses the running relay for its connection', async () => {
    const demo = host();
    const first = await store.mutate((file) => demo.ensure(file, undefined));
    const again = await store.mutate((file) => demo.ensure(file, first.id));
    expect(again).toEqual(first);
    expect(started).toHaveLength(1);
  });

  it('stops the relay on close, and starts it again on another address on next use', async () => {
    const demo = host();
    const first = await store.mutate((file) => demo.ensure(file, undefined));
    await demo.close();
    expect(started[0]?.closed).toBe(true);
    expect(demo.runningFor).toBeUndefined();
    const moved = await store.mutate((file) => demo.ensure(file, first.id));
    expect(moved).toMatchObject({ id: first.id, baseUrl: 'http://127.0.0.1:4001' });
    expect((await store.read()).connections).toEqual([moved]);
    expect(readBoundSecret((await keys.get(first.id))!)?.origin).toBe('http://127.0.0.1:4001');
    await demo.close();
    await demo.close();
    expect(started.map((r) => r.closed)).toEqual([true, true]);
  });

  it('stops a relay that started without a key, and saves nothing', async () => {
    const demo = host([]);
    await expect(store.mutate((file) => demo.ensure(file, undefined))).rejects.toThrow(
      /without a key/,
    );
    expect(started[0]?.closed).toBe(true);
    expect(demo.runningFor).toBeUndefined();
    expect((await store.read()).connections).toEqual([]);
  });
});
