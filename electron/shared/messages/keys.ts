/**
 * Main's words, as types: the keys of its message catalogues (`messages/<locale>/<namespace>.json`
 * beside this file) and the shape of a message that crosses to the page.
 *
 * Two namespaces:
 * - `errors`: what main writes that the page shows (relay errors, refusals, the connection test's
 *   explanations). Main sends the key and its values with the English text; the page formats it
 *   in the language shown when it shows it, so a stored error follows a later language change.
 * - `native`: what only main shows (the application menu, the tray menu, native dialogs).
 *
 * Plain data and types only, so main and the renderer (types only) both use it.
 */
import type errors from './en/errors.json';
import type native from './en/native.json';

export type ErrorMessageKey = keyof typeof errors & string;
export type NativeMessageKey = keyof typeof native & string;

/** Main's namespaces, in `messages/<locale>/<namespace>.json`. */
export const MAIN_NAMESPACES = ['errors', 'native'] as const;
export type MainNamespace = (typeof MAIN_NAMESPACES)[number];

export type PlainValue = string | number;

/** A message of `errors` by its key, with its values: formatted where it is shown. */
export interface MessageRef {
  id: ErrorMessageKey;
  values?: Record<string, PlainValue>;
}

/** A message's values: text and numbers, or another message (its reason, say) formatted first. */
export type MessageValues = Record<string, PlainValue | MessageRef>;

/**
 * Main's words as code holds them: a message of `errors` by its key and values, with its English
 * text (what logs and an error's `message` keep). Made by `said(…)` in main; the proxy rules and
 * the check of images write theirs with their English beside them.
 */
export interface Said {
  id: ErrorMessageKey;
  values?: MessageValues;
  english: string;
}

/**
 * The same words as they cross to the page (the contract's `messageRefFields`, inside an
 * `IpcError`, a status, a refusal): the English text as `message`, with the key and values the
 * page formats (`mainMessageText`). Made from a `Said` by `messageFields` in main.
 */
export interface MessageFields {
  message: string;
  messageId: ErrorMessageKey;
  values?: MessageValues;
}
