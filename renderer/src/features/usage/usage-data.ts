/**
 * The usage report shaped for the chart and its tables: one series per model (the six with the
 * most tokens, the rest together as "Other models"), one value per day, stacked.
 */

/** A model's usage on a day or over the period, as main reports it (`cost` null: no price). */
export interface ModelUsage {
  model: string;
  replies: number;
  promptTokens: number;
  completionTokens: number;
  cost: number | null;
}

export interface UsageReportLike {
  currency: string;
  days: Array<{ date: string; byModel: ModelUsage[] }>;
  byModel: ModelUsage[];
}

export type Metric = 'tokens' | 'cost';

/** Series drawn apart; the others are summed into one. */
export const MAX_SERIES = 6;
export const OTHER = 'Other models';

export interface Series {
  /** A model id, or OTHER. */
  label: string;
  /** The models it stands for. */
  models: string[];
  /** Per day: tokens, or cost (null where a model of it had tokens but no price). */
  values: Array<number | null>;
}

export interface ChartData {
  dates: string[];
  series: Series[];
  /** Per series, per day: the top of its bar, the series before it included (nulls as 0). */
  stacked: number[][];
}

const tokensOf = (u: ModelUsage) => u.promptTokens + u.completionTokens;

function valueOf(usages: ModelUsage[], metric: Metric): number | null {
  if (usages.length === 0) return 0;
  if (metric === 'tokens') return usages.reduce((sum, u) => sum + tokensOf(u), 0);
  let sum = 0;
  for (const u of usages) {
    if (u.cost === null) {
      if (tokensOf(u) > 0) return null;
    } else sum += u.cost;
  }
  return sum;
}

/** The series of `metric` for the report, models in the report's order (most tokens first). */
export function chartData(report: UsageReportLike, metric: Metric): ChartData {
  const models = report.byModel.map((u) => u.model);
  const shown = models.length > MAX_SERIES ? models.slice(0, MAX_SERIES - 1) : models;
  const rest = models.slice(shown.length);
  const groups = [
    ...shown.map((model) => ({ label: model, models: [model] })),
    ...(rest.length > 0 ? [{ label: OTHER, models: rest }] : []),
  ];
  const series: Series[] = groups.map((group) => ({
    ...group,
    values: report.days.map((day) =>
      valueOf(
        day.byModel.filter((u) => group.models.includes(u.model)),
        metric,
      ),
    ),
  }));
  const stacked: number[][] = [];
  series.forEach((s, index) => {
    stacked.push(
      s.values.map((v, day) => (index === 0 ? 0 : stacked[index - 1]![day]!) + (v ?? 0)),
    );
  });
  return { dates: report.days.map((d) => d.date), series, stacked };
}

/** Sums over the period: tokens, replies, and the cost of the priced models with the unpriced named. */
export function totals(report: UsageReportLike) {
  const priced = report.byModel.filter((u) => u.cost !== null);
  return {
    replies: report.byModel.reduce((sum, u) => sum + u.replies, 0),
    promptTokens: report.byModel.reduce((sum, u) => sum + u.promptTokens, 0),
    completionTokens: report.byModel.reduce((sum, u) => sum + u.completionTokens, 0),
    cost: priced.length === 0 ? null : priced.reduce((sum, u) => sum + u.cost!, 0),
    unpriced: report.byModel.filter((u) => u.cost === null && tokensOf(u) > 0).map((u) => u.model),
  };
}

/** Whether anything was used in the period. */
export function hasUsage(report: UsageReportLike): boolean {
  return report.byModel.some((u) => u.replies > 0 || tokensOf(u) > 0);
}
