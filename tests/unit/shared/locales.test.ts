import { describe, expect, it } from 'vitest';
import {
  effectiveLocale,
  LANGUAGE_NAMES,
  LOCALES,
  resolveLocale,
} from '../../../electron/shared/locales';

describe('the language at first start', () => {
  it.each([
    [['de-AT', 'en-US'], 'de'],
    [['fr-CA'], 'fr'],
    [['es-419', 'en'], 'es'],
    [['ja-JP'], 'ja'],
    [['zh-Hans-CN'], 'zh-CN'],
    [['zh-CN'], 'zh-CN'],
    [['zh_SG'], 'zh-CN'],
    [['en-GB', 'de-DE'], 'en'],
    // Languages the app does not speak are passed over for the next one it does.
    [['nl-NL', 'pt-BR', 'fr-FR'], 'fr'],
    // Traditional Chinese is not shown as Simplified: English, or the next language spoken.
    [['zh-TW'], 'en'],
    [['zh-Hant-HK', 'ja'], 'ja'],
    [['sr-Latn-RS'], 'en'],
    [[], 'en'],
    [[''], 'en'],
  ])('%j gives %s', (preferred, expected) => {
    expect(resolveLocale(preferred)).toBe(expected);
  });

  it('follows the system under "System", else the choice', () => {
    expect(effectiveLocale('system', 'de')).toBe('de');
    expect(effectiveLocale('ja', 'de')).toBe('ja');
    expect(effectiveLocale('en-XA', 'de')).toBe('en-XA');
  });

  it('names every language in itself', () => {
    expect(Object.keys(LANGUAGE_NAMES).sort()).toEqual([...LOCALES].sort());
    expect(LANGUAGE_NAMES.de).toBe('Deutsch');
    expect(LANGUAGE_NAMES['zh-CN']).toBe('简体中文');
  });
});
