/**
 * electron-updater's `AppUpdater` (the `autoUpdater` of the app, or a test's own updater) as the
 * `Updater` the update service uses. Only types are taken from electron-updater here: the
 * platform code hands the instance in, so this file runs in plain Node too.
 */
import type { AppUpdater, ProgressInfo, UpdateDownloadedEvent, UpdateInfo } from 'electron-updater';
import type { Updater, UpdaterEvent } from './update-service';

/** Sets the updater up as the app uses it: background downloads, installed on quit. */
export function adaptAutoUpdater(autoUpdater: AppUpdater): Updater {
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  return {
    async checkForUpdates() {
      const result = await autoUpdater.checkForUpdates();
      // A failed download is reported through the 'error' event; the promise is not awaited.
      result?.downloadPromise?.catch(() => undefined);
      return result;
    },
    setChannel(channel) {
      autoUpdater.channel = channel;
      autoUpdater.allowPrerelease = channel === 'beta';
      // Setting a channel allows downgrades; a person leaving the beta keeps their version until
      // a stable release passes it.
      autoUpdater.allowDowngrade = false;
    },
    quitAndInstall: () => autoUpdater.quitAndInstall(false, true),
    subscribe(listener: (event: UpdaterEvent) => void) {
      const handlers: [string, (...args: never[]) => void][] = [
        ['checking-for-update', () => listener({ type: 'checking' })],
        ['update-available', (info: UpdateInfo) => listener({ type: 'available', release: info })],
        [
          'update-not-available',
          (info: UpdateInfo) => listener({ type: 'not-available', release: info }),
        ],
        ['download-progress', (progress: ProgressInfo) => listener({ type: 'progress', progress })],
        [
          'update-downloaded',
          (info: UpdateDownloadedEvent) => listener({ type: 'downloaded', release: info }),
        ],
        ['error', (error: Error) => listener({ type: 'error', error })],
      ];
      for (const [name, handler] of handlers) autoUpdater.on(name as 'error', handler as never);
      return () => {
        for (const [name, handler] of handlers) autoUpdater.off(name as 'error', handler as never);
      };
    },
  };
}
