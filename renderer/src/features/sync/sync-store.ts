import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { Answer } from '../../lib/relay-bridge';

export type SyncStatus = Answer<'getSyncStatus'>;
export type SyncReport = Answer<'getSyncHistory'>[number];

export interface SyncState {
  status?: SyncStatus | undefined;
  /** Reading the status failed (shown in place of it). */
  statusFailure?: FailureInfo | undefined;
  history: SyncReport[];
  /** Sync now was asked for and has not ended. */
  syncing: boolean;

  statusReceived(status: SyncStatus): void;
  statusFailed(failure: FailureInfo): void;
  historyReceived(history: SyncReport[]): void;
  syncingChanged(syncing: boolean): void;
}

export const useSyncStore = create<SyncState>()((set) => ({
  history: [],
  syncing: false,
  statusReceived: (status) => set({ status, statusFailure: undefined }),
  statusFailed: (statusFailure) => set({ statusFailure }),
  historyReceived: (history) => set({ history }),
  syncingChanged: (syncing) => set({ syncing }),
}));
