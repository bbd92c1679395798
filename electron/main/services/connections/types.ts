/** The shapes of saved connections the rest of main sees: never a key, only whether one is saved. */
import type { ErrorMessageKey, MessageValues } from '../../../shared/messages/keys';
import type { Connection } from './store';

/** An extra header as a form gives it; a secret one without a value keeps the saved value. */
export interface HeaderDraft {
  name: string;
  value?: string | undefined;
  secret?: boolean | undefined;
}

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

export interface NewConnection {
  name: string;
  baseUrl: string;
  consoleUrl?: string | null | undefined;
  /** Optional: local services such as Ollama take no key. */
  apiKey?: string | null | undefined;
  /** Send the key even though the address is plain http outside the local network. */
  allowUnencrypted?: boolean | undefined;
  headers?: HeaderDraft[] | undefined;
}

export interface ConnectionChanges {
  name?: string | undefined;
  baseUrl?: string | undefined;
  /** A new console address; null or '' removes it. */
  consoleUrl?: string | null | undefined;
  /**
   * A replacement key; absent keeps the saved key (unless the address moves to another origin,
   * which removes it), null removes it.
   */
  apiKey?: string | null | undefined;
  allowUnencrypted?: boolean | undefined;
  /** Replaces the extra headers; absent keeps them. */
  headers?: HeaderDraft[] | undefined;
}
