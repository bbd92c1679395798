import type { ConnectionSummary } from '../../lib/relay-bridge';

/** "Key saved (…abcd)": what the person may know of a saved key. */
export function keyStatusText(connection: Pick<ConnectionSummary, 'hasKey' | 'keyLast4'>): string {
  if (!connection.hasKey) return 'No key saved';
  return connection.keyLast4 ? `Key saved (…${connection.keyLast4})` : 'Key saved';
}
