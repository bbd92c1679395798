/** What the rest of the app is told of a saved connection: never its key or secret values. */
import type { Said } from '../words';
import { keyInClear, keyLast4, originOf } from './connection-input';
import { keyStoreMessage, type ConnectionSecrets, type SavedSecrets } from './secrets';
import type { Connection } from './store';
import type { ConnectionSummary } from './types';

/** What the page is told of a connection; `saved` holds secrets already read (`getAll`). */
export async function summarize(
  secrets: ConnectionSecrets,
  connection: Connection,
  saved?: SavedSecrets,
): Promise<ConnectionSummary> {
  const { headers: stored = [], ...fields } = connection;
  const summary: ConnectionSummary = {
    ...fields,
    hasKey: false,
    unencrypted: keyInClear(connection.baseUrl),
    allowUnencrypted: connection.allowUnencrypted === true,
    headers: stored.map((h) =>
      h.secret
        ? { name: h.name, secret: true, hasValue: false }
        : { name: h.name, secret: false, value: h.value ?? '', hasValue: true },
    ),
  };
  const origin = originOf(connection.baseUrl);
  if (stored.some((h) => h.secret)) {
    try {
      const values = await secrets.headerSecrets(connection.id, origin, saved);
      for (const header of summary.headers) {
        if (header.secret) header.hasValue = values[header.name] !== undefined;
      }
    } catch (error) {
      Object.assign(summary, keyErrorOf(keyStoreMessage(error, 'read')));
    }
  }
  try {
    const key = await secrets.key(connection.id, origin, saved, {
      storeErrors: 'as thrown',
    });
    if (key !== undefined) {
      summary.hasKey = true;
      const last4 = keyLast4(key);
      if (last4 !== undefined) summary.keyLast4 = last4;
    }
  } catch (error) {
    Object.assign(summary, keyErrorOf(keyStoreMessage(error, 'read')));
  }
  return summary;
}

/** A summary's `keyError`, in English with its key and values. */
function keyErrorOf(
  sentence: Said,
): Pick<ConnectionSummary, 'keyError' | 'keyErrorId' | 'keyErrorValues'> {
  return {
    keyError: sentence.english,
    keyErrorId: sentence.id,
    ...(sentence.values ? { keyErrorValues: sentence.values } : {}),
  };
}
