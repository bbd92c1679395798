import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { LoadStatus } from '../../lib/load-state';
import type { Settings, Theme } from '../../lib/relay-bridge';
import type { SettingsFields } from './settings-form';

export interface SettingsState {
  status: Exclude<LoadStatus, 'idle'>;
  settings?: Settings | undefined;
  failure?: FailureInfo | undefined;
  /**
   * The defaults form as typed while a value in it is not valid (nothing saved yet): kept when
   * the person leaves Settings, shown again with its errors when they come back.
   */
  defaultsDraft?: SettingsFields | undefined;

  settingsLoaded(settings: Settings): void;
  settingsFailed(failure: FailureInfo): void;
  /** Main saved a change and answered with the settings as they now are. */
  settingsSaved(settings: Settings): void;
  /** The person picked a theme: it shows at once, before main has saved it. */
  themeChosen(theme: Theme): void;
  /** The person picked a language: it shows at once, before main has saved it. */
  languageChosen(language: Settings['language']): void;
  /** The defaults form holds a value that is not valid (or, undefined, no longer does). */
  defaultsDrafted(fields: SettingsFields | undefined): void;
}

export const useSettingsStore = create<SettingsState>()((set) => ({
  status: 'loading',
  settingsLoaded: (settings) => set({ status: 'ready', settings, failure: undefined }),
  settingsFailed: (failure) => set({ status: 'failed', failure }),
  settingsSaved: (settings) => set({ status: 'ready', settings }),
  themeChosen: (theme) =>
    set((state) => (state.settings ? { settings: { ...state.settings, theme } } : {})),
  languageChosen: (language) =>
    set((state) => (state.settings ? { settings: { ...state.settings, language } } : {})),
  defaultsDrafted: (fields) => set({ defaultsDraft: fields }),
}));

/** The theme to show: the saved choice, or the system's until settings arrive. */
export const selectTheme = (state: SettingsState): Theme => state.settings?.theme ?? 'system';
