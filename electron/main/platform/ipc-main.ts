import { ipcMain, type BrowserWindow } from 'electron';
import { eventWindows, type AppWindowName } from '../ipc/event-targets';
import type { Dispatch } from '../ipc/router';

/** Answers every channel of the router through `ipcMain.handle`, naming the sending frame. */
export function registerIpc(channels: readonly string[], dispatch: Dispatch): void {
  for (const channel of channels) {
    ipcMain.handle(channel, (event, payload: unknown) => {
      const frame = event.senderFrame;
      return dispatch(channel, payload, {
        url: frame?.url ?? '',
        isMainFrame: frame !== null && frame === event.sender.mainFrame,
        webContentsId: event.sender.id,
      });
    });
  }
}

/** Sends each event of the contract to the window(s) it is for (`eventWindows`), if open. */
export function emitToWindows(
  windows: () => Partial<Record<AppWindowName, BrowserWindow | undefined>>,
): (channel: string, payload: unknown) => void {
  return (channel, payload) => {
    const open = windows();
    for (const name of eventWindows(channel)) {
      const target = open[name];
      if (target && !target.isDestroyed()) target.webContents.send(channel, payload);
    }
  };
}
