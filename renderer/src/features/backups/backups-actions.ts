import { failureOf } from '../../lib/errors';
import { requireBridge } from '../../lib/relay-bridge';
import {
  useBackupsStore,
  type BackupPreview,
  type BackupSchedule,
  type BackupStatus,
} from './backups-store';

function received(status: BackupStatus): BackupStatus {
  useBackupsStore.getState().statusReceived(status);
  return status;
}

export async function loadBackupStatus(): Promise<void> {
  try {
    received(await requireBridge().getBackupStatus());
  } catch (error) {
    useBackupsStore.getState().statusFailed(failureOf(error));
  }
}

export async function loadBackups(): Promise<void> {
  const store = useBackupsStore.getState();
  if (store.listStatus !== 'ready') store.listLoading();
  try {
    useBackupsStore.getState().listLoaded((await requireBridge().listBackups()).backups);
  } catch (error) {
    useBackupsStore.getState().listFailed(failureOf(error));
  }
}

/**
 * Follows the status main sends (a backup started or ended, the folder went missing); the list
 * is read again whenever a backup or restore has just ended. Returns the function that stops.
 */
export function watchBackupStatus(): () => void {
  return requireBridge().onBackupStatusChanged((status) => {
    const before = useBackupsStore.getState().status;
    received(status);
    const ended = before?.running !== undefined && status.running === undefined;
    if (ended || before?.lastVerified?.name !== status.lastVerified?.name) void loadBackups();
  });
}

/** Asks main for the folder (its own dialog); the first backup there starts at once. */
export async function chooseBackupFolder(): Promise<void> {
  received(await requireBridge().chooseBackupFolder());
  await loadBackups();
}

export async function setBackupSchedule(schedule: BackupSchedule): Promise<void> {
  received(await requireBridge().setBackupSchedule({ schedule }));
}

export async function backUpNow(): Promise<void> {
  try {
    await requireBridge().backUpNow();
  } finally {
    await Promise.all([loadBackupStatus(), loadBackups()]);
  }
}

export function previewBackup(id: string): Promise<BackupPreview> {
  return requireBridge().previewBackup({ id });
}

/** A backup file anywhere, picked in main's dialog; undefined if the person cancelled. */
export async function openBackupFile(): Promise<BackupPreview | undefined> {
  const { cancelled, preview } = await requireBridge().openBackupFile();
  return cancelled ? undefined : preview;
}

/** Restores a backup; main then reloads the page into the restored data. */
export async function restoreBackup(id: string) {
  useBackupsStore.getState().restoreStarted();
  try {
    return await requireBridge().restoreBackup({ id });
  } catch (error) {
    useBackupsStore.getState().restoreFailed();
    throw error;
  }
}

export async function revealBackup(id: string): Promise<void> {
  await requireBridge().revealBackup({ id });
}

export async function useRestoredBackupFolder(): Promise<void> {
  received(await requireBridge().useRestoredBackupFolder());
}

export async function dismissRestoreNotice(): Promise<void> {
  received(await requireBridge().dismissRestoreNotice());
}

/** Gives a restored connection its key on this computer. */
export async function giveConnectionKey(id: string, apiKey: string): Promise<void> {
  await requireBridge().updateConnection({ id, changes: { apiKey } });
  await loadBackupStatus();
}
