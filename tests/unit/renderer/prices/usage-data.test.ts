import { describe, expect, it } from 'vitest';
import {
  chartData,
  hasUsage,
  OTHER,
  totals,
  type ModelUsage,
} from '../../../../renderer/src/features/usage/usage-data';

const use = (model: string, tokens: number, cost: number | null): ModelUsage => ({
  model,
  replies: 1,
  promptTokens: tokens / 2,
  completionTokens: tokens / 2,
  cost,
});

const report = {
  currency: 'USD',
  days: [
    { date: '2026-11-23', byModel: [use('a', 100, 0.5), use('b', 40, null)] },
    { date: '2026-11-24', byModel: [] },
    { date: '2026-11-25', byModel: [use('a', 10, 0.1)] },
  ],
  byModel: [use('a', 110, 0.6), use('b', 40, null)],
};

describe('the usage chart’s data', () => {
  it('stacks the models of each day, in the report’s order', () => {
    const tokens = chartData(report, 'tokens');
    expect(tokens.dates).toEqual(['2026-11-23', '2026-11-24', '2026-11-25']);
    expect(tokens.series.map((s) => [s.label, s.values])).toEqual([
      ['a', [100, 0, 10]],
      ['b', [40, 0, 0]],
    ]);
    expect(tokens.stacked).toEqual([
      [100, 0, 10],
      [140, 0, 10],
    ]);
  });

  it('gives a day’s cost of an unpriced model as unknown (null), drawn as nothing', () => {
    const cost = chartData(report, 'cost');
    expect(cost.series[1]!.values).toEqual([null, 0, 0]);
    expect(cost.stacked[1]).toEqual([0.5, 0, 0.1]);
  });

  it('draws six series at most: the rest together as other models', () => {
    const many = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8'].map((m, i) =>
      use(m, 80 - i * 2, 1),
    );
    const data = chartData(
      { currency: 'USD', days: [{ date: '2026-11-25', byModel: many }], byModel: many },
      'tokens',
    );
    expect(data.series.map((s) => s.label)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', OTHER]);
    expect(data.series[5]!.models).toEqual(['m6', 'm7', 'm8']);
    expect(data.series[5]!.values).toEqual([70 + 68 + 66]);
  });

  it('totals the period, naming the models without a price', () => {
    expect(totals(report)).toEqual({
      replies: 2,
      promptTokens: 75,
      completionTokens: 75,
      cost: 0.6,
      unpriced: ['b'],
    });
    expect(hasUsage(report)).toBe(true);
    expect(hasUsage({ ...report, byModel: [] })).toBe(false);
  });
});
