import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { RelayBridge } from '../../lib/relay-bridge';

type Answer<Name extends keyof RelayBridge> = RelayBridge[Name] extends (
  ...args: never[]
) => Promise<infer T>
  ? T
  : never;

export type BackupStatus = Answer<'getBackupStatus'>;
export type BackupSchedule = BackupStatus['schedule'];
export type BackupEntry = Answer<'backUpNow'>;
export type BackupPreview = Answer<'previewBackup'>;

export interface BackupsState {
  status?: BackupStatus | undefined;
  statusFailure?: FailureInfo | undefined;
  backups: BackupEntry[];
  listStatus: 'idle' | 'loading' | 'ready' | 'failed';
  listFailure?: FailureInfo | undefined;

  statusReceived(status: BackupStatus): void;
  statusFailed(failure: FailureInfo): void;
  listLoading(): void;
  listLoaded(backups: BackupEntry[]): void;
  listFailed(failure: FailureInfo): void;
}

export const useBackupsStore = create<BackupsState>()((set) => ({
  backups: [],
  listStatus: 'idle',
  statusReceived: (status) => set({ status, statusFailure: undefined }),
  statusFailed: (statusFailure) => set({ statusFailure }),
  listLoading: () => set({ listStatus: 'loading' }),
  listLoaded: (backups) => set({ backups, listStatus: 'ready', listFailure: undefined }),
  listFailed: (listFailure) => set({ listStatus: 'failed', listFailure }),
}));
