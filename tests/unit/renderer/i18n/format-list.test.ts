import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../../renderer/src/i18n/i18n';
import { formatList } from '../../../../renderer/src/i18n/format';

function inLocale(locale: string) {
  i18n.load(locale, {});
  i18n.activate(locale);
}

afterEach(() => inLocale('en'));

describe('lists of names follow the language', () => {
  it('joins names as each language does, never with a hand-made "and"', () => {
    inLocale('en');
    expect(formatList(['a.png'])).toBe('a.png');
    expect(formatList(['a.png', 'b.png'])).toBe('a.png and b.png');
    inLocale('de');
    expect(formatList(['a.png', 'b.png', 'c.png'])).toBe('a.png, b.png und c.png');
    inLocale('fr');
    expect(formatList(['a.png', 'b.png'])).toBe('a.png et b.png');
    inLocale('zh-CN');
    expect(formatList(['a.png', 'b.png', 'c.png'])).toBe('a.png、b.png和c.png');
  });
});
