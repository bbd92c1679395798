/**
 * Reads the two price fields of a model as the person typed them. Checked here so each field says
 * what is wrong beside it before anything is sent; main checks the same rules again on its side.
 */

/** Mirrors MAX_PRICE_PER_MILLION of the contract (a type import cannot carry the value). */
export const MAX_PRICE = 100_000;

/** A model's price, as the contract's `ModelPrice`. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export type PriceFieldsResult =
  { ok: true; price: ModelPrice } | { ok: false; errors: { input?: string; output?: string } };

/** One field: a decimal number, 0 or more, at most MAX_PRICE; a comma may stand for the point. */
function readPrice(text: string, which: 'input' | 'output'): number | string {
  const trimmed = text.trim().replace(/^\$\s*/, '');
  if (trimmed === '') return `Enter the ${which} price (0 if it is free).`;
  const normalised = /^[+-]?\d*,\d+$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(normalised))
    return `The ${which} price must be a number, such as 2.50.`;
  const value = Number(normalised);
  if (!Number.isFinite(value)) return `The ${which} price must be a number, such as 2.50.`;
  if (value < 0) return 'A price cannot be negative.';
  if (value > MAX_PRICE) return `A price above ${MAX_PRICE} per million tokens is refused.`;
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
