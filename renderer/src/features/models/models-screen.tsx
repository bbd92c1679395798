import { FailureNotice } from '../../components/failure-notice';
import { ReadFailure } from '../../components/read-failure';
import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { formatDate, formatNumber } from '../../i18n/format';
import { Message, useT } from '../../i18n/i18n';
import { failureOf, type FailureInfo } from '../../lib/errors';
import type { ConnectionSummary, Feature, ModelKind, RelayModel } from '../../lib/relay-bridge';
import { groupModels, KIND_TITLES, type ModelGroup } from './group-models';
import { ModelRow } from './model-row';
import {
  chooseModel,
  exportPriceList,
  importPriceList,
  loadModels,
  loadPrices,
  watchPrices,
  overrideImageInput,
  overrideModelKind,
  saveModelPrice,
  savePriceCurrency,
  watchRetries,
} from './models-actions';
import { ModelsFailure } from './models-failure';
import { useModelsStore } from './models-store';
import { RetryNotice } from '../../components/retry-notice';

function hostOf(address: string): string {
  try {
    return new URL(address).host;
  } catch {
    return address;
  }
}

function timeOf(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? undefined
    : formatDate(date, { hour: '2-digit', minute: '2-digit' });
}

/** The model picker: the active connection's models by kind, with search, refresh and overrides. */
export function ModelsScreen({ connection }: { connection: ConnectionSummary }) {
  const { status, refreshing, models, fetchedAt, failure, listFor } = useModelsStore(
    useShallow((state) => ({
      status: state.status,
      refreshing: state.refreshing,
      models: state.models,
      fetchedAt: state.fetchedAt,
      failure: state.failure,
      listFor: state.connectionId,
    })),
  );
  const query = useModelsStore((state) => state.query);
  const retry = useModelsStore((state) => state.retry);
  const queryChanged = useModelsStore((state) => state.queryChanged);
  const groups = useMemo(() => groupModels(models, query), [models, query]);
  const current = listFor === connection.id;
  const busy = status === 'loading' || refreshing;
  const t = useT();

  useEffect(() => {
    void loadModels(connection.id);
  }, [connection.id]);
  useEffect(() => watchRetries(), []);
  useEffect(() => void loadPrices(), []);
  useEffect(() => watchPrices(), []);

  const updated = current ? timeOf(fetchedAt) : undefined;

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{t('models.title')}</h1>
          <p className="page-lead">
            <Message
              id="models.from"
              values={{ name: connection.name, host: hostOf(connection.baseUrl) }}
              components={{ 0: <strong />, 1: <span className="muted" /> }}
            />
            {connection.isDemo && (
              <>
                {' '}
                <Badge tone="demo">{t('models.demo')}</Badge>
              </>
            )}
          </p>
        </div>
        <div className="page-header-actions">
          {updated && status === 'ready' && (
            <span className="muted small">
              <Message
                id="models.updated"
                values={{ time: updated }}
                components={{ 0: <time dateTime={fetchedAt} /> }}
              />
            </span>
          )}
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void loadModels(connection.id, true)}
          >
            {busy && <Spinner label={t('models.loading')} />}
            {t('models.refresh')}
          </button>
        </div>
      </header>

      {connection.isDemo && (
        <Notice tone="info" className="demo-notice">
          <p>{t('models.demoNotice')}</p>
        </Notice>
      )}

      {retry && busy && (
        <RetryNotice retry={retry} title={t('models.notAnsweredYet')} className="retry-notice" />
      )}

      <div className="search">
        <label className="visually-hidden" htmlFor="model-search">
          {t('models.search')}
        </label>
        <input
          id="model-search"
          className="input search-input"
          type="search"
          placeholder={t('models.search.placeholder')}
          value={query}
          onChange={(event) => queryChanged(event.target.value)}
          disabled={!current || status !== 'ready' || models.length === 0}
        />
      </div>

      {!current || status === 'idle' || status === 'loading' ? (
        <LoadingModels name={connection.name} />
      ) : status === 'failed' && failure ? (
        <ModelsFailure connection={connection} failure={failure} />
      ) : models.length === 0 ? (
        <EmptyState
          title={t('models.empty.title')}
          actions={
            <button
              type="button"
              className="button"
              onClick={() => void loadModels(connection.id, true)}
            >
              {t('models.refresh')}
            </button>
          }
        >
          <p>{t('models.empty.body', { name: connection.name })}</p>
        </EmptyState>
      ) : (
        <>
          {failure && <ModelsFailure connection={connection} failure={failure} />}
          <ModelGroups connectionId={connection.id} groups={groups} query={query} models={models} />
        </>
      )}
    </div>
  );
}

function LoadingModels({ name }: { name: string }) {
  const t = useT();
  return (
    <div className="models-loading" aria-busy="true">
      <p className="models-loading-text">
        <Spinner label={t('models.loading')} /> {t('models.asking', { name })}
      </p>
      <ul className="skeleton-list" aria-hidden="true">
        <li className="skeleton-row" />
        <li className="skeleton-row" />
        <li className="skeleton-row" />
      </ul>
    </div>
  );
}

const KIND_OF_FEATURE: Record<Feature, ModelKind> = {
  chat: 'chat',
  embeddings: 'embedding',
  images: 'image',
};

/**
 * The model each screen uses: the one chosen last if the relay still has it, else the relay's
 * first of its kind, as Chat, Embeddings and Images pick it when none was chosen yet.
 */
