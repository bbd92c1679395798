import { RelayFailure } from '../../components/relay-failure';
import { RetryNotice } from '../../components/retry-notice';
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
  return (
    <section className="card run-progress" aria-label="Embedding in progress">
      <div className="run-progress-row">
        <progress max={total} value={done} aria-label="Inputs embedded" />
        <span role="status" aria-live="polite">
          {done} of {total} embedded
        </span>
        <button type="button" className="button" onClick={() => void cancelRun(runId)}>
          Cancel
        </button>
      </div>
      {retry && (
        <RetryNotice retry={retry} title="The relay asked us to wait" className="retry-notice" />
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
  const kept =
    run.done > 0
      ? `The ${run.done} of ${run.total} inputs embedded before it stopped were kept.`
      : 'Nothing was embedded before it stopped.';
  return (
    <RelayFailure
      failure={error}
      connection={{ name: 'The relay', consoleUrl }}
      retry={
        <button
          type="button"
          className="button button-primary"
          onClick={() => void resumeRun(run.id, run.total)}
        >
          {run.done > 0 ? 'Retry the rest' : 'Retry'}
        </button>
      }
      balanceNote={
        <p>
          The relay refused to go on until the balance is topped up. {kept}
          {!consoleUrl && " Add the relay's console address to the connection to get a link here."}
        </p>
      }
    >
      <p>{kept}</p>
    </RelayFailure>
  );
}
