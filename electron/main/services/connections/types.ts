/**
 * The shapes of saved connections the rest of main sees: never a key, only whether one is saved.
 * What a form gives is the contract's (`shared/ipc/routes/connections.ts`), before it is checked.
 */
import type { z } from 'zod';
import type {
  connectionChangesSchema,
  connectionDraftSchema,
  connectionHeaderDraftSchema,
} from '../../../shared/ipc/routes/connections';
import type { ErrorMessageKey, MessageValues } from '../../../shared/messages/keys';
import type { Connection } from './store';

/** An extra header as a form gives it; a secret one without a value keeps the saved value. */
export type HeaderDraft = z.input<typeof connectionHeaderDraftSchema>;

/** An extra header in a summary: a secret one says only whether it has a value. */
export interface HeaderSummary {
  name: string;
  secret: boolean;
  value?: string;
  hasValue: boolean;
}

/** A connection as the rest of the app sees it: never the key, only whether there is one. */
export interface ConnectionSummary extends Omit<Connection, 'headers'> {
  hasKey: boolean;
  /** The key's last four characters, for keys long enough that this gives little away. */
  keyLast4?: string;
  /** Set when the key store could not be read, so `hasKey` is unknown (in English). */
  keyError?: string;
  /** `keyError` by its key in main's catalogue, and its values, for the page's language. */
  keyErrorId?: ErrorMessageKey;
  keyErrorValues?: MessageValues;
  /** The address is plain http to a host outside this machine and the local network. */
  unencrypted: boolean;
  allowUnencrypted: boolean;
  headers: HeaderSummary[];
}

/** A new connection as a form gives it (`createConnection`); local services take no key. */
export type NewConnection = z.input<typeof connectionDraftSchema>;

/**
 * An edit of a saved connection (`updateConnection`): absent fields are kept; a key absent keeps
 * the saved one unless the address moves to another origin (which removes it), null removes it.
 */
export type ConnectionChanges = z.input<typeof connectionChangesSchema>;
