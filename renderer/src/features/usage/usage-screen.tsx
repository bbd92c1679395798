import { FailureNotice } from '../../components/failure-notice';
import { ReadFailure } from '../../components/read-failure';
import './usage.css';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { formatDate, formatList, formatNumber } from '../../i18n/format';
import { i18n, useT } from '../../i18n/i18n';
import { type FailureInfo } from '../../lib/errors';
import { formatCost, formatTokens } from '../../lib/money';
import type { UsageReport } from '../../lib/relay-bridge';
import { loadUsage, USAGE_DAYS, watchPrices } from './usage-actions';
import { chartData, hasUsage, OTHER, totals, type Metric, type ModelUsage } from './usage-data';

export { USAGE_DAYS };

const UsageChart = lazy(() => import('./usage-chart'));

const METRICS: readonly Metric[] = ['tokens', 'cost'];

const compact = (value: number) =>
  formatNumber(value, { notation: 'compact', maximumFractionDigits: 1 });

/** A day of the report ("2026-11-25", the computer's own day) in the app's language. */
function dayName(date: string, style: 'short' | 'long' = 'short'): string {
  const [y, m, d] = date.split('-').map(Number);
  return formatDate(
    new Date(y!, m! - 1, d!),
    style === 'long'
      ? { weekday: 'long', month: 'long', day: 'numeric' }
      : { month: 'short', day: 'numeric' },
  );
}

const tokensOf = (u: ModelUsage) => u.promptTokens + u.completionTokens;

