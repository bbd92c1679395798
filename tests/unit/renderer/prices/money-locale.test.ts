/**
 * Costs and token counts follow the language the app shows, not the system's: a German page
 * writes 1.234,50 €, a French one 1 234,50 €, whatever the computer's own language.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../../renderer/src/i18n/i18n';
import { formatCost, formatTokens } from '../../../../renderer/src/lib/money';

function inLocale(locale: string) {
  i18n.load(locale, {});
  i18n.activate(locale);
}

afterEach(() => inLocale('en'));

describe('money in the language of the page', () => {
  it('writes costs and token counts as the language does', () => {
    inLocale('de');
    expect(formatCost(1234.5, 'EUR')).toBe('1.234,50\u00a0€');
    expect(formatCost(0.000123, 'USD')).toBe('0,00012\u00a0$');
    expect(formatTokens(12345)).toBe('12.345');
    inLocale('fr');
    expect(formatTokens(12345)).toBe('12\u202f345');
    inLocale('en');
    expect(formatCost(1234.5, 'USD')).toBe('$1,234.50');
  });
});
