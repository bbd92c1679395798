import { ipcMain, type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import { eventWindows, type AppWindowName } from '../ipc/event-targets';
import type { IpcSender, Router } from '../ipc/router';

/** The frame that sent a message, as the router checks it. */
function senderOf(event: IpcMainEvent | IpcMainInvokeEvent): IpcSender {
  const frame = event.senderFrame;
  return {
    url: frame?.url ?? '',
    isMainFrame: frame !== null && frame === event.sender.mainFrame,
    webContentsId: event.sender.id,
  };
}

/**
 * Answers every route of the router through `ipcMain.handle`, and takes its one-way routes
 * through `ipcMain.on`, naming the sending frame to the router's checks.
 */
export function registerIpc(
  router: Pick<Router, 'channels' | 'oneWayChannels' | 'dispatch' | 'receive'>,
): void {
  for (const channel of router.channels) {
    ipcMain.handle(channel, (event, payload: unknown) =>
      router.dispatch(channel, payload, senderOf(event)),
    );
  }
  for (const channel of router.oneWayChannels) {
    ipcMain.on(channel, (event, payload: unknown) => {
      void router.receive(channel, payload, senderOf(event));
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
