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
import type errorsEn from '../../../electron/shared/messages/en/errors.json';
import shellEn from './messages/en/shell.json';
import type settingsEn from './messages/en/settings.json';
import type chatEn from './messages/en/chat.json';
import type knowledgeEn from './messages/en/knowledge.json';
import type promptsEn from './messages/en/prompts.json';
import type quickAskEn from './messages/en/quick-ask.json';
import type connectEn from './messages/en/connect.json';
import type modelsEn from './messages/en/models.json';
import type usageEn from './messages/en/usage.json';
import type backupsEn from './messages/en/backups.json';
import type embeddingsEn from './messages/en/embeddings.json';
import type imagesEn from './messages/en/images.json';
import type syncEn from './messages/en/sync.json';
import type toolsEn from './messages/en/tools.json';

/** Every namespace's English messages: the source of the keys. */
interface Catalogues {
  shell: typeof shellEn;
  settings: typeof settingsEn;
  chat: typeof chatEn;
  knowledge: typeof knowledgeEn;
  prompts: typeof promptsEn;
  'quick-ask': typeof quickAskEn;
  connect: typeof connectEn;
  models: typeof modelsEn;
  usage: typeof usageEn;
  backups: typeof backupsEn;
  embeddings: typeof embeddingsEn;
  images: typeof imagesEn;
  sync: typeof syncEn;
  tools: typeof toolsEn;
  /** Main's messages that reach the page (`electron/shared/messages`): see `lib/errors.ts`. */
  errors: typeof errorsEn;
}
export type Namespace = keyof Catalogues;
/** The renderer's own namespaces, in `messages/<locale>/<namespace>.json`. */
export const NAMESPACES = [
  'shell',
  'settings',
  'chat',
  'knowledge',
  'prompts',
  'quick-ask',
  'connect',
  'models',
  'usage',
  'backups',
  'embeddings',
  'images',
  'sync',
  'tools',
] as const satisfies readonly Namespace[];

/** A message's key: a key not in the English catalogues fails the type check. */
export type MessageKey = { [N in Namespace]: keyof Catalogues[N] }[Namespace] & string;
export type MessageValues = Record<string, string | number | Date>;

export const i18n = setupI18n({ locale: 'en', messages: { en: shellEn as unknown as Messages } });

/** Namespaces whose words the page has asked for (every language switch loads them again). */
const wanted = new Set<Namespace>(['shell']);
/** `${locale}/${namespace}` already in `i18n`. */
const loaded = new Set<string>(['en/shell']);
/** The language asked for last: the one shown, or the one a switch is fetching. */
let requested: AppLocale = 'en';

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
  const chunk = (
    namespace === 'errors'
      ? await import(`../../../electron/shared/messages/${locale}/errors.json`)
      : await import(`./messages/${locale}/${namespace}.json`)
  ) as { default: Messages };
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

/**
 * The messages of a namespace in the active language, before a screen that shows them (and in
 * the language a switch under way is fetching, so the screen does not show keys after it).
 */
export async function loadNamespace(namespace: Namespace): Promise<void> {
  wanted.add(namespace);
  const locales = new Set([i18n.locale as AppLocale, requested]);
  await Promise.all([...locales].map((locale) => ensure(locale, [namespace])));
}

/** Switches every word on the page to `locale`, once its catalogues are in. */
export async function activateLocale(locale: AppLocale): Promise<void> {
  requested = locale;
  // Until every namespace asked for meanwhile is in too.
  while ([...wanted].some((ns) => !loaded.has(`${locale}/${ns}`))) await ensure(locale, wanted);
  // A later switch has the last word.
  if (requested !== locale) return;
  if (i18n.locale !== locale) i18n.activate(locale);
  document.documentElement.lang = locale;
  // Main's messages (errors, refusals) on every screen, fetched after the first paint: until they
  // are in, an error shows main's English text (`lib/errors.ts`), then re-renders in `locale`.
  // English needs none: main sends each message's English text with its key.
  if (locale !== 'en') ensure(locale, ['errors']).catch(() => undefined);
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
