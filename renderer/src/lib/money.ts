/**
 * Amounts of money as the app shows them: prices per million tokens and what replies cost. Costs
 * of single replies are often fractions of a cent, so small amounts keep two significant digits
 * (0.00012 $) instead of rounding to a misleading 0.00. Written in the app's language.
 */
import { formatNumber } from '../i18n/format';
import { t } from '../i18n/i18n';

/** How many decimals show `amount` with at least two significant digits (two for 1 and above). */
export function costDecimals(amount: number): number {
  if (!(amount > 0) || amount >= 1) return 2;
  return Math.min(8, Math.max(2, -Math.floor(Math.log10(amount)) + 1));
}

function format(amount: number, currency: string, decimals: number): string {
  try {
    return formatNumber(amount, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
  } catch {
    // A currency code Intl does not know: the number, then the code.
    const number = formatNumber(amount, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    return `${number} ${currency}`;
  }
}

/** What something cost, as "$0.0042"; `null` (no price known) reads "unknown". */
export function formatCost(amount: number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return t('cost.unknown');
  return format(amount, currency, costDecimals(amount));
}

/** A price per million tokens, as "$2.50" (up to 4 decimals for cheap models). */
export function formatPrice(perMillion: number, currency: string): string {
  const decimals = Number.isInteger(perMillion * 100)
    ? 2
    : Math.min(4, Math.max(2, String(perMillion).split('.')[1]?.length ?? 2));
  return format(perMillion, currency, decimals);
}

/** A token count with the locale's grouping: 12,345. */
export function formatTokens(tokens: number): string {
  return formatNumber(tokens);
}

/** A model's price per million tokens sent (input) and written (output). */
export interface TokenPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** Tokens as a reply reports them; any of the three may be missing. */
export interface TokenUsage {
  promptTokens?: number | undefined;
  completionTokens?: number | undefined;
  totalTokens?: number | undefined;
}

/**
 * What a reply cost at `price`, worked out as main does (a reply that gave only its total counts
 * what is not prompt as written); null when no tokens or no price are known.
 */
export function replyCost(
  usage: TokenUsage | undefined,
  price: TokenPrice | undefined,
): number | null {
  if (usage === undefined || price === undefined) return null;
  const { promptTokens, completionTokens, totalTokens } = usage;
  if (promptTokens === undefined && completionTokens === undefined && totalTokens === undefined)
    return null;
  const prompt = promptTokens ?? 0;
  const completion = completionTokens ?? Math.max(0, (totalTokens ?? prompt) - prompt);
  return (prompt * price.inputPerMillion + completion * price.outputPerMillion) / 1e6;
}
