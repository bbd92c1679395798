import { useEffect } from 'react';
import { formatList } from '../../i18n/format';
import { useT } from '../../i18n/i18n';
import { formatCost, replyCost, type TokenUsage } from '../../lib/money';
import { loadConversationCost, priceOf, useCostStore } from './cost-store';
import type { ConversationSummary } from './chat-types';

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
  const t = useT();
  const prices = useCostStore((s) => s.prices);
  if (!prices || Object.keys(prices.prices).length === 0 || usage === undefined) return null;
  const cost = replyCost(usage, priceOf(prices, model));
  if (cost === null)
    return (
      <span className="chat-cost chat-cost-unknown" title={t('chat.cost.noPrice')}>
        {t('chat.cost.unknown')}
      </span>
    );
  return (
    <span className="chat-cost" title={t('chat.cost.atPrice')}>
      {formatCost(cost, prices.currency)}
    </span>
  );
}

/**
 * The conversation's cost, every branch (each reply was paid for), for its header: shown once the
 * person uses prices. Its token count is the composer's to show (once, not twice).
 */
export function ConversationCostSummary({ conversation }: { conversation: ConversationSummary }) {
  const t = useT();
  const cost = useCostStore((s) =>
    s.cost?.conversationId === conversation.id ? s.cost.value : undefined,
  );
  const prices = useCostStore((s) => s.prices);
  const tokens = conversation.usage.totalTokens;
  const usesPrices = prices !== undefined && Object.keys(prices.prices).length > 0;
  useEffect(() => {
    if (tokens > 0 && usesPrices) void loadConversationCost(conversation.id);
  }, [conversation.id, tokens, prices, usesPrices]);
  if (tokens === 0 || !usesPrices) return null;

  const unpriced = cost?.unpriced ?? [];
  const amount =
    cost === undefined
      ? '…'
      : cost.amount === null
        ? t('chat.cost.unknown')
        : unpriced.length > 0
          ? t('chat.cost.plusUnknown', { cost: formatCost(cost.amount, cost.currency) })
          : formatCost(cost.amount, cost.currency);
  const title =
    unpriced.length > 0
      ? t('chat.cost.unpriced', { models: formatList(unpriced) })
      : t('chat.cost.everyReply');
  return (
    <p
      className="chat-header-cost"
      title={title}
      aria-label={t('chat.cost.summary', { count: tokens, amount })}
    >
      <span className="chat-header-cost-amount" data-known={cost?.amount != null || undefined}>
        {amount}
      </span>
    </p>
  );
}
