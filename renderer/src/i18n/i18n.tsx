/**
 * The renderer's words: Lingui's runtime with catalogues compiled at build time
 * (`catalogue-plugin.ts` turns each `messages/<locale>/<namespace>.json` of ICU messages into
 * Lingui's compiled form), keys typed from the English files, and one namespace per part of the
 * app so each screen's words load with its chunk.
 *
 * - `t(key, values)` in stores and actions (the active language at the moment it is called);
 * - `useT()` in components, which re-render when the language changes.
 */
import { setupI18n, type Messages } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react';
import type { ReactElement } from 'react';
import { PSEUDO_LOCALE, type AppLocale } from '../../../electron/shared/locales';
import shellEn from './messages/en/shell.json';
import type settingsEn from './messages/en/settings.json';
import type embeddingsEn from './messages/en/embeddings.json';
import type imagesEn from './messages/en/images.json';

/** Every namespace's English messages: the source of the keys. */
interface Catalogues {
  shell: typeof shellEn;
  settings: typeof settingsEn;
  embeddings: typeof embeddingsEn;
  images: typeof imagesEn;
}
export type Namespace = keyof Catalogues;
export const NAMESPACES = [
  'shell',
  'settings',
  'embeddings',
  'images',
] as const satisfies readonly Namespace[];

/** A message's key: a key not in the English catalogues fails the type check. */
export type MessageKey = { [N in Namespace]: keyof Catalogues[N] }[Namespace] & string;
export type MessageValues = Record<string, string | number | Date>;

export const i18n = setupI18n({ locale: 'en', messages: { en: shellEn as unknown as Messages } });

/** Namespaces whose words the page has asked for (every language switch loads them again). */
const wanted = new Set<Namespace>(['shell']);
/** `${locale}/${namespace}` already in `i18n`. */
const loaded = new Set<string>(['en/shell']);

async function fetchCatalogue(locale: AppLocale, namespace: Namespace): Promise<Messages> {
  if (locale === PSEUDO_LOCALE) {
    const [{ pseudoCatalogue }, english] = await Promise.all([
      import('./pseudo'),
      fetchCatalogue('en', namespace),
    ]);
    return pseudoCatalogue(english);
  }
  // The shell's English words are in the start-up script (the app starts in English unless told
  // otherwise); every other catalogue is a chunk of its own, fetched when its language or its
  // screen is first shown.
  if (locale === 'en' && namespace === 'shell') return shellEn as unknown as Messages;
  const chunk = (await import(`./messages/${locale}/${namespace}.json`)) as { default: Messages };
  return chunk.default;
}

async function ensure(locale: AppLocale, namespaces: Iterable<Namespace>): Promise<void> {
  const missing = [...namespaces].filter((ns) => !loaded.has(`${locale}/${ns}`));
  const catalogues = await Promise.all(missing.map((ns) => fetchCatalogue(locale, ns)));
  catalogues.forEach((messages, index) => {
    i18n.load(locale, messages);
    loaded.add(`${locale}/${missing[index]}`);
  });
}

/** The messages of a namespace in the active language, before a screen that shows them. */
export async function loadNamespace(namespace: Namespace): Promise<void> {
  wanted.add(namespace);
  await ensure(i18n.locale as AppLocale, [namespace]);
}

/** Switches every word on the page to `locale`, once its catalogues are in. */
export async function activateLocale(locale: AppLocale): Promise<void> {
  await ensure(locale, wanted);
  if (i18n.locale !== locale) i18n.activate(locale);
  document.documentElement.lang = locale;
}

/** A message in the active language. */
export function t(key: MessageKey, values?: MessageValues): string {
  return i18n._(key, values);
}

/** `t` for a component: it re-renders when the language changes. */
export function useT(): typeof t {
  const { i18n: active } = useLingui();
  return (key, values) => active._(key, values);
}

/**
 * A message with markup: `<0>…</0>` in the message is rendered as `components[0]` holding that
 * text ("… is <0>not encrypted</0>" with `{ 0: <strong /> }`).
 */
export function Message({
  id,
  values,
  components,
}: {
  id: MessageKey;
  values?: MessageValues;
  components: Record<string, ReactElement>;
}) {
  return <Trans id={id} values={values ?? {}} components={components} />;
}
