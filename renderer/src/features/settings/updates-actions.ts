/** The app's own updates, as the page follows them: status events, Check now, Restart to update. */
import { failureOf } from '../../lib/errors';
import { requireBridge, type UpdateSettings } from '../../lib/relay-bridge';
import { useSettingsStore } from './settings-store';
import { useUpdatesStore } from './updates-store';

/** Reads the status and follows it; returns the unsubscribe. */
export function watchUpdates(): () => void {
  const bridge = requireBridge();
  const stop = bridge.onUpdateStatus((status) => useUpdatesStore.getState().statusReceived(status));
  bridge.getUpdateStatus().then(
    (status) => useUpdatesStore.getState().statusReceived(status),
    (error: unknown) => useUpdatesStore.getState().callFailed(failureOf(error)),
  );
  return stop;
}

export async function checkForUpdates(): Promise<void> {
  const store = useUpdatesStore.getState();
  store.checkStarted();
  try {
    store.statusReceived(await requireBridge().checkForUpdates());
  } catch (error) {
    useUpdatesStore.getState().callFailed(failureOf(error));
  } finally {
    useUpdatesStore.getState().checkEnded();
  }
}

export async function installUpdate(): Promise<void> {
  try {
    await requireBridge().installUpdate();
  } catch (error) {
    useUpdatesStore.getState().callFailed(failureOf(error));
  }
}

/** Saves the channel or checking by itself; the settings store takes the saved values. */
export async function configureUpdates(changes: Partial<UpdateSettings>): Promise<void> {
  const updates = await requireBridge().configureUpdates(changes);
  const { settings } = useSettingsStore.getState();
  if (settings) useSettingsStore.getState().settingsSaved({ ...settings, updates });
}
