import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../../renderer/src/i18n/i18n';
import {
  formatDuration,
  formatFileSize,
  formatList,
  formatNumber,
  formatRelativeTime,
} from '../../../../renderer/src/i18n/format';

function inLocale(locale: string) {
  i18n.load(locale, {});
  i18n.activate(locale);
}

afterEach(() => inLocale('en'));

describe('numbers, sizes, times and durations follow the language', () => {
  it('writes numbers as each language does', () => {
    inLocale('en');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    inLocale('de');
    expect(formatNumber(1234.5)).toBe('1.234,5');
    inLocale('fr');
    expect(formatNumber(1234.5)).toBe('1\u202f234,5');
  });

  it('writes file sizes in the unit that suits them', () => {
    inLocale('en');
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(1_500_000)).toBe('1.5 MB');
    expect(formatFileSize(2_000)).toBe('2 kB');
    inLocale('de');
    expect(formatFileSize(1_500_000)).toBe('1,5 MB');
    inLocale('fr');
    expect(formatFileSize(1_500_000)).toBe('1,5\u202fMo');
  });

  it('counts bytes in words, singular and plural, in every language (never "117 byte")', () => {
    const expected: Record<string, [string, string]> = {
      en: ['1 byte', '117 bytes'],
      de: ['1\u00a0Byte', '117 Byte'],
      es: ['1 byte', '117 bytes'],
      fr: ['1\u00a0octet', '117\u00a0octets'],
      ja: ['1 バイト', '117 バイト'],
      'zh-CN': ['1字节', '117字节'],
    };
    for (const [locale, [one, many]] of Object.entries(expected)) {
      inLocale(locale);
      expect([formatFileSize(1), formatFileSize(117)], locale).toEqual([one, many]);
    }
  });

  it('says how long ago, in words the language uses', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    inLocale('en');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(formatRelativeTime(now - 60 * 60_000, now)).toBe('1 hour ago');
    expect(formatRelativeTime(now - 24 * 3_600_000, now)).toBe('yesterday');
    inLocale('de');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('vor 5 Minuten');
    inLocale('ja');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 分前');
  });

  it('writes durations with the language’s units', () => {
    inLocale('en');
    expect(formatDuration(45_000)).toBe('45 sec');
    expect(formatDuration(125_000)).toBe('2 min 5 sec');
    expect(formatDuration(3_780_000)).toBe('1 hr 3 min');
    inLocale('de');
    expect(formatDuration(125_000)).toBe('2 Min., 5 Sek.');
  });

  it('lists names as the language joins them', () => {
    inLocale('en');
    expect(formatList(['m1', 'm2', 'm3'])).toBe('m1, m2, and m3');
    expect(formatList(['m1'])).toBe('m1');
    inLocale('de');
    expect(formatList(['m1', 'm2', 'm3'])).toBe('m1, m2 und m3');
    inLocale('zh-CN');
    expect(formatList(['m1', 'm2', 'm3'])).toBe('m1、m2和m3');
  });
});
