import electronLog from 'electron-log/node';
import { createAppLog, type AppLog } from '../../../electron/main/services/log';
import { logsFolder } from '../../../electron/main/services/log-policy';

let loggers = 0;

/**
 * The app's support log as the app writes it (electron-log's file transport, `logs/main.log` in
 * the user data folder), so the canary sweep searches real log lines.
 */
export function supportLog(userDataDir: string): AppLog {
  return createAppLog(electronLog.create({ logId: `reliability-${process.pid}-${++loggers}` }), {
    folder: logsFolder(userDataDir),
  });
}
