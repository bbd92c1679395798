import { useEffect } from 'react';
import { formatCost, formatTokens, replyCost, type TokenUsage } from '../../lib/money';
import { loadConversationCost, priceOf, useCostStore } from './cost-store';
import type { ConversationSummary } from './chat-types';

const NO_PRICE = 'No price is entered for this model: set one on the Models screen.';

/**
 * What one reply cost, beside its tokens: shown once the person uses prices (entered at least
 * one); "cost unknown" for a model without a price rather than a guess.
 */
export function ReplyCost({
  model,
  usage,
}: {
  model: string | undefined;
  usage: TokenUsage | undefined;
}) {
  const prices = useCostStore((s) => s.prices);
  if (!prices || Object.keys(prices.prices).length === 0 || usage === undefined) return null;
  const cost = replyCost(usage, priceOf(prices, model));
  if (cost === null)
    return (
      <span className="chat-cost chat-cost-unknown" title={NO_PRICE}>
        cost unknown
      </span>
    );
  return (
    <span className="chat-cost" title="At the price entered on the Models screen">
      {formatCost(cost, prices.currency)}
    </span>
  );
}

/** The conversation's tokens and cost, every branch (each reply was paid for), for its header. */
export function ConversationCostSummary({ conversation }: { conversation: ConversationSummary }) {
  const cost = useCostStore((s) =>
    s.cost?.conversationId === conversation.id ? s.cost.value : undefined,
  );
  const prices = useCostStore((s) => s.prices);
  const tokens = conversation.usage.totalTokens;
  useEffect(() => {
    if (tokens > 0) void loadConversationCost(conversation.id);
  }, [conversation.id, tokens, prices]);
  if (tokens === 0) return null;

  const unpriced = cost?.unpriced ?? [];
  const amount =
    cost === undefined
      ? '…'
      : cost.amount === null
        ? 'cost unknown'
        : unpriced.length > 0
          ? `${formatCost(cost.amount, cost.currency)} + unknown`
          : formatCost(cost.amount, cost.currency);
  const title =
    unpriced.length > 0
      ? `No price entered for ${unpriced.join(', ')}: set one on the Models screen.`
      : 'Every reply of every version, at the prices entered on the Models screen';
  return (
    <p
      className="chat-header-cost"
      title={title}
      aria-label={`This conversation: ${formatTokens(tokens)} tokens, ${amount}`}
    >
      <span>{formatTokens(tokens)} tokens</span>
      <span className="chat-header-cost-amount" data-known={cost?.amount != null || undefined}>
        {amount}
      </span>
    </p>
  );
}
