import { mainMessageText } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';

/** "Key saved (…abcd)": what the person may know of a saved key. */
export function keyStatusText(
  connection: Pick<
    ConnectionSummary,
    'hasKey' | 'keyLast4' | 'keyError' | 'keyErrorId' | 'keyErrorValues'
  >,
): string {
  if (connection.keyError) {
    // Main's words, in the page's language by their key.
    return mainMessageText({
      message: connection.keyError,
      messageId: connection.keyErrorId,
      values: connection.keyErrorValues,
    });
  }
  if (!connection.hasKey) return 'No key saved';
  return connection.keyLast4 ? `Key saved (…${connection.keyLast4})` : 'Key saved';
}

export type KeyBackend = 'keychain' | 'memory' | 'file';

/** Where saved keys are kept, as the end of a sentence: "The key is kept …". */
export const KEY_PLACE: Record<KeyBackend, { kept: string; deletedFrom: string }> = {
  keychain: { kept: 'in your system keychain', deletedFrom: 'from the keychain' },
  memory: { kept: 'in memory until you quit', deletedFrom: 'from memory' },
  file: { kept: 'in a key file on this computer', deletedFrom: 'from the key file' },
};
