import { EVENTS, ROUTES } from '../../../electron/shared/ipc/contract';

/**
 * What `window.relay` may hold, written out from the contract rather than from `createBridge`:
 * one function per route, one `on…` subscriber per event, and the app's version.
 */
export const RELAY_ALLOWLIST = [
  ...Object.keys(ROUTES),
  ...Object.keys(EVENTS).map((name) => `on${name.charAt(0).toUpperCase()}${name.slice(1)}`),
  'appVersion',
].sort();
