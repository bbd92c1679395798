import type { BACKUPS_ROUTES } from '../../../shared/ipc/routes/backups';
import type { DesktopShell, Dialogs } from '../../app-context';
import type { BackupsService } from '../../services/backups/backups-service';
import { nativeText } from '../../services/words';
import type { Handlers } from '../router';

export interface BackupsHandlersContext {
  backups: BackupsService;
  dialogs: Dialogs;
  desktop: DesktopShell;
  /** Reloads the page into the restored data (Electron's `webContents.reload()` in the app). */
  reloadWindow?: () => void;
}

/**
 * The handlers of the backups routes: a few lines each, over the backups service. They take their
 * own context, not the `AppContext`: a restore closes and reopens the services the context holds,
 * and backups drive that from outside.
 */
export function backupsHandlers({
  backups,
  dialogs,
  desktop,
  reloadWindow,
}: BackupsHandlersContext): Handlers<typeof BACKUPS_ROUTES> {
  return {
    getBackupStatus: () => backups.status(),
    chooseBackupFolder: async () => {
      const current = await backups.folder();
      const chosen = await dialogs.chooseFolder?.({
        title: nativeText('dialog.chooseBackupFolder'),
        ...(current ? { defaultPath: current } : {}),
      });
      return chosen === undefined ? backups.status() : backups.setFolder(chosen);
    },
    setBackupSchedule: ({ schedule }) => backups.setSchedule(schedule),
    backUpNow: () => backups.backUpNow('manual'),
    listBackups: () => backups.list(),
    previewBackup: ({ id }) => backups.preview(id),
    openBackupFile: async () => {
      const [path] = await dialogs.chooseOpenPaths({
        title: nativeText('dialog.openBackup'),
        filters: [{ name: nativeText('dialog.backupFilter'), extensions: ['db'] }],
      });
      if (path === undefined) return { cancelled: true };
      return { cancelled: false, preview: await backups.preview(backups.pick(path)) };
    },
    restoreBackup: async ({ id }) => {
      const result = await backups.restore(id);
      // After the answer has left: the page then starts again on the restored data.
      setTimeout(() => reloadWindow?.(), 50);
      return result;
    },
    revealBackup: async ({ id }) => {
      desktop.showInFolder(await backups.pathOf(id));
      return null;
    },
    useRestoredBackupFolder: () => backups.useRestoredFolder(),
    dismissRestoreNotice: () => backups.dismissRestored(),
  };
}
