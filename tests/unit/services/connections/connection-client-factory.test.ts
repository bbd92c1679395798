/**
 * Relay clients for saved connections with a recording fetch: the key read on each attempt for
 * the client's origin only, the demo relay reached directly, one limiter per relay.
 */
import { describe, expect, it } from 'vitest';
import { RelayClientFactory } from '../../../../electron/main/services/connections/client-factory';
import {
  ConnectionSecrets,
  bindSecret,
} from '../../../../electron/main/services/connections/secrets';
import type {
  Connection,
  ConnectionsFile,
} from '../../../../electron/main/services/connections/store';
import type { FetchLike } from '../../../../electron/main/services/relay/relay-client';
import { MemorySecretStore } from '../../../../electron/main/services/secret-store';

const KEY = 'sk-factory-test-key-1234';

function recordingFetch() {
  const seen: Array<{ url: string; authorization: string | null; extra: string | null }> = [];
  const fetch: FetchLike = async (url, init) => {
    const headers = new Headers(init.headers);
    seen.push({ url, authorization: headers.get('authorization'), extra: headers.get('x-title') });
    return new Response(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, seen };
}

async function setUp(connection: Connection) {
  const file: ConnectionsFile = { version: 1, activeId: connection.id, connections: [connection] };
  const keys = new MemorySecretStore();
  await keys.set(connection.id, bindSecret('https://relay.example.com', KEY));
  const proxied = recordingFetch();
  const direct = recordingFetch();
  const factory = new RelayClientFactory({
    store: { read: async () => file },
    secrets: new ConnectionSecrets(keys),
    fetch: proxied.fetch,
    directFetch: direct.fetch,
    maxConcurrentRequests: 2,
  });
  return { file, factory, proxied, direct };
}

describe('the relay client factory', () => {
  it('makes a client that sends the saved key and headers to the saved address', async () => {
    const { factory, proxied, direct } = await setUp({
      id: 'c',
      name: 'C',
      baseUrl: 'https://relay.example.com',
      headers: [{ name: 'X-Title', secret: false, value: 'Relay Desktop' }],
    });
    const client = factory.clientFor({
      id: 'c',
      name: 'C',
      baseUrl: 'https://relay.example.com',
      headers: [{ name: 'X-Title', secret: false, value: 'Relay Desktop' }],
    });
    expect(await client.listModels()).toHaveLength(1);
    expect(proxied.seen).toEqual([
      {
        url: 'https://relay.example.com/v1/models',
        authorization: `Bearer ${KEY}`,
        extra: 'Relay Desktop',
      },
    ]);
    expect(direct.seen).toEqual([]);
  });

  it('refuses to read the key once the saved address moved to another origin', async () => {
    const connection = { id: 'c', name: 'C', baseUrl: 'https://relay.example.com' };
    const { file, factory, proxied } = await setUp(connection);
    const client = factory.clientFor(connection);
    file.connections = [{ ...connection, baseUrl: 'https://elsewhere.example.com' }];
    await expect(client.listModels()).rejects.toMatchObject({ code: 'address_changed' });
    expect(proxied.seen).toEqual([]);
  });

  it('reaches the demo relay with the direct fetch, whatever the proxy', async () => {
    const connection = { id: 'd', name: 'Demo', baseUrl: 'http://127.0.0.1:4000', isDemo: true };
    const { factory, proxied, direct } = await setUp(connection);
    await factory.clientFor(connection).listModels();
    expect(direct.seen.map((s) => s.url)).toEqual(['http://127.0.0.1:4000/v1/models']);
    expect(proxied.seen).toEqual([]);
  });

  it('shares one limiter per connection and origin, and drops the one of an old address', async () => {
    const { factory } = await setUp({ id: 'c', name: 'C', baseUrl: 'https://relay.example.com' });
    const first = factory.limiterFor('c', 'https://relay.example.com');
    expect(factory.limiterFor('c', 'https://relay.example.com/v1/')).toBe(first);
    expect(factory.limiterFor('other', 'https://relay.example.com')).not.toBe(first);
    const moved = factory.limiterFor('c', 'https://elsewhere.example.com');
    expect(moved).not.toBe(first);
    expect(factory.limiterFor('c', 'https://relay.example.com')).not.toBe(first);
  });
});
