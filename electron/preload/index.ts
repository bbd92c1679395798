import { contextBridge } from 'electron';

/**
 * What the page sees as `window.relay`.
 *
 * Only named values and functions cross the bridge; `ipcRenderer` itself never does.
 */
const relay = {
  appVersion: __APP_VERSION__,
} as const;

contextBridge.exposeInMainWorld('relay', relay);
