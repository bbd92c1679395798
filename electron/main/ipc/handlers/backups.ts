import type { BACKUPS_ROUTES } from '../../../shared/ipc/routes/backups';
import type { DesktopShell, Dialogs } from '../../app-context';
import { BackupRefused } from '../../services/backups/backup-file';
import { BackupFailed, type BackupsService } from '../../services/backups/backups-service';
import { HandlerError, type Handlers } from '../router';

export interface BackupsHandlersContext {
  backups: BackupsService;
  dialogs: Dialogs;
  desktop: DesktopShell;
  /** Reloads the page into the restored data (Electron's `webContents.reload()` in the app). */
  reloadWindow?: () => void;
}

/** Runs a handler, turning the backups service's refusals into errors the router passes on. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackupRefused) throw new HandlerError('invalid_request', error.message);
    if (error instanceof BackupFailed)
      throw new HandlerError(
        error.kind === 'not_found'
          ? 'not_found'
          : error.kind === 'no_folder'
            ? 'invalid_request'
            : 'internal',
        error.message,
      );
    throw error;
  }
}

/** The handlers of the backups routes: a few lines each, over the backups service. */
export function backupsHandlers({
  backups,
  dialogs,
  desktop,
  reloadWindow,
}: BackupsHandlersContext): Handlers<typeof BACKUPS_ROUTES> {
  return {
    getBackupStatus: () => backups.status(),
    chooseBackupFolder: () =>
      guarded(async () => {
        const current = await backups.folder();
        const chosen = await dialogs.chooseFolder?.({
          title: 'Choose a folder for backups',
          ...(current ? { defaultPath: current } : {}),
        });
        return chosen === undefined ? backups.status() : backups.setFolder(chosen);
      }),
    setBackupSchedule: ({ schedule }) => backups.setSchedule(schedule),
    backUpNow: () => guarded(() => backups.backUpNow('manual')),
    listBackups: () => backups.list(),
    previewBackup: ({ id }) => guarded(() => backups.preview(id)),
    openBackupFile: () =>
      guarded(async () => {
        const [path] = await dialogs.chooseOpenPaths({
          title: 'Open a Relay Desktop backup',
          filters: [{ name: 'Relay Desktop backup', extensions: ['db'] }],
        });
        if (path === undefined) return { cancelled: true };
        return { cancelled: false, preview: await backups.preview(backups.pick(path)) };
      }),
    restoreBackup: ({ id }) =>
      guarded(async () => {
        const result = await backups.restore(id);
        // After the answer has left: the page then starts again on the restored data.
        setTimeout(() => reloadWindow?.(), 50);
        return result;
      }),
    revealBackup: ({ id }) =>
      guarded(async () => {
        desktop.showInFolder(await backups.pathOf(id));
        return null;
      }),
    useRestoredBackupFolder: () => guarded(() => backups.useRestoredFolder()),
    dismissRestoreNotice: () => backups.dismissRestored(),
  };
}
