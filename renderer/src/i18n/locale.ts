/**
 * Which language the page shows: the Settings choice, or the system's as main resolved it. The
 * last one shown is kept in the page's storage so the next start paints in it at once, before
 * the settings have arrived.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import {
  LOCALES,
  PSEUDO_LOCALE,
  effectiveLocale,
  resolveLocale,
  type AppLocale,
  type Locale,
} from '../../../electron/shared/locales';
import { useSettingsStore } from '../features/settings/settings-store';
import { relayBridge } from '../lib/relay-bridge';
import { recall, remember } from '../lib/session-memory';
import { activateLocale } from './i18n';

const LOCALE_KEY = 'relay.locale';

/** The system's language as main resolved it (`app:info`), once it has answered. */
export const useSystemLocale = create<{ system: Locale | undefined }>()(() => ({
  system: undefined,
}));

function isAppLocale(value: string | undefined): value is AppLocale {
  return value === PSEUDO_LOCALE || LOCALES.some((locale) => locale === value);
}

/** The language of the first paint: the last one shown, else the browser's (Electron's) own. */
export function startLocale(): AppLocale {
  const remembered = recall(LOCALE_KEY);
  return isAppLocale(remembered) ? remembered : resolveLocale(navigator.languages);
}

/** Follows the language setting (and the system's language under "System") on the whole page. */
export function useAppLocale(): void {
  const choice = useSettingsStore((state) => state.settings?.language);
  const system = useSystemLocale((state) => state.system);

  useEffect(() => {
    relayBridge()
      ?.getAppInfo()
      .then(
        (info) => useSystemLocale.setState({ system: info.systemLocale }),
        () => undefined,
      );
  }, []);

  useEffect(() => {
    if (!choice || !system) return;
    const locale = effectiveLocale(choice, system);
    remember(LOCALE_KEY, locale);
    activateLocale(locale).catch(() => undefined);
  }, [choice, system]);
}
