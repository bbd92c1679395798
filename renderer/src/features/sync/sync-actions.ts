/**
 * Sync as the page drives it: the status (and its events), the storage's set-up, Sync now,
 * pause, turn off and the history. The recovery phrase a new sync answers is handed back to the
 * caller, which shows it once; it is kept in no store.
 */
import { failureOf } from '../../lib/errors';
import { requireBridge, type Answer } from '../../lib/relay-bridge';
import { useSyncStore } from './sync-store';

export type SyncTargetInput = Parameters<
  ReturnType<typeof requireBridge>['testSyncTarget']
>[0]['target'];
export type SyncTest = Answer<'testSyncTarget'>;

export async function loadSyncStatus(): Promise<void> {
  try {
    useSyncStore.getState().statusReceived(await requireBridge().getSyncStatus());
  } catch (error) {
    useSyncStore.getState().statusFailed(failureOf(error));
  }
}

export async function loadSyncHistory(): Promise<void> {
  try {
    useSyncStore.getState().historyReceived(await requireBridge().getSyncHistory({ limit: 20 }));
  } catch {
    // The history is shown as empty; the status says what is wrong.
  }
}

/** Follows the status; the history is read again after each sync that ended. */
export function watchSyncStatus(): () => void {
  return requireBridge().onSyncStatusChanged((status) => {
    const before = useSyncStore.getState().status;
    useSyncStore.getState().statusReceived(status);
    if (status.lastSyncAt !== before?.lastSyncAt) void loadSyncHistory();
  });
}

export function chooseSyncFolder() {
  return requireBridge().chooseSyncFolder();
}

export function testSyncTarget(target: SyncTargetInput): Promise<SyncTest> {
  return requireBridge().testSyncTarget({ target });
}

/** Sets sync up on an empty storage; answers the recovery phrase, to show once. */
export async function startNewSync(target: SyncTargetInput): Promise<string> {
  const { phrase, status } = await requireBridge().startNewSync({ target });
  useSyncStore.getState().statusReceived(status);
  return phrase;
}

export async function joinSync(target: SyncTargetInput, phrase: string): Promise<void> {
  useSyncStore.getState().statusReceived(await requireBridge().joinSync({ target, phrase }));
}

export async function syncNow(): Promise<void> {
  const store = useSyncStore.getState();
  store.syncingChanged(true);
  try {
    useSyncStore.getState().statusReceived(await requireBridge().syncNow());
    await loadSyncHistory();
  } finally {
    useSyncStore.getState().syncingChanged(false);
  }
}

export async function setSyncPaused(paused: boolean): Promise<void> {
  useSyncStore.getState().statusReceived(await requireBridge().setSyncPaused({ paused }));
}

export async function turnOffSync(): Promise<void> {
  useSyncStore.getState().statusReceived(await requireBridge().turnOffSync());
  useSyncStore.getState().historyReceived([]);
}

export type KeyNeeded = Answer<'getSyncKeysNeeded'>[number];

/** The connections another computer synced here that need their key, each asked for once. */
export function loadKeysNeeded(): Promise<KeyNeeded[]> {
  return requireBridge().getSyncKeysNeeded();
}

/** Saves this computer's key for a synced connection; it is not asked for again. */
export async function saveSyncedKey(id: string, apiKey: string): Promise<void> {
  await requireBridge().updateConnection({ id, changes: { apiKey } });
  await requireBridge().syncKeyAsked({ id });
}

/** "Not now": not asked again (the connection's own form takes the key any time). */
export async function skipSyncedKey(id: string): Promise<void> {
  await requireBridge().syncKeyAsked({ id });
}
