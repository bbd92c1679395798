import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { createBridge } from '../shared/ipc/bridge';
import { EVENTS, ROUTES } from '../shared/ipc/contract';

/**
 * What the page sees as `window.relay`: one named function per route of the contract (a one-way
 * route's sends with `ipcRenderer.send` and returns nothing), one `on…` subscriber per event, and
 * the app's version.
 *
 * Only named values and functions cross the bridge; `ipcRenderer` itself and its event objects
 * never do (a listener gets the payload alone).
 */
const bridge = createBridge(
  ROUTES,
  EVENTS,
  (channel, payload) => ipcRenderer.invoke(channel, payload),
  (channel, listener) => {
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
  (channel, payload) => ipcRenderer.send(channel, payload),
);

/**
 * The path on disk of a file dropped on the page ('' for one that is not a file on disk): what
 * the page hands main to attach it. The page itself never reads the file.
 */
const pathForFile = (file: File): string => webUtils.getPathForFile(file);

contextBridge.exposeInMainWorld('relay', { ...bridge, appVersion: __APP_VERSION__, pathForFile });
