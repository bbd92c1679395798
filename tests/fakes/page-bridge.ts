/**
 * The bridge as the page calls it, for tests that drive main's router from Node: the contract's
 * `createBridge` (what the preload exposes, every answer as data) unwrapped by the page's own
 * module (`renderer/src/lib/bridge-error.ts`), so a call resolves with its value and a failure
 * rejects with the page's `BridgeError`, exactly as the screens see them.
 */
import {
  createBridge,
  type AnsweredBridge,
  type Invoke,
  type Send,
  type Subscribe,
} from '../../electron/shared/ipc/bridge';
import { EVENTS, ROUTES, type Events, type Routes } from '../../electron/shared/ipc/contract';
import { unwrapBridge } from '../../renderer/src/lib/bridge-error';

export type PageBridge = AnsweredBridge<Routes, Events>;

export function pageBridge(invoke: Invoke, subscribe: Subscribe, send: Send): PageBridge {
  return unwrapBridge<PageBridge>(createBridge(ROUTES, EVENTS, invoke, subscribe, send));
}
