/**
 * The demo relay: a local Model Relay (model-relay-api.md, read through wire-conventions.md) with
 * demo models, accounts and fault injection. The app starts it for "Try the demo relay"; `cli.ts`
 * runs it standalone; tests start one per suite on a free port. Node built-ins only, no `electron`.
 */
import type { AddressInfo } from 'node:net';
import { Accounts } from './accounts';
import type { RelayState } from './context';
import { FaultSwitch } from './faults';
import { hostChecker } from './host-names';
import { ImageLinks } from './image-links';
import { resolveOptions, type DemoRelay, type DemoRelayOptions } from './options';
import { createRelayServer } from './server';

export type { DemoRelay, DemoRelayFaults, DemoRelayOptions, DemoRelaySettings } from './options';
export { DEFAULT_SETTINGS } from './options';
export { DEMO_MODELS } from './models/catalog';

export async function startDemoRelay(options: DemoRelayOptions = {}): Promise<DemoRelay> {
  const resolved = resolveOptions(options);
  const closing = new AbortController();
  let url = '';
  let acceptsHost: (header: string | undefined) => boolean = () => false;
  let lastId = 0;
  const relay: RelayState = {
    settings: resolved.settings,
    accounts: new Accounts({ ...resolved.settings, keys: resolved.keys }),
    faults: new FaultSwitch(resolved.faults),
    imageLinks: new ImageLinks(),
    closing: closing.signal,
    nextId: (prefix) => `${prefix}-${++lastId}`,
    url: () => url,
    acceptsHost: (header) => acceptsHost(header),
  };
  const { server, destroySockets } = createRelayServer(relay, resolved.log);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${urlHost(resolved.host)}:${port}`;
  acceptsHost = hostChecker(resolved.host, port);

  let closed: Promise<void> | undefined;
  return {
    url,
    keys: [...resolved.keys],
    settings: { ...resolved.settings },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        // server.close() alone waits for open connections; a stalled stream would wait forever.
        destroySockets();
      });
      return closed;
    },
    setFaults: (faults) => relay.faults.set(faults),
    setBalance: (key, credits) => relay.accounts.setBalance(key, credits),
    balanceOf: (key) => relay.accounts.balanceOf(key),
  };
}

/** A host as it goes into a URL: wildcard addresses become loopback, IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