/** Tokens and cost per model and per day over the last 30 days, as a chart and as tables. */
export function UsageScreen({ onModels }: { onModels(): void }) {
  const [report, setReport] = useState<UsageReport | undefined>();
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [loading, setLoading] = useState(true);
  const [metric, setMetric] = useState<Metric>('tokens');
  const [day, setDay] = useState<number | null>(null);
  const id = useId();
  const t = useT();
  const locale = i18n.locale;

  const load = useCallback(async () => {
    setLoading(true);
    const outcome = await loadUsage();
    if (outcome.ok) {
      setReport(outcome.value);
      setFailure(undefined);
    } else {
      setFailure(outcome.failure);
    }
    setLoading(false);
  }, []);
  useEffect(() => void load(), [load]);
  useEffect(() => watchPrices(() => void load()), [load]);

  const data = useMemo(() => (report ? chartData(report, metric) : undefined), [report, metric]);
  const sums = useMemo(() => (report ? totals(report) : undefined), [report]);
  const currency = report?.currency ?? 'USD';
  const format = useCallback(
    (value: number) => (metric === 'tokens' ? compact(value) : formatCost(value, currency)),
    // The language too: the chart's axis is written again in a new one.
    [metric, currency, locale],
  );

  const header = (
    <header className="page-header">
      <div>
        <h1 className="page-title">{t('usage.title')}</h1>
        <p className="page-lead">{t('usage.lead', { days: USAGE_DAYS })}</p>
      </div>
      <div className="page-header-actions">
        <button type="button" className="button" disabled={loading} onClick={() => void load()}>
          {loading && <Spinner label={t('usage.loading')} />}
          {t('usage.refresh')}
        </button>
      </div>
    </header>
  );

  if (failure && !report)
    return (
      <div className="page">
        {header}
        <ReadFailure
          title={t('usage.unreadable')}
          message={failure.message}
          onRetry={() => void load()}
        />
      </div>
    );
  if (!report || !data || !sums)
    return (
      <div className="page" aria-busy="true">
        {header}
        <p className="muted">
          <Spinner label={t('usage.loading')} /> {t('usage.addingUp')}
        </p>
      </div>
    );
  if (!hasUsage(report))
    return (
      <div className="page">
        {header}
        <EmptyState title={t('usage.empty.title', { days: USAGE_DAYS })}>
          <p>{t('usage.empty.body')}</p>
        </EmptyState>
      </div>
    );

  const seriesName = (label: string) => (label === OTHER ? t('usage.otherModels') : label);
  const totalCost =
    sums.cost === null
      ? formatCost(null, currency)
      : sums.unpriced.length > 0
        ? t('usage.costPlusUnknown', { cost: formatCost(sums.cost, currency) })
        : formatCost(sums.cost, currency);
  const chartLabel = t('usage.chart.label', {
    metric,
    days: USAGE_DAYS,
    models: formatList(data.series.map((s) => seriesName(s.label))),
    tokens: sums.promptTokens + sums.completionTokens,
    cost: totalCost,
  });
  const chosenDay = day === null ? undefined : report.days[day];

  return (
    <div className="page usage-page">
      {header}
      {failure && <FailureNotice title={t('usage.notRefreshed')} failure={failure} />}
      <dl className="usage-totals">
        <div>
          <dt>{t('usage.tokens')}</dt>
          <dd>{formatTokens(sums.promptTokens + sums.completionTokens)}</dd>
        </div>
        <div>
          <dt>{t('usage.cost')}</dt>
          <dd data-unknown={sums.cost === null || undefined}>{totalCost}</dd>
        </div>
        <div>
          <dt>{t('usage.replies')}</dt>
          <dd>{formatTokens(sums.replies)}</dd>
        </div>
      </dl>
      {sums.unpriced.length > 0 && (
        <Notice
          tone="info"
          title={t('usage.unpriced.title')}
          actions={
            <button type="button" className="button button-small" onClick={onModels}>
              {t('usage.unpriced.action')}
            </button>
          }
        >
          <p>
            {t('usage.unpriced.body', {
              models: formatList(sums.unpriced),
              count: sums.unpriced.length,
            })}
          </p>
        </Notice>
      )}

      <section className="usage-card" aria-labelledby={`${id}-chart`}>
        <header className="usage-card-header">
          <h2 className="usage-card-title" id={`${id}-chart`}>
            {t('usage.perDay')}
          </h2>
          <fieldset className="usage-metric">
            <legend className="visually-hidden">{t('usage.show')}</legend>
            {METRICS.map((m) => (
              <label key={m} className="usage-metric-option">
                <input
                  type="radio"
                  name={`${id}-metric`}
                  checked={metric === m}
                  onChange={() => setMetric(m)}
                />
                {m === 'tokens' ? t('usage.tokens') : t('usage.cost')}
              </label>
            ))}
          </fieldset>
        </header>
        <ul className="usage-legend" aria-label={t('usage.legend')}>
          {data.series.map((s, index) => (
            <li key={s.label}>
              <span
                className="usage-swatch"
                data-series={s.label === OTHER ? 'other' : index + 1}
                aria-hidden="true"
              />
              {seriesName(s.label)}
            </li>
          ))}
        </ul>
        <Suspense
          fallback={
            <div className="usage-chart usage-chart-loading">
              <Spinner label={t('usage.chart.loading')} />
            </div>
          }
        >
          <UsageChart
            data={data}
            metric={metric}
            format={format}
            onDay={setDay}
            label={chartLabel}
            otherLabel={t('usage.otherModels')}
            describedBy={`${id}-day`}
          />
        </Suspense>
        <p className="usage-day" id={`${id}-day`} aria-live="polite">
          {chosenDay ? (
            <>
              <strong>{t('usage.day', { day: dayName(chosenDay.date, 'long') })}</strong>{' '}
              {chosenDay.byModel.length === 0
                ? t('usage.day.nothing')
                : chosenDay.byModel
                    .map((u) =>
                      t('usage.day.model', {
                        model: u.model,
                        tokens: tokensOf(u),
                        cost: formatCost(u.cost, currency),
                      }),
                    )
                    .join(t('usage.day.separator'))}
            </>
          ) : (
            t('usage.day.hint')
          )}
        </p>
      </section>

      <section className="usage-card" aria-labelledby={`${id}-models`}>
        <header className="usage-card-header">
          <h2 className="usage-card-title" id={`${id}-models`}>
            {t('usage.perModel')}
          </h2>
        </header>
        <div className="usage-table-wrap">
          <table className="usage-table">
            <thead>
              <tr>
                <th scope="col">{t('usage.column.model')}</th>
                <th scope="col">{t('usage.column.replies')}</th>
                <th scope="col">{t('usage.column.input')}</th>
                <th scope="col">{t('usage.column.output')}</th>
                <th scope="col">{t('usage.column.cost')}</th>
              </tr>
            </thead>
            <tbody>
              {report.byModel.map((u) => (
                <tr key={u.model}>
                  <th scope="row">{u.model || t('usage.unknownModel')}</th>
                  <td>{formatTokens(u.replies)}</td>
                  <td>{formatTokens(u.promptTokens)}</td>
                  <td>{formatTokens(u.completionTokens)}</td>
                  <td data-unknown={u.cost === null || undefined}>
                    {formatCost(u.cost, currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <details className="usage-card usage-details">
        <summary className="usage-card-title">{t('usage.table')}</summary>
        <div className="usage-table-wrap">
          <table className="usage-table">
            <thead>
              <tr>
                <th scope="col">{t('usage.column.day')}</th>
                <th scope="col" className="usage-text">
                  {t('usage.column.model')}
                </th>
                <th scope="col">{t('usage.column.replies')}</th>
                <th scope="col">{t('usage.column.tokens')}</th>
                <th scope="col">{t('usage.column.cost')}</th>
              </tr>
            </thead>
            <tbody>
              {report.days
                .filter((d) => d.byModel.length > 0)
                .reverse()
                .flatMap((d) =>
                  d.byModel.map((u) => (
                    <tr key={`${d.date}-${u.model}`}>
                      <th scope="row">{dayName(d.date)}</th>
                      <td className="usage-text">{u.model || t('usage.unknownModel')}</td>
                      <td>{formatTokens(u.replies)}</td>
                      <td>{formatTokens(tokensOf(u))}</td>
                      <td data-unknown={u.cost === null || undefined}>
                        {formatCost(u.cost, currency)}
                      </td>
                    </tr>
                  )),
                )}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
