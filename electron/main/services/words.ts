/**
 * Main's words in the person's language: the catalogues of `electron/shared/messages` (compiled at
 * build time by `scripts/vite-catalogues.ts`, as the renderer's are) read with Lingui's runtime.
 *
 * - `said(key, values)`: a message of the `errors` namespace for the page. It carries its key and
 *   values, which the page formats in the language it shows, and its English text, which is what
 *   main logs and what an error's `message` keeps (older data and tests read it).
 * - `nativeText(key, values)`: a word of the menus and native dialogs, in main's language now.
 * - `setMainLocale` / `followLanguage`: main's language, the Settings choice or the system's.
 */
import { setupI18n, type I18n, type Messages } from '@lingui/core';
import {
  effectiveLocale,
  PSEUDO_LOCALE,
  type AppLocale,
  type Locale,
  type LanguageChoice,
} from '../../shared/locales';
import type {
  ErrorMessageKey,
  MessageFields,
  MessageValues,
  NativeMessageKey,
  PlainValue,
  Said,
} from '../../shared/messages/keys';
import { issueWords } from '../../shared/messages/worded';
import deErrors from '../../shared/messages/de/errors.json';
import deNative from '../../shared/messages/de/native.json';
import enErrors from '../../shared/messages/en/errors.json';
import enNative from '../../shared/messages/en/native.json';
import esErrors from '../../shared/messages/es/errors.json';
import esNative from '../../shared/messages/es/native.json';
import frErrors from '../../shared/messages/fr/errors.json';
import frNative from '../../shared/messages/fr/native.json';
import jaErrors from '../../shared/messages/ja/errors.json';
import jaNative from '../../shared/messages/ja/native.json';
import zhErrors from '../../shared/messages/zh-CN/errors.json';
import zhNative from '../../shared/messages/zh-CN/native.json';

const CATALOGUES: Record<Locale, Messages> = {
  en: { ...enErrors, ...enNative } as unknown as Messages,
  'zh-CN': { ...zhErrors, ...zhNative } as unknown as Messages,
  ja: { ...jaErrors, ...jaNative } as unknown as Messages,
  es: { ...esErrors, ...esNative } as unknown as Messages,
  de: { ...deErrors, ...deNative } as unknown as Messages,
  fr: { ...frErrors, ...frNative } as unknown as Messages,
};

/** One runtime per language, so English (for `message`) never waits on the person's. */
const runtimes = new Map<Locale, I18n>();

function runtime(locale: Locale): I18n {
  let found = runtimes.get(locale);
  if (!found) {
    found = setupI18n({ locale, messages: { [locale]: CATALOGUES[locale] } });
    runtimes.set(locale, found);
  }
  return found;
}

/** Values with every nested message formatted first, in the same language. */
function plainValues(
  locale: Locale,
  values: MessageValues | undefined,
): Record<string, PlainValue> {
  if (!values) return {};
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      typeof value === 'object' ? format(locale, value.id, value.values) : value,
    ]),
  );
}

function format(
  locale: Locale,
  key: ErrorMessageKey | NativeMessageKey,
  values?: MessageValues,
): string {
  return runtime(locale)._(key, plainValues(locale, values));
}

export type { Said };

/**
 * A message for the page: its key, its values and its English text. A value may be another
 * message (`said(…)`), such as the reason inside a sentence.
 */
export function said(id: ErrorMessageKey, values?: Record<string, PlainValue | Said>): Said {
  const entries = Object.entries(values ?? {}).map(([name, value]) => [
    name,
    typeof value === 'object'
      ? { id: value.id, ...(value.values ? { values: value.values } : {}) }
      : value,
  ]);
  const plain = entries.length > 0 ? (Object.fromEntries(entries) as MessageValues) : undefined;
  return {
    id,
    ...(plain ? { values: plain } : {}),
    english: format('en', id, plain),
  };
}

/** A message's fields as they cross to the page: its English as `message`, its key and values. */
export function messageFields(words: Said): MessageFields {
  return messageFieldsAs('message', words);
}

/** The same, its English under the name the contract gives it there (`reason`, `problem`). */
export function messageFieldsAs<Field extends string>(
  field: Field,
  words: Said,
): Record<Field, string> & Omit<MessageFields, 'message'> {
  return {
    [field]: words.english,
    messageId: words.id,
    ...(words.values ? { values: words.values } : {}),
  } as Record<Field, string> & Omit<MessageFields, 'message'>;
}

/**
 * A schema's message for an issue zod reported (`worded` in the contract): its key and values
 * with zod's English, or that English as it is when the schema gave it no key.
 */
export function issueSaid(issue: {
  code?: string;
  message: string;
  params?: unknown;
}): Said | string {
  const words = issueWords(issue);
  return words
    ? { id: words.id, ...(words.values ? { values: words.values } : {}), english: issue.message }
    : issue.message;
}

/** A message of `errors` in a given language (tests, logs in the person's words). */
export function errorText(locale: Locale, id: ErrorMessageKey, values?: MessageValues): string {
  return format(locale, id, values);
}

let current: Locale = 'en';

/**
 * An error's words in main's language now, for what the page shows at once and does not keep (a
 * retry countdown, a connection's last outcome): its text as it came when it has no key.
 */
export function inMainLanguage(error: {
  message: string;
  messageId?: ErrorMessageKey | undefined;
  values?: MessageValues | undefined;
}): string {
  return error.messageId === undefined
    ? error.message
    : format(current, error.messageId, error.values);
}

/**
 * An error's words as a value of another message (`said(…, { reason })`): by its key and values
 * when it has a key, else its text as it came.
 */
export function wordsOf(error: {
  message: string;
  messageId?: ErrorMessageKey | undefined;
  values?: MessageValues | undefined;
}): Said | string {
  return error.messageId === undefined
    ? error.message
    : { id: error.messageId, english: error.message, values: error.values ?? {} };
}

/** Main's language now: the language of the menus and dialogs it shows next. */
export function mainLocale(): Locale {
  return current;
}

/** Sets main's language; the pseudo-language of the tests shows main's words in English. */
export function setMainLocale(locale: AppLocale): void {
  current = locale === PSEUDO_LOCALE ? 'en' : locale;
}

/** Main's language from the language setting and the system's language. */
export function localeFor(choice: LanguageChoice | undefined, system: Locale): Locale {
  const locale = effectiveLocale(choice ?? 'system', system);
  return locale === PSEUDO_LOCALE ? 'en' : locale;
}

/** A word of the menus, the tray or a native dialog, in main's language now. */
export function nativeText(id: NativeMessageKey, values?: Record<string, PlainValue>): string {
  return format(current, id, values);
}
