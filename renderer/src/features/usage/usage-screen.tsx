import { ReadFailure } from '../../components/read-failure';
import './usage.css';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { formatCost, formatTokens } from '../../lib/money';
import { requireBridge, type UsageReport } from '../../lib/relay-bridge';
import { chartData, hasUsage, totals, type Metric, type ModelUsage } from './usage-data';

/** The period shown: the last 30 days, today included. */
export const USAGE_DAYS = 30;

const UsageChart = lazy(() => import('./usage-chart'));

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

function dayName(date: string, style: 'short' | 'long' = 'short'): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y!, m! - 1, d!).toLocaleDateString(
    undefined,
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

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setReport(await requireBridge().getUsage({ days: USAGE_DAYS }));
      setFailure(undefined);
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const data = useMemo(() => (report ? chartData(report, metric) : undefined), [report, metric]);
  const sums = useMemo(() => (report ? totals(report) : undefined), [report]);
  const currency = report?.currency ?? 'USD';
  const format = useCallback(
    (value: number) => (metric === 'tokens' ? compact.format(value) : formatCost(value, currency)),
    [metric, currency],
  );

  const header = (
    <header className="page-header">
      <div>
        <h1 className="page-title">Usage</h1>
        <p className="page-lead">
          Tokens and cost of chat replies over the last {USAGE_DAYS} days, at the prices entered on
          the Models screen. Replies of deleted conversations count too.
        </p>
      </div>
      <div className="page-header-actions">
        <button type="button" className="button" disabled={loading} onClick={() => void load()}>
          {loading && <Spinner label="Loading usage" />}
          Refresh
        </button>
      </div>
    </header>
  );

  if (failure && !report)
    return (
      <div className="page">
        {header}
        <ReadFailure
          title="Usage could not be read"
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
          <Spinner label="Loading usage" /> Adding up the replies…
        </p>
      </div>
    );
  if (!hasUsage(report))
    return (
      <div className="page">
        {header}
        <EmptyState title={`No usage in the last ${USAGE_DAYS} days`}>
          <p>
            Each chat reply that reports its tokens is counted here, per model and per day. Send a
            message in Chat, then come back.
          </p>
        </EmptyState>
      </div>
    );

  const totalCost =
    sums.cost === null
      ? 'unknown'
      : sums.unpriced.length > 0
        ? `${formatCost(sums.cost, currency)} + unknown`
        : formatCost(sums.cost, currency);
  const chartLabel =
    `${metric === 'tokens' ? 'Tokens' : 'Cost'} per day over the last ${USAGE_DAYS} days, ` +
    `stacked by model: ${data.series.map((s) => s.label).join(', ')}. ` +
    `In total ${formatTokens(sums.promptTokens + sums.completionTokens)} tokens, cost ${totalCost}.`;
  const chosenDay = day === null ? undefined : report.days[day];

  return (
    <div className="page usage-page">
      {header}
      {failure && (
        <Notice tone="error" title="Usage could not be refreshed">
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
      <dl className="usage-totals">
        <div>
          <dt>Tokens</dt>
          <dd>{formatTokens(sums.promptTokens + sums.completionTokens)}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd data-unknown={sums.cost === null || undefined}>{totalCost}</dd>
        </div>
        <div>
          <dt>Replies</dt>
          <dd>{formatTokens(sums.replies)}</dd>
        </div>
      </dl>
      {sums.unpriced.length > 0 && (
        <Notice
          tone="info"
          title="Some models have no price"
          actions={
            <button type="button" className="button button-small" onClick={onModels}>
              Enter prices
            </button>
          }
        >
          <p>
            The cost of {sums.unpriced.join(', ')} is unknown until you enter{' '}
            {sums.unpriced.length === 1 ? 'its price' : 'their prices'} on the Models screen.
          </p>
        </Notice>
      )}

      <section className="usage-card" aria-labelledby={`${id}-chart`}>
        <header className="usage-card-header">
          <h2 className="usage-card-title" id={`${id}-chart`}>
            Per day
          </h2>
          <fieldset className="usage-metric">
            <legend className="visually-hidden">Show</legend>
            {(['tokens', 'cost'] as const).map((m) => (
              <label key={m} className="usage-metric-option">
                <input
                  type="radio"
                  name={`${id}-metric`}
                  checked={metric === m}
                  onChange={() => setMetric(m)}
                />
                {m === 'tokens' ? 'Tokens' : 'Cost'}
              </label>
            ))}
          </fieldset>
        </header>
        <ul className="usage-legend" aria-label="Models">
          {data.series.map((s, index) => (
            <li key={s.label}>
              <span
                className="usage-swatch"
                data-series={s.label === 'Other models' ? 'other' : index + 1}
                aria-hidden="true"
              />
              {s.label}
            </li>
          ))}
        </ul>
        <Suspense
          fallback={
            <div className="usage-chart usage-chart-loading">
              <Spinner label="Loading the chart" />
            </div>
          }
        >
          <UsageChart
            data={data}
            metric={metric}
            format={format}
            onDay={setDay}
            label={chartLabel}
            describedBy={`${id}-day`}
          />
        </Suspense>
        <p className="usage-day" id={`${id}-day`} aria-live="polite">
          {chosenDay ? (
            <>
              <strong>{dayName(chosenDay.date, 'long')}:</strong>{' '}
              {chosenDay.byModel.length === 0
                ? 'nothing used.'
                : chosenDay.byModel
                    .map(
                      (u) =>
                        `${u.model} ${formatTokens(tokensOf(u))} tokens, ${formatCost(u.cost, currency)}`,
                    )
                    .join('; ')}
            </>
          ) : (
            'Point at a day, or focus the chart and use the arrow keys, to read its figures.'
          )}
        </p>
      </section>

      <section className="usage-card" aria-labelledby={`${id}-models`}>
        <header className="usage-card-header">
          <h2 className="usage-card-title" id={`${id}-models`}>
            Per model
          </h2>
        </header>
        <div className="usage-table-wrap">
          <table className="usage-table">
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Replies</th>
                <th scope="col">Input tokens</th>
                <th scope="col">Output tokens</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {report.byModel.map((u) => (
                <tr key={u.model}>
                  <th scope="row">{u.model || 'Unknown model'}</th>
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
        <summary className="usage-card-title">Per day and model, as a table</summary>
        <div className="usage-table-wrap">
          <table className="usage-table">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="usage-text">
                  Model
                </th>
                <th scope="col">Replies</th>
                <th scope="col">Tokens</th>
                <th scope="col">Cost</th>
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
                      <td className="usage-text">{u.model || 'Unknown model'}</td>
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
