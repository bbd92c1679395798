import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { LoadStatus } from '../../lib/load-state';
import type { Answer } from '../../lib/relay-bridge';

export type BackupStatus = Answer<'getBackupStatus'>;
export type BackupSchedule = BackupStatus['schedule'];
export type BackupEntry = Answer<'backUpNow'>;
export type BackupPreview = Answer<'previewBackup'>;

export interface BackupsState {
  status?: BackupStatus | undefined;
  statusFailure?: FailureInfo | undefined;
  backups: BackupEntry[];
  listStatus: LoadStatus;
  listFailure?: FailureInfo | undefined;
  /**
   * This page asked for a restore: main reloads it in a moment, and the page that loads then
   * (not this one) says what was restored.
   */
  restoringHere: boolean;

  restoreStarted(): void;
  restoreFailed(): void;
  statusReceived(status: BackupStatus): void;
  statusFailed(failure: FailureInfo): void;
  listLoading(): void;
  listLoaded(backups: BackupEntry[]): void;
  listFailed(failure: FailureInfo): void;
}

export const useBackupsStore = create<BackupsState>()((set) => ({
  backups: [],
  listStatus: 'idle',
  restoringHere: false,
  restoreStarted: () => set({ restoringHere: true }),
  restoreFailed: () => set({ restoringHere: false }),
  // An answer overtaken by a newer event (a backup ended meanwhile) is dropped.
  statusReceived: (status) =>
    set((state) =>
      state.status && state.status.revision > status.revision
        ? {}
        : { status, statusFailure: undefined },
    ),
  statusFailed: (statusFailure) => set({ statusFailure }),
  listLoading: () => set({ listStatus: 'loading' }),
  listLoaded: (backups) => set({ backups, listStatus: 'ready', listFailure: undefined }),
  listFailed: (listFailure) => set({ listStatus: 'failed', listFailure }),
}));
