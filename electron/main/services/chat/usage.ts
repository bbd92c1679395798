/**
 * Tokens and what they cost: a conversation's (every branch: each reply was paid for) and the
 * app's per model and per day. Costs are worked out at the prices entered now, never stored.
 */
import type { Cost, UsageByModel } from '../../../shared/ipc/routes/chat';
import type { PriceList } from '../../../shared/ipc/routes/models';
import { costAt } from '../models/price-book';
import type { ChatStore, ModelUsage } from './store';

function priced(usage: ModelUsage, prices: PriceList): UsageByModel {
  const price = Object.hasOwn(prices.prices, usage.model) ? prices.prices[usage.model] : undefined;
  return {
    model: usage.model,
    replies: usage.replies,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    cost: price === undefined ? null : costAt(price, usage.promptTokens, usage.completionTokens),
  };
}

/** The sum of the priced models, and the models that had usage but no price. */
function total(byModel: readonly UsageByModel[], currency: string): Cost {
  const pricedModels = byModel.filter((m) => m.cost !== null);
  return {
    amount: pricedModels.length === 0 ? null : pricedModels.reduce((s, m) => s + m.cost!, 0),
    currency,
    unpriced: byModel
      .filter((m) => m.cost === null && m.promptTokens + m.completionTokens > 0)
      .map((m) => m.model),
  };
}

export function conversationCost(
  store: ChatStore,
  prices: PriceList,
  conversationId: string,
): Cost & { byModel: UsageByModel[] } {
  const byModel = store.usageByModel(conversationId).map((u) => priced(u, prices));
  return { ...total(byModel, prices.currency), byModel };
}

/** `YYYY-MM-DD` of a date in this machine's time zone. */
function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Every day of the last `days` days (today included) with its usage per model, oldest first. */
export function usageReport(store: ChatStore, prices: PriceList, days: number, now = new Date()) {
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
  const rows = store.usageByDay(first);
  const byDate = new Map<string, UsageByModel[]>();
  const sums = new Map<string, ModelUsage>();
  for (const row of rows) {
    const list = byDate.get(row.date) ?? [];
    list.push(priced(row, prices));
    byDate.set(row.date, list);
    const sum = sums.get(row.model) ?? {
      model: row.model,
      replies: 0,
      promptTokens: 0,
      completionTokens: 0,
    };
    sum.replies += row.replies;
    sum.promptTokens += row.promptTokens;
    sum.completionTokens += row.completionTokens;
    sums.set(row.model, sum);
  }
  const out: Array<{ date: string; byModel: UsageByModel[] }> = [];
  for (let i = 0; i < days; i++) {
    const date = localDate(new Date(first.getFullYear(), first.getMonth(), first.getDate() + i));
    out.push({ date, byModel: byDate.get(date) ?? [] });
  }
  return {
    currency: prices.currency,
    days: out,
    byModel: [...sums.values()]
      .map((u) => priced(u, prices))
      .sort(
        (a, b) =>
          b.promptTokens + b.completionTokens - (a.promptTokens + a.completionTokens) ||
          a.model.localeCompare(b.model),
      ),
  };
}
