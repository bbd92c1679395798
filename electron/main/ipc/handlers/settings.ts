import type { SETTINGS_ROUTES } from '../../../shared/ipc/routes/settings';
import type { AppContext } from '../../app-context';
import { updateSettings } from '../../services/settings/key-file-choice';
import type { Handlers } from '../router';

/** The handlers of the settings routes. */
export function settingsHandlers(
  context: Pick<AppContext, 'settings' | 'userDataDir' | 'secretStore' | 'dialogs'>,
): Handlers<typeof SETTINGS_ROUTES> {
  const { settings, userDataDir, secretStore, dialogs } = context;
  const confirm = async (question: Parameters<NonNullable<typeof dialogs.confirm>>[0]) =>
    (await dialogs.confirm?.(question)) ?? false;
  return {
    getSettings: () => settings.get(),
    updateSettings: (changes) =>
      updateSettings({ settings, userDataDir, secretStore, confirm }, changes),
  };
}
