import { EVENTS, ROUTES } from '../../../electron/shared/ipc/contract';

/**
 * What `window.relay` may hold, written out from the contract rather than from `createBridge`:
 * one function per route, one `on…` subscriber per event, the app's version and
 * `grantDroppedFiles` (the preload's grants for a drop, read with `webUtils.getPathForFile`).
 */
export const RELAY_ALLOWLIST = [
  ...Object.keys(ROUTES),
  ...Object.keys(EVENTS).map((name) => `on${name.charAt(0).toUpperCase()}${name.slice(1)}`),
  'appVersion',
  'grantDroppedFiles',
].sort();
