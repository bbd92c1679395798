/**
 * The languages the app speaks, and how the system's preferred languages pick one at first start.
 *
 * Plain data and pure functions: no Electron, Node or DOM, so main (which reads the system's
 * languages) and the renderer (which shows the choice in Settings) share them.
 */

/** The app's languages, as BCP 47 tags. English is the source every other is translated from. */
export const LOCALES = ['en', 'zh-CN', 'ja', 'es', 'de', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * A pseudo-language for tests: English with every letter accented and each message about 40%
 * longer, so that a clipped control or a word left outside the catalogue shows at once. Never
 * listed in Settings; a test sets it through the settings route.
 */
export const PSEUDO_LOCALE = 'en-XA';
export type AppLocale = Locale | typeof PSEUDO_LOCALE;

/** The language setting: follow the system, or one language. */
export const LANGUAGE_CHOICES = ['system', ...LOCALES, PSEUDO_LOCALE] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

/** Each language named in itself, as Settings lists it. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  'zh-CN': '简体中文',
  ja: '日本語',
  es: 'Español',
  de: 'Deutsch',
  fr: 'Français',
};

/**
 * The first of the system's preferred languages (most preferred first, e.g. `['de-AT', 'en-US']`)
 * that the app speaks: an exact tag, else the same language (`de-AT` → `de`, `zh-Hans-CN` and
 * `zh-SG` → `zh-CN`); English when none is spoken. Chinese written in traditional characters
 * (`zh-TW`, `zh-HK`, `zh-Hant`) is not matched to Simplified Chinese.
 */
export function resolveLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const found = matchLocale(tag);
    if (found) return found;
  }
  return 'en';
}

function matchLocale(tag: string): Locale | undefined {
  const parts = tag.replace(/_/g, '-').toLowerCase().split('-');
  const language = parts[0];
  if (language === 'zh') {
    const traditional = parts.some((part) => ['hant', 'tw', 'hk', 'mo'].includes(part));
    return traditional ? undefined : 'zh-CN';
  }
  return LOCALES.find((locale) => locale === language);
}

/** The locale the app shows for a setting and the system's resolved language. */
export function effectiveLocale(choice: LanguageChoice, system: Locale): AppLocale {
  return choice === 'system' ? system : choice;
}
