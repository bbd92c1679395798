/**
 * Usage per model and per day, and what a conversation cost, at the person's prices: the 30-day
 * window starts at the person's midnight 29 days ago, each day keeps its models apart, and a
 * model without a price costs "unknown" (null), never 0.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatStore } from '../../../electron/main/services/chat/store';
import { conversationCost, usageReport } from '../../../electron/main/services/chat/usage';
import { openDatabase, type Db } from '../../../electron/main/services/database';

let db: Db;
let store: ChatStore;
let clock: Date;

/** Noon, local time, on 25 November 2026 (`now` of every report here). */
const NOW = new Date(2026, 10, 25, 12, 0, 0);
const local = (daysAgo: number, hours: number, minutes = 0) =>
  new Date(NOW.getFullYear(), NOW.getMonth(), NOW.getDate() - daysAgo, hours, minutes);
const dateOf = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  clock = NOW;
  store = await ChatStore.open(db, () => clock);
});
afterEach(() => db.close());

/** A finished reply of `model` at `at`, with its tokens. */
function spend(
  conversationId: string,
  model: string,
  at: Date,
  prompt: number,
  completion: number,
) {
  clock = at;
  const [, answer] = store.append(conversationId, [
    { role: 'user', content: 'q', status: 'complete' },
    { role: 'assistant', content: '', status: 'streaming', model },
  ]);
  store.saveReply(answer!.id, {
    content: 'a',
    status: 'complete',
    usage: { promptTokens: prompt, completionTokens: completion },
  });
}

const PRICES = {
  currency: 'EUR',
  prices: { priced: { inputPerMillion: 2, outputPerMillion: 10 } },
};

describe('the usage report', () => {
  it('covers the last 30 days, today included, from the first day’s midnight', () => {
    const { id } = store.create({ title: 'Spend', model: 'priced' });
    spend(id, 'priced', local(30, 23, 59), 1_000_000, 0); // the day before the window
    spend(id, 'priced', local(29, 0, 1), 100, 10); // the window's first minute
    spend(id, 'priced', local(0, 11), 200, 20); // today

    const report = usageReport(store, PRICES, 30, NOW);
    expect(report.days).toHaveLength(30);
    expect(report.days[0]!.date).toBe(dateOf(local(29, 12)));
    expect(report.days.at(-1)!.date).toBe(dateOf(NOW));
    expect(report.days[0]!.byModel).toEqual([
      { model: 'priced', replies: 1, promptTokens: 100, completionTokens: 10, cost: 0.0003 },
    ]);
    expect(report.days.slice(1, -1).every((day) => day.byModel.length === 0)).toBe(true);
    expect(report.byModel).toEqual([
      {
        model: 'priced',
        replies: 2,
        promptTokens: 300,
        completionTokens: 30,
        cost: expect.closeTo((300 * 2 + 30 * 10) / 1e6, 12) as number,
      },
    ]);
    expect(report.currency).toBe('EUR');
  });

  it('keeps each model apart on each day, most tokens first, and prices only the priced', () => {
    const one = store.create({ title: 'One', model: 'priced' }).id;
    const two = store.create({ title: 'Two', model: 'free-text' }).id;
    spend(one, 'priced', local(3, 9), 1000, 500);
    spend(two, 'unpriced', local(3, 10), 4000, 4000);
    spend(one, 'priced', local(3, 15), 1000, 500);
    spend(two, 'unpriced', local(1, 8), 10, 5);

    const report = usageReport(store, PRICES, 30, NOW);
    const day3 = report.days.find((day) => day.date === dateOf(local(3, 12)))!;
    expect(day3.byModel).toEqual([
      { model: 'priced', replies: 2, promptTokens: 2000, completionTokens: 1000, cost: 0.014 },
      { model: 'unpriced', replies: 1, promptTokens: 4000, completionTokens: 4000, cost: null },
    ]);
    const day1 = report.days.find((day) => day.date === dateOf(local(1, 12)))!;
    expect(day1.byModel).toEqual([
      { model: 'unpriced', replies: 1, promptTokens: 10, completionTokens: 5, cost: null },
    ]);
    expect(report.byModel.map((m) => [m.model, m.cost])).toEqual([
      ['unpriced', null],
      ['priced', 0.014],
    ]);
  });

  it('is empty, day by day, when nothing was asked', () => {
    const report = usageReport(store, PRICES, 7, NOW);
    expect(report.days.map((day) => day.byModel)).toEqual(Array.from({ length: 7 }, () => []));
    expect(report.byModel).toEqual([]);
  });
});

describe('a conversation’s cost', () => {
  it('is unknown (null) while no model of it has a price, and names the unpriced ones', () => {
    const { id } = store.create({ title: 'Mixed', model: 'priced' });
    spend(id, 'unpriced', local(0, 9), 100, 100);
    expect(conversationCost(store, PRICES, id)).toMatchObject({
      amount: null,
      currency: 'EUR',
      unpriced: ['unpriced'],
    });
    spend(id, 'priced', local(0, 10), 1_000_000, 100_000);
    expect(conversationCost(store, PRICES, id)).toMatchObject({
      amount: 3,
      unpriced: ['unpriced'],
    });
  });
});
