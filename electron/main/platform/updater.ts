/**
 * electron-updater's `autoUpdater`, behind the `Updater` the update service uses. It is touched
 * only when this installation can update itself (`services/updates/support.ts`): creating it
 * reads the app's version and, on macOS, takes Electron's own autoUpdater (Squirrel.Mac).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { app } from 'electron';
import electronUpdater from 'electron-updater';
import type { AppLog } from '../services/log';
import { updateUnsupportedReason } from '../services/updates/support';
import type { Updater, UpdaterEvent } from '../services/updates/update-service';

function packageType(resources: string | undefined): string | undefined {
  if (resources === undefined) return undefined;
  try {
    return readFileSync(join(resources, 'package-type'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The updater of this installation, or why there is none. */
export function openUpdater(log: AppLog): { updater: Updater } | { reason: string } {
  // Undefined outside Electron (the boot test's Node).
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  const reason = updateUnsupportedReason({
    packaged: app.isPackaged,
    platform: process.platform,
    env: process.env,
    hasUpdateConfig: resources !== undefined && existsSync(join(resources, 'app-update.yml')),
    packageType: packageType(resources),
  });
  if (reason !== undefined) return { reason };

  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = {
    info: (message?: unknown) => log.info('updater', { message: String(message) }),
    warn: (message?: unknown) => log.warn('updater', { message: String(message) }),
    error: (message?: unknown) => log.warn('updater.error', { message: String(message) }),
    debug: () => undefined,
  };
  // Download in the background; what was downloaded is installed when the app quits, or at once
  // with "Restart to update".
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;

  return {
    updater: {
      async checkForUpdates() {
        const result = await autoUpdater.checkForUpdates();
        // A failed download is reported through the 'error' event; the promise is not awaited.
        result?.downloadPromise?.catch(() => undefined);
        return result;
      },
      setChannel(channel) {
        autoUpdater.channel = channel;
        autoUpdater.allowPrerelease = channel === 'beta';
        // Setting a channel allows downgrades; a person leaving the beta keeps their version
        // until a stable release passes it.
        autoUpdater.allowDowngrade = false;
      },
      quitAndInstall: () => autoUpdater.quitAndInstall(false, true),
      subscribe(listener: (event: UpdaterEvent) => void) {
        const handlers = {
          'checking-for-update': () => listener({ type: 'checking' }),
          'update-available': (info: electronUpdater.UpdateInfo) =>
            listener({ type: 'available', release: info }),
          'update-not-available': (info: electronUpdater.UpdateInfo) =>
            listener({ type: 'not-available', release: info }),
          'download-progress': (progress: electronUpdater.ProgressInfo) =>
            listener({ type: 'progress', progress }),
          'update-downloaded': (info: electronUpdater.UpdateDownloadedEvent) =>
            listener({ type: 'downloaded', release: info }),
          error: (error: Error) => listener({ type: 'error', error }),
        } as const;
        for (const [name, handler] of Object.entries(handlers)) {
          autoUpdater.on(name as 'error', handler as (error: Error) => void);
        }
        return () => {
          for (const [name, handler] of Object.entries(handlers)) {
            autoUpdater.off(name as 'error', handler as (error: Error) => void);
          }
        };
      },
    },
  };
}
