import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { UpdateStatus } from '../../lib/relay-bridge';

export interface UpdatesState {
  status?: UpdateStatus | undefined;
  /** A call that failed (check, install), apart from a failed update itself. */
  failure?: FailureInfo | undefined;
  checking: boolean;

  statusReceived(status: UpdateStatus): void;
  checkStarted(): void;
  checkEnded(): void;
  callFailed(failure: FailureInfo | undefined): void;
}

export const useUpdatesStore = create<UpdatesState>()((set) => ({
  checking: false,
  statusReceived: (status) => set({ status }),
  checkStarted: () => set({ checking: true, failure: undefined }),
  checkEnded: () => set({ checking: false }),
  callFailed: (failure) => set({ failure }),
}));
