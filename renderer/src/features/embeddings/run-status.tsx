import { RelayFailure } from '../../components/relay-failure';
import { RetryNotice } from '../../components/retry-notice';
import { formatNumber } from '../../i18n/format';
import { useNamespace } from '../../i18n/use-namespace';
import type { PendingRetry } from '../../lib/load-state';
import { cancelRun, resumeRun } from './embeddings-actions';
import type { EmbeddingRun, RunError } from './embeddings-store';

/** A run on its way: how far it is, a countdown while the relay is asked again, and Cancel. */
export function RunProgress({
  runId,
  done,
  total,
  retry,
}: {
  runId: string;
  done: number;
  total: number;
  retry: PendingRetry | undefined;
}) {
  const t = useNamespace('embeddings');
  return (
    <section className="card run-progress" aria-label={t('embeddings.progress.label')}>
      <div className="run-progress-row">
        <progress max={total} value={done} aria-label={t('embeddings.progress.bar')} />
        <span role="status" aria-live="polite">
          {t('embeddings.progress.status', {
            done: formatNumber(done),
            total: formatNumber(total),
          })}
        </span>
        <button type="button" className="button" onClick={() => void cancelRun(runId)}>
          {t('embeddings.progress.cancel')}
        </button>
      </div>
      {retry && (
        <RetryNotice retry={retry} title={t('embeddings.progress.wait')} className="retry-notice" />
      )}
    </section>
  );
}

/** Why a run stopped early, with what can be done about it; finished batches are kept. */
export function RunFailure({
  run,
  error,
  consoleUrl,
}: {
  run: EmbeddingRun;
  error: RunError;
  consoleUrl: string | undefined;
}) {
  const t = useNamespace('embeddings');
  const kept =
    run.done > 0
      ? t('embeddings.failure.kept', {
          done: formatNumber(run.done),
          total: formatNumber(run.total),
        })
      : t('embeddings.failure.nothingKept');
  return (
    <RelayFailure
      failure={error}
      connection={{ name: t('embeddings.failure.relay'), consoleUrl }}
      retry={
        <button
          type="button"
          className="button button-primary"
          onClick={() => void resumeRun(run.id, run.total)}
        >
          {run.done > 0 ? t('embeddings.failure.retryRest') : t('embeddings.failure.retry')}
        </button>
      }
      balanceNote={
        <p>
          {t('embeddings.failure.balance')} {kept}
          {!consoleUrl && ` ${t('embeddings.failure.noConsole')}`}
        </p>
      }
    >
      <p>{kept}</p>
    </RelayFailure>
  );
}
