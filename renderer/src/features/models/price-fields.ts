/**
 * Reads the two price fields of a model as the person typed them. Checked here so each field says
 * what is wrong beside it before anything is sent; main checks the same rules again on its side.
 * What is wrong is said in the app's language at the moment the fields are read.
 */
import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { MAX_PRICE_PER_MILLION } from '../../../../electron/shared/limits';

/** A model's price, as the contract's `ModelPrice`. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export type PriceFieldsResult =
  { ok: true; price: ModelPrice } | { ok: false; errors: { input?: string; output?: string } };

/** One field: a decimal number, 0 or more, at most MAX_PRICE_PER_MILLION; a comma may stand for the point. */
function readPrice(text: string, which: 'input' | 'output'): number | string {
  const trimmed = text.trim().replace(/^\$\s*/, '');
  if (trimmed === '') return t('models.price.missing', { which });
  const normalised = /^[+-]?\d*,\d+$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(normalised))
    return t('models.price.notNumber', { which });
  const value = Number(normalised);
  if (!Number.isFinite(value)) return t('models.price.notNumber', { which });
  if (value < 0) return t('models.price.negative');
  if (value > MAX_PRICE_PER_MILLION)
    return t('models.price.tooHigh', {
      max: formatNumber(MAX_PRICE_PER_MILLION, { useGrouping: false }),
    });
  return value;
}

export function readPriceFields(input: string, output: string): PriceFieldsResult {
  const inputPrice = readPrice(input, 'input');
  const outputPrice = readPrice(output, 'output');
  if (typeof inputPrice === 'number' && typeof outputPrice === 'number')
    return { ok: true, price: { inputPerMillion: inputPrice, outputPerMillion: outputPrice } };
  const errors: { input?: string; output?: string } = {};
  if (typeof inputPrice === 'string') errors.input = inputPrice;
  if (typeof outputPrice === 'string') errors.output = outputPrice;
  return { ok: false, errors };
}
