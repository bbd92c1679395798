import { failureOf } from '../../lib/errors';
import {
  requireBridge,
  type KeyStorageStatus,
  type Settings,
  type Theme,
} from '../../lib/relay-bridge';
import { useSettingsStore } from './settings-store';

export async function loadSettings(): Promise<void> {
  try {
    useSettingsStore.getState().settingsLoaded(await requireBridge().getSettings());
  } catch (error) {
    useSettingsStore.getState().settingsFailed(failureOf(error));
  }
}

/** Saves a change; resolves to the settings as main saved them (it may decline a change). */
export async function saveSettings(changes: Partial<Settings>): Promise<Settings> {
  const saved = await requireBridge().updateSettings(changes);
  useSettingsStore.getState().settingsSaved(saved);
  return saved;
}

/** Shows the theme at once and saves it; puts the previous one back if saving fails. */
export async function chooseTheme(theme: Theme): Promise<void> {
  const store = useSettingsStore.getState();
  const previous = store.settings?.theme;
  store.themeChosen(theme);
  try {
    await saveSettings({ theme });
  } catch (error) {
    if (previous) useSettingsStore.getState().themeChosen(previous);
    throw error;
  }
}

/** Shows the language at once and saves it; puts the previous one back if saving fails. */
export async function chooseLanguage(language: Settings['language']): Promise<void> {
  const store = useSettingsStore.getState();
  const previous = store.settings?.language;
  store.languageChosen(language);
  try {
    await saveSettings({ language });
  } catch (error) {
    if (previous) useSettingsStore.getState().languageChosen(previous);
    throw error;
  }
}

export function loadKeyStorage(): Promise<KeyStorageStatus> {
  return requireBridge().getKeyStorageStatus();
}
