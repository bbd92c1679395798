import type { SYNC_ROUTES } from '../../../shared/ipc/routes/sync';
import type { SyncService } from '../../services/sync/sync-service';
import type { Handlers } from '../router';

/** The handlers of the sync routes: one line each, over the sync service. */
export function syncHandlers(sync: SyncService): Handlers<typeof SYNC_ROUTES> {
  return {
    getSyncStatus: () => sync.status(),
    chooseSyncFolder: () => sync.chooseFolder(),
    testSyncTarget: ({ target }) => sync.test(target),
    startNewSync: ({ target }) => sync.startNew(target),
    joinSync: ({ target, phrase }) => sync.join(target, phrase),
    syncNow: () => sync.syncNow(),
    setSyncPaused: ({ paused }) => sync.setPaused(paused),
    turnOffSync: () => sync.turnOff(),
    getSyncHistory: (request) => sync.history(request?.limit ?? 20),
    getSyncKeysNeeded: () => sync.keysNeeded(),
    syncKeyAsked: ({ id }) => (sync.keyAsked(id), null),
  };
}
