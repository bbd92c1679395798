import { ipcMain, type BrowserWindow } from 'electron';
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

/** Sends an event of the contract to the window, if it is still open. */
export function emitTo(
  window: () => BrowserWindow | undefined,
): (channel: string, payload: unknown) => void {
  return (channel, payload) => {
    const target = window();
    if (target && !target.isDestroyed()) target.webContents.send(channel, payload);
  };
}