function effectiveChoices(
  saved: { [F in Feature]?: string | undefined },
  models: readonly RelayModel[],
): { [F in Feature]?: string | undefined } {
  const out: { [F in Feature]?: string | undefined } = {};
  for (const feature of Object.keys(KIND_OF_FEATURE) as Feature[]) {
    const ofKind = models.filter((m) => m.kind === KIND_OF_FEATURE[feature]);
    const last = saved[feature];
    out[feature] = last && ofKind.some((m) => m.id === last) ? last : ofKind[0]?.id;
  }
  return out;
}

function ModelGroups({
  connectionId,
  groups,
  query,
  models,
}: {
  connectionId: string;
  groups: ModelGroup[];
  query: string;
  /** Every model of the connection, in the relay's order. */
  models: readonly RelayModel[];
}) {
  const saved = useModelsStore(useShallow((state) => state.chosen));
  const chosen = effectiveChoices(saved, models);
  const prices = useModelsStore((state) => state.prices);
  const pricesFailure = useModelsStore((state) => state.pricesFailure);
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const matches = groups.reduce((sum, group) => sum + group.models.length, 0);
  const t = useT();

  async function attempt(action: () => Promise<void>) {
    setFailure(undefined);
    try {
      await action();
    } catch (error) {
      setFailure(failureOf(error));
    }
  }

  return (
    <>
      {failure && <FailureNotice title={t('models.changeNotSaved')} failure={failure} />}
      {pricesFailure && (
        <ReadFailure
          title={t('models.pricesUnreadable')}
          message={pricesFailure.message}
          onRetry={() => void loadPrices()}
        />
      )}
      {query.trim() !== '' && matches === 0 ? (
        <EmptyState title={t('models.noMatch.title', { query: query.trim() })}>
          <p>{t('models.noMatch.body')}</p>
        </EmptyState>
      ) : (
        <div className="model-groups">
          {groups.map((group) => {
            const headingId = `models-${group.kind}`;
            const filtered = group.models.length !== group.total;
            return (
              <section key={group.kind} className="model-group" aria-labelledby={headingId}>
                <header className="model-group-header">
                  <h2 className="model-group-title" id={headingId}>
                    {t(KIND_TITLES[group.kind])}
                  </h2>
                  <span className="count">
                    {filtered
                      ? t('models.group.count', {
                          shown: formatNumber(group.models.length),
                          total: formatNumber(group.total),
                        })
                      : formatNumber(group.total)}
                  </span>
                  <span className="model-group-hint">
                    {chosen[group.feature] ? (
                      <Message
                        id="models.group.default"
                        values={{ model: chosen[group.feature] ?? '' }}
                        components={{ 0: <code /> }}
                      />
                    ) : group.total > 0 ? (
                      t('models.group.pick')
                    ) : null}
                  </span>
                </header>
                {/* Over the chat models shown: none shown (a search), nothing to price. */}
                {group.kind === 'chat' && group.models.length > 0 && prices && (
                  <PricesBar
                    currency={prices.currency}
                    onAttempt={(action) => void attempt(action)}
                  />
                )}
                {group.total === 0 ? (
                  <p className="model-group-empty">
                    {t('models.group.none', { kind: group.kind })}
                  </p>
                ) : group.models.length === 0 ? (
                  <p className="model-group-empty">{t('models.group.noneMatch')}</p>
                ) : (
                  <fieldset className="model-fieldset">
                    <legend className="visually-hidden">
                      {t('models.group.legend', { kind: group.kind })}
                    </legend>
                    <ul className="model-list">
                      {group.models.map((model) => (
                        <ModelRow
                          key={model.id}
                          model={model}
                          feature={group.feature}
                          chosen={chosen[group.feature] === model.id}
                          onChoose={() => void attempt(() => chooseModel(group.feature, model.id))}
                          onKindChange={(kind) =>
                            attempt(() => overrideModelKind(connectionId, model.id, kind))
                          }
                          onImagesChange={
                            group.kind === 'chat'
                              ? (accepts) =>
                                  attempt(() => overrideImageInput(connectionId, model.id, accepts))
                              : undefined
                          }
                          pricing={
                            group.kind === 'chat' && prices
                              ? {
                                  price: Object.hasOwn(prices.prices, model.id)
                                    ? prices.prices[model.id]
                                    : undefined,
                                  currency: prices.currency,
                                  onSave: (price) => saveModelPrice(model.id, price),
                                }
                              : undefined
                          }
                        />
                      ))}
                    </ul>
                  </fieldset>
                )}
              </section>
            );
          })}
        </div>
      )}
    </>
  );
}

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'CAD', 'AUD', 'CHF', 'INR', 'KRW'];

/** The chat models' prices as a whole: their currency, and a price list to import or export. */
function PricesBar({
  currency,
  onAttempt,
}: {
  currency: string;
  onAttempt(action: () => Promise<void>): void;
}) {
  const choices = CURRENCIES.includes(currency) ? CURRENCIES : [currency, ...CURRENCIES];
  const t = useT();
  return (
    <div className="prices-bar">
      <p className="prices-bar-text">{t('models.prices.lead')}</p>
      <label className="prices-currency">
        <span>{t('models.prices.currency')}</span>
        <select
          className="select select-small"
          value={currency}
          onChange={(event) => onAttempt(() => savePriceCurrency(event.target.value))}
        >
          {choices.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="button button-small"
        onClick={() => onAttempt(importPriceList)}
      >
        {t('models.prices.import')}
      </button>
      <button
        type="button"
        className="button button-small"
        onClick={() => onAttempt(exportPriceList)}
      >
        {t('models.prices.export')}
      </button>
    </div>
  );
}
