/**
 * What a restored `settings.json` may not change on its own, put right before the services open
 * on it (a backup can be edited before it is given back):
 * - a proxy of its own is used only once the person says yes in main's dialog; otherwise the
 *   proxy in use before the restore stays;
 * - keys are never put in a file because a backup says so: that needs the person's yes in
 *   Settings. And where the restored settings keep keys off disk, the key file goes at once
 *   (its keys stay in memory until the app quits), as when the person turns it off.
 */
import type { Settings } from '../../../shared/ipc/routes/settings';
import { confirmed, type Dialogs } from '../../app-context';
import type { Changes } from '../changes';
import { proxyNeedsConsent, proxyQuestion } from '../network/proxy-question';
import { stopKeepingKeysInFile, type SecretStore } from '../secret-store';
import { SettingsService } from './settings';

export interface RestoredSettingsDeps {
  userDataDir: string;
  secretStore: SecretStore;
  /** Main's own dialogs; without `confirm`, a restored proxy of its own counts as declined. */
  dialogs?: Dialogs | undefined;
}

/** Puts the restored settings right, given the settings in use `before` the restore. */
export async function keepRestoredSettingsSafe(
  { userDataDir, secretStore, dialogs }: RestoredSettingsDeps,
  before: Settings,
): Promise<void> {
  const settings = new SettingsService(userDataDir);
  const restored = await settings.get();
  const changes: Changes<Settings> = {};
  if (restored.proxy.mode === 'manual' && proxyNeedsConsent(before.proxy, restored.proxy)) {
    if (!(await confirmed(dialogs, proxyQuestion(restored.proxy, 'restore'))))
      changes.proxy = before.proxy;
  }
  if (restored.allowPlaintextKeys && !before.allowPlaintextKeys) changes.allowPlaintextKeys = false;
  if (Object.keys(changes).length > 0) await settings.update(changes);
  if (!(restored.allowPlaintextKeys && before.allowPlaintextKeys))
    await stopKeepingKeysInFile(userDataDir, secretStore);
}
