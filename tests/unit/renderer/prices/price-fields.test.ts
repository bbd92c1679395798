import { beforeAll, describe, expect, it } from 'vitest';
import { readPriceFields } from '../../../../renderer/src/features/models/price-fields';
import { i18n } from '../../../../renderer/src/i18n/i18n';
import modelsDe from '../../../../renderer/src/i18n/messages/de/models.json';
import modelsEn from '../../../../renderer/src/i18n/messages/en/models.json';
import {
  costDecimals,
  formatCost,
  formatPrice,
  replyCost,
} from '../../../../renderer/src/lib/money';

describe('price fields', () => {
  // The Models screen's words, as its chunk loads them.
  beforeAll(() => i18n.load('en', modelsEn));

  it('reads decimal prices, with a comma or a dollar sign as people type them', () => {
    expect(readPriceFields('2.5', '10')).toEqual({
      ok: true,
      price: { inputPerMillion: 2.5, outputPerMillion: 10 },
    });
    expect(readPriceFields(' 0,15 ', '$0.6')).toEqual({
      ok: true,
      price: { inputPerMillion: 0.15, outputPerMillion: 0.6 },
    });
    expect(readPriceFields('0', '.5')).toEqual({
      ok: true,
      price: { inputPerMillion: 0, outputPerMillion: 0.5 },
    });
  });

  it('says what is wrong beside each field, and accepts nothing it cannot read whole', () => {
    expect(readPriceFields('', '3')).toEqual({
      ok: false,
      errors: { input: 'Enter the input price (0 if it is free).' },
    });
    expect(readPriceFields('-1', 'abc')).toEqual({
      ok: false,
      errors: {
        input: 'A price cannot be negative.',
        output: 'The output price must be a number, such as 2.50.',
      },
    });
    for (const bad of ['1.2.3', '2 5', '0x10', 'Infinity', 'NaN', '1e999', '3$'])
      expect(readPriceFields(bad, '1').ok, bad).toBe(false);
    expect(readPriceFields('100001', '1')).toEqual({
      ok: false,
      errors: { input: 'A price above 100000 per million tokens is refused.' },
    });
  });

  it('says what is wrong in the language shown', () => {
    i18n.load('de', modelsDe);
    i18n.activate('de');
    try {
      expect(readPriceFields('', 'abc')).toEqual({
        ok: false,
        errors: {
          input: 'Geben Sie den Eingabepreis ein (0, wenn kostenlos).',
          output: 'Der Ausgabepreis muss eine Zahl sein, etwa 2,50.',
        },
      });
    } finally {
      i18n.activate('en');
    }
  });
});

describe('money', () => {
  it('keeps two significant digits of a small cost rather than rounding it to zero', () => {
    expect(costDecimals(12.345)).toBe(2);
    expect(costDecimals(0.5)).toBe(2);
    expect(costDecimals(0.0123)).toBe(3);
    expect(costDecimals(0.000123)).toBe(5);
    expect(costDecimals(0)).toBe(2);
    expect(formatCost(0.000123, 'USD')).toMatch(/0\.00012/);
    expect(formatCost(1234.5, 'USD')).toMatch(/1,?234\.50/);
  });

  it('says unknown for a cost without a price, never a number', () => {
    expect(formatCost(null, 'USD')).toBe('unknown');
    expect(formatCost(undefined, 'EUR')).toBe('unknown');
    expect(formatCost(Number.NaN, 'EUR')).toBe('unknown');
  });

  it('shows an unknown currency code after the number', () => {
    expect(formatCost(2, 'XQQ')).toMatch(/2\.00/);
    expect(formatPrice(2.5, 'USD')).toMatch(/2\.50/);
    expect(formatPrice(0.075, 'USD')).toMatch(/0\.075/);
  });
});

describe('a reply’s cost', () => {
  const price = { inputPerMillion: 2, outputPerMillion: 10 };
  it('prices tokens sent and written apart, as main does', () => {
    expect(replyCost({ promptTokens: 1000, completionTokens: 500, totalTokens: 1500 }, price)).toBe(
      0.007,
    );
    // Only a total: what is not prompt was written.
    expect(replyCost({ promptTokens: 1000, totalTokens: 1500 }, price)).toBe(0.007);
    expect(replyCost({ totalTokens: 100 }, price)).toBe(0.001);
  });

  it('is unknown without a price or without tokens, never 0', () => {
    expect(replyCost({ promptTokens: 1000, completionTokens: 500 }, undefined)).toBeNull();
    expect(replyCost(undefined, price)).toBeNull();
    expect(replyCost({}, price)).toBeNull();
  });
});
