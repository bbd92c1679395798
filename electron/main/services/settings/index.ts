/**
 * Opens the person's settings: the service over `settings.json`, what follows each change (the
 * log's prompts choice, main's language, the page's event), and the page's own changes. The
 * composition root only.
 */
import type { Settings } from '../../../shared/ipc/routes/settings';
import { confirmed, type AppContext, type ConfirmOptions } from '../../app-context';
import type { Changes } from '../changes';
import { localeFor, setMainLocale } from '../words';
import { updateSettings } from './key-file-choice';
import { SettingsService } from './settings';

export type SettingsDeps = Pick<
  AppContext,
  'userDataDir' | 'systemLocale' | 'secretStore' | 'dialogs' | 'emit' | 'log'
>;

export interface SettingsDomain {
  service: SettingsService;
  /**
   * A change the person made in Settings: keys go in a file only with their yes in main's own
   * dialog (none to ask counts as no), and turning that off deletes the file.
   */
  change(changes: Changes<Settings>): Promise<Settings>;
}

export async function openSettings(deps: SettingsDeps): Promise<SettingsDomain> {
  const { userDataDir, systemLocale, secretStore, dialogs, emit, log } = deps;
  const service = new SettingsService(userDataDir);
  const follow = (settings: Settings) => {
    log.setIncludePrompts(settings.includePromptsInLogs);
    // Main's words (menus, dialogs) follow the language setting, or the system's language.
    setMainLocale(localeFor(settings.language, systemLocale));
  };
  follow(await service.get());
  service.onChange((changed) => {
    follow(changed);
    emit('settingsChanged', changed);
  });
  const confirm = (question: ConfirmOptions) => confirmed(dialogs, question);
  return {
    service,
    change: (changes) =>
      updateSettings({ settings: service, userDataDir, secretStore, confirm }, changes),
  };
}
