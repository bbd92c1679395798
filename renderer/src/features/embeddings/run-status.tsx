import { useEffect, useState } from 'react';
import { BalanceNotice } from '../../components/balance-notice';
import { Notice } from '../../components/notice';
import { failureTitle } from '../../lib/errors';
import { cancelRun, resumeRun } from './embeddings-actions';
import type { EmbeddingRun, PendingRetry, RunError } from './embeddings-store';

function useSecondsUntil(at: number | undefined): number {
  const left = () => (at === undefined ? 0 : Math.max(0, Math.ceil((at - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (at === undefined) return;
    const timer = setInterval(() => setSeconds(left()), 250);
    return () => clearInterval(timer);
  }, [at]); // `left` reads `at` only
  return seconds;
}

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
  const seconds = useSecondsUntil(retry?.retryAt);
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
        <Notice tone="warning" title="The relay asked us to wait" className="retry-notice">
          <p className="failure-message">{retry.message}</p>
          <p>
            {seconds > 0
              ? `Trying again in ${seconds} s (attempt ${retry.attempt + 1}).`
              : `Trying again now (attempt ${retry.attempt + 1}).`}
          </p>
        </Notice>
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
  const goOn = (
    <button
      type="button"
      className="button button-primary"
      onClick={() => void resumeRun(run.id, run.total)}
    >
      {run.done > 0 ? 'Retry the rest' : 'Retry'}
    </button>
  );
  if (error.kind === 'insufficient_balance') {
    return (
      <BalanceNotice message={error.message} consoleUrl={consoleUrl} actions={goOn}>
        <p>
          The relay refused to go on until the balance is topped up. {kept}
          {!consoleUrl && " Add the relay's console address to the connection to get a link here."}
        </p>
      </BalanceNotice>
    );
  }
  const title = failureTitle(error);
  return (
    <Notice
      tone="error"
      title={error.status ? `${title} (HTTP ${error.status})` : title}
      actions={goOn}
    >
      <p className="failure-message">{error.message}</p>
      <p>{kept}</p>
    </Notice>
  );
}
