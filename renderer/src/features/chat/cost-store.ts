/**
 * The person's prices, as the chat shows costs with them: each reply's cost beside its tokens,
 * the conversation's total in its header and each compare column's cost. Read when the chat
 * opens (prices are changed on the Models screen, which the chat is not shown with).
 */
import { create } from 'zustand';
import { requireBridge, type ConversationCost, type PriceList } from '../../lib/relay-bridge';
import type { TokenPrice } from '../../lib/money';

interface CostState {
  prices?: PriceList | undefined;
  /** The open conversation's cost, every branch; for the conversation it names. */
  cost?: { conversationId: string; value: ConversationCost } | undefined;
  pricesLoaded(prices: PriceList): void;
  costLoaded(conversationId: string, value: ConversationCost): void;
}

export const useCostStore = create<CostState>()((set) => ({
  pricesLoaded: (prices) => set({ prices }),
  costLoaded: (conversationId, value) => set({ cost: { conversationId, value } }),
}));

/** The price of `model`, if the person entered one. */
export function priceOf(prices: PriceList | undefined, model: string | undefined) {
  if (!prices || model === undefined || !Object.hasOwn(prices.prices, model)) return undefined;
  return prices.prices[model] as TokenPrice;
}

export async function loadPrices(): Promise<void> {
  try {
    useCostStore.getState().pricesLoaded(await requireBridge().listPrices());
  } catch {
    // Without prices every cost reads "unknown", which is what is known.
  }
}

/** Takes the prices main sends when another computer changed them (sync). */
export function watchPrices(): () => void {
  return requireBridge().onPricesChanged((prices) => useCostStore.getState().pricesLoaded(prices));
}

let latest = 0;

/** Asks main what the conversation cost; only the newest answer is kept. */
export async function loadConversationCost(conversationId: string): Promise<void> {
  const request = ++latest;
  try {
    const value = await requireBridge().getConversationCost({ id: conversationId });
    if (request === latest) useCostStore.getState().costLoaded(conversationId, value);
  } catch {
    if (request === latest) useCostStore.setState({ cost: undefined });
  }
}
