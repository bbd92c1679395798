import type { ConfirmOptions } from '../../app-context';
import { nativeText } from '../words';

/** What the person agrees to when they send their key to a relay over plain http. */
export function unencryptedQuestion(origin: string): ConfirmOptions {
  return {
    title: nativeText('dialog.unencrypted.title'),
    message: nativeText('dialog.unencrypted.message', { origin }),
    detail: nativeText('dialog.unencrypted.detail', { origin }),
    confirmLabel: nativeText('dialog.unencrypted.confirm'),
  };
}
