import { failureOf } from '../../lib/errors';
import { requireBridge, type Settings } from '../../lib/relay-bridge';
import { useSettingsStore } from './settings-store';

export async function loadSettings(): Promise<void> {
  try {
    useSettingsStore.getState().settingsLoaded(await requireBridge().getSettings());
  } catch (error) {
    useSettingsStore.getState().settingsFailed(failureOf(error));
  }
}

export async function saveSettings(changes: Partial<Settings>): Promise<void> {
  useSettingsStore.getState().settingsSaved(await requireBridge().updateSettings(changes));
}
