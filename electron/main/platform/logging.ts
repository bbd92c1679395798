import electronLog from 'electron-log/main';
import { app, ipcMain } from 'electron';
import { createAppLog, type AppLog } from '../services/log';
import { logsFolder } from '../services/log-policy';

/** The `__ELECTRON_LOG__` channel electron-log opens for renderer logging on import. */
const ELECTRON_LOG_CHANNEL = '__ELECTRON_LOG__';

/**
 * The support log of the main process: `logs/main.log` in the user data folder, through
 * electron-log's main entry, with the policy of `services/log-policy.ts` in front of it.
 */
export function openAppLog(userDataDir: string): AppLog {
  // The renderer never logs through electron-log: every IPC message goes through the router,
  // which checks the sender. Close the channel electron-log opened when it was imported.
  ipcMain.removeAllListeners(ELECTRON_LOG_CHANNEL);
  ipcMain.removeHandler(ELECTRON_LOG_CHANNEL);
  return createAppLog(electronLog, {
    folder: logsFolder(userDataDir),
    console: !app.isPackaged,
  });
}
