/**
 * The page side of the e2e bridge: what the preload does in the app, over a Playwright binding.
 *
 * Built into a classic script and run before the page's own scripts. `window.relay` comes from
 * `createBridge` with the contract, exactly as in `electron/preload/index.ts`; only the transport
 * differs: a one-way route goes to the `__relaySend` binding, which hands it to the router's
 * `receive`; `invoke` calls the page's `__relayInvoke` (in the e2e harness a function that asks the
 * real router in the test process and gets its answer back by `page.evaluate`, the way events come,
 * see ordered-router.ts; in the benchmarks a binding), and events arrive through `__relayDeliver`,
 * which the harness calls with `page.evaluate`.
 */
import { createBridge } from '../../../electron/shared/ipc/bridge';
import { EVENTS, ROUTES } from '../../../electron/shared/ipc/contract';
import { decodeBinary } from './binary-transport';

declare const __APP_VERSION__: string;

type Listener = (payload: unknown) => void;

interface PageGlobals {
  __relayInvoke(channel: string, payload: unknown): Promise<unknown>;
  __relaySend(channel: string, payload: unknown): Promise<void>;
  __relayDeliver?: (channel: string, payload: unknown) => void;
  relay?: unknown;
}

const page = globalThis as unknown as PageGlobals;
const listeners = new Map<string, Set<Listener>>();

/** What decoding the harness's base64 of binary answers cost in the page (not in the app). */
const binaryCost = { decodeMs: 0 };
Object.defineProperty(page, '__relayBinaryDecodeMs', { get: () => binaryCost.decodeMs });

const bridge = createBridge(
  ROUTES,
  EVENTS,
  // Typed arrays come base64-encoded over the binding (IPC copies them as they are in the app).
  async (channel, payload) => decodeBinary(await page.__relayInvoke(channel, payload), binaryCost),
  (channel, listener) => {
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  },
  (channel, payload) => void page.__relaySend(channel, payload),
);

Object.defineProperty(page, '__relayDeliver', {
  value: (channel: string, payload: unknown) => {
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  },
});

// As `contextBridge.exposeInMainWorld` does: a frozen, non-writable object.
Object.defineProperty(page, 'relay', {
  value: Object.freeze({ ...bridge, appVersion: __APP_VERSION__ }),
  enumerable: true,
});
