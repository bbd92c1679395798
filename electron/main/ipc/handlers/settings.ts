import type { SETTINGS_ROUTES } from '../../../shared/ipc/routes/settings';
import type { SettingsDomain } from '../../services/settings';
import type { Handlers } from '../router';

/** The handlers of the settings routes: one line each, over the settings domain. */
export function settingsHandlers(settings: SettingsDomain): Handlers<typeof SETTINGS_ROUTES> {
  return {
    getSettings: () => settings.service.get(),
    updateSettings: (changes) => settings.change(changes),
  };
}
