/**
 * The choice to keep API keys in a file where no keychain works: asked by main in a dialog of its
 * own (a script in the page cannot agree for the person), and undone at once when turned off.
 */
import { join } from 'node:path';
import type { ConfirmOptions } from '../../app-context';
import { PLAINTEXT_KEYS_FILE, stopKeepingKeysInFile, type SecretStore } from '../secret-store';
import type { Settings } from '../../../shared/ipc/routes/settings';
import type { SettingsService } from './settings';
import type { Changes } from '../changes';
import { nativeText } from '../words';

/** What the person agrees to when they choose to keep keys in a file. */
export function keyFileQuestion(userDataDir: string): ConfirmOptions {
  const path = join(userDataDir, PLAINTEXT_KEYS_FILE);
  return {
    title: nativeText('dialog.keyFile.title'),
    message: nativeText('dialog.keyFile.message'),
    detail: nativeText('dialog.keyFile.detail', { path }),
    confirmLabel: nativeText('dialog.keyFile.confirm'),
  };
}

export interface KeyFileChoiceOptions {
  settings: SettingsService;
  userDataDir: string;
  secretStore: SecretStore;
  /** Asks the person; false where no one can be asked. */
  confirm(question: ConfirmOptions): Promise<boolean>;
}

/**
 * Saves `changes`; turning the key file on needs the person's yes in main's dialog (declined, the
 * rest is saved and the choice stays off), and turning it off deletes the file.
 */
export async function updateSettings(
  { settings, userDataDir, secretStore, confirm }: KeyFileChoiceOptions,
  changes: Changes<Settings>,
): Promise<Settings> {
  const before = await settings.get();
  if (changes.allowPlaintextKeys === true && !before.allowPlaintextKeys) {
    if (!(await confirm(keyFileQuestion(userDataDir)))) {
      const { allowPlaintextKeys: _declined, ...rest } = changes;
      changes = rest;
    }
  }
  const after = await settings.update(changes);
  if (before.allowPlaintextKeys && !after.allowPlaintextKeys)
    await stopKeepingKeysInFile(userDataDir, secretStore);
  return after;
}
