import { useEffect, useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { formatNumber } from '../../i18n/format';
import { useNamespace } from '../../i18n/use-namespace';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import {
  chooseModel,
  exportRun,
  loadEmbeddingModels,
  loadRuns,
  watchRuns,
} from './embeddings-actions';
import { useEmbeddingsStore } from './embeddings-store';
import { InputPanel } from './input-panel';
import { NearestPanel } from './nearest-panel';
import { PcaScatter } from './pca-scatter';
import { ResultsTable } from './results-table';
import { RunFailure, RunProgress } from './run-status';
import { RunsList } from './runs-list';
import { SimilarityHeatmap } from './similarity-heatmap';
import './embeddings.css';

/** The embeddings playground: texts in, vectors out, and pictures of what they say. */
export function EmbeddingsScreen({ connection }: { connection: ConnectionSummary }) {
  const t = useNamespace('embeddings');
  const pickerId = useId();
  const state = useEmbeddingsStore(
    useShallow((s) => ({
      models: s.models,
      model: s.model,
      modelsFailure: s.modelsFailure,
      run: s.run,
      progress: s.progress,
      retry: s.retry,
      startFailure: s.startFailure,
      analysisStatus: s.analysisStatus,
      analysis: s.analysis,
      analysisFailure: s.analysisFailure,
      note: s.note,
    })),
  );

  useEffect(() => {
    void loadEmbeddingModels();
    void loadRuns();
    return watchRuns();
  }, [connection.id]);

  const { run, progress, analysis } = state;
  const running = progress !== undefined;
  const pictured = run !== undefined && analysis !== undefined && analysis.runId === run.id;

  return (
    <div className="page embeddings-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{t('embeddings.title')}</h1>
          <p className="page-lead">{t('embeddings.lead')}</p>
        </div>
        <div className="page-header-actions">
          <label className="field-label" htmlFor={pickerId}>
            {t('embeddings.model')}
          </label>
          <select
            id={pickerId}
            className="select"
            value={state.model ?? ''}
            disabled={state.models.length === 0}
            onChange={(e) => chooseModel(e.target.value)}
          >
            {state.models.length === 0 && <option value="">{t('embeddings.model.none')}</option>}
            {state.models.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </div>
      </header>

      {state.modelsFailure && (
        <Notice
          tone="error"
          title={t('embeddings.models.failed')}
          actions={
            <button type="button" className="button" onClick={() => void loadEmbeddingModels(true)}>
              {t('embeddings.tryAgain')}
            </button>
          }
        >
          <p className="failure-message">{state.modelsFailure.message}</p>
        </Notice>
      )}
      {!state.modelsFailure && state.models.length === 0 && (
        <Notice tone="info" title={t('embeddings.models.empty.title')}>
          <p>{t('embeddings.models.empty.body')}</p>
        </Notice>
      )}

      <div className="embeddings-layout">
        <div className="embeddings-main">
          <InputPanel busy={running} />
          {state.startFailure && (
            <Notice tone="error" title={t('embeddings.start.failed')}>
              <p className="failure-message">{state.startFailure.message}</p>
            </Notice>
          )}
          {progress && (
            <RunProgress
              runId={progress.runId}
              done={progress.done}
              total={progress.total}
              retry={state.retry}
            />
          )}
          {run && !running && run.error && run.status === 'failed' && (
            <RunFailure run={run} error={run.error} consoleUrl={connection.consoleUrl} />
          )}
          {run && !running && run.status === 'cancelled' && (
            <Notice tone="info" title={t('embeddings.cancelled.title')}>
              <p>
                {t('embeddings.cancelled.body', {
                  done: formatNumber(run.done),
                  total: run.total,
                })}
              </p>
            </Notice>
          )}
          {run && (
            <div className="embeddings-run-actions">
              <button
                type="button"
                className="button"
                onClick={() => void exportRun(run.id, 'json')}
              >
                {t('embeddings.export.json')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => void exportRun(run.id, 'csv')}
              >
                {t('embeddings.export.csv')}
              </button>
              <span className="muted small" role="status">
                {state.note}
              </span>
            </div>
          )}
          {run && <ResultsTable run={run} />}
          {run && state.analysisStatus === 'working' && (
            <p className="muted" role="status">
              <Spinner label={t('embeddings.working.label')} /> {t('embeddings.working')}
            </p>
          )}
          {state.analysisStatus === 'failed' && (
            <Notice tone="error" title={t('embeddings.pictures.failed')}>
              <p className="failure-message">{state.analysisFailure}</p>
            </Notice>
          )}
          {pictured && <NearestPanel />}
          {!run && !running && (
            <EmptyState title={t('embeddings.empty.title')}>
              <p>{t('embeddings.empty.body')}</p>
            </EmptyState>
          )}
        </div>
        {pictured && (
          <div className="embeddings-pictures">
            <SimilarityHeatmap run={run} analysis={analysis} />
            <PcaScatter run={run} analysis={analysis} />
          </div>
        )}
        <aside className="embeddings-aside">
          <RunsList />
        </aside>
      </div>
    </div>
  );
}
