import { t } from '../../i18n/i18n';
import type { ConnectionSummary } from '../../lib/relay-bridge';

/**
 * "Key saved (…abcd)": what the person may know of a saved key, in the app's language (main's
 * own words when the key could not be read).
 */
export function keyStatusText(
  connection: Pick<ConnectionSummary, 'hasKey' | 'keyLast4' | 'keyError'>,
): string {
  if (connection.keyError) return connection.keyError;
  if (!connection.hasKey) return t('connect.keyStatus.none');
  return connection.keyLast4
    ? t('connect.keyStatus.savedEnding', { last4: connection.keyLast4 })
    : t('connect.keyStatus.saved');
}

/**
 * Where saved keys are kept. Sentences that name the place choose their words by it (an ICU
 * `select` on `place`), since a place is not a fragment every language can slot in.
 */
export type KeyBackend = 'keychain' | 'memory' | 'file';
