import { useEffect, useState } from 'react';
import { KeyEntry } from '../../components/key-entry';
import { BalanceNotice } from '../../components/balance-notice';
import { Notice } from '../../components/notice';
import { failureOf, failureTitle, type FailureInfo } from '../../lib/errors';
import { requireBridge, type ConnectionSummary } from '../../lib/relay-bridge';
import type { Generation } from './images-store';

/**
 * Why a Generate failed, with the remedy in place, as chat shows it: a refused key opens a
 * field for the right one, a used-up balance links to the relay's console, a bad request names
 * the field, and a failed relay can be asked again.
 */
export function ImageFailure({
  connection,
  failure,
  onRetry,
}: {
  connection: ConnectionSummary;
  failure: FailureInfo & { param?: string };
  onRetry(): void;
}) {
  const [keyFailure, setKeyFailure] = useState<FailureInfo | undefined>();
  const retry = (
    <button type="button" className="button" onClick={onRetry}>
      Try again
    </button>
  );
  if (failure.kind === 'unauthorized') {
    return (
      <div className="images-failure">
        <Notice tone="error" title={`${connection.name} refused the key`}>
          <p className="failure-message">{failure.message}</p>
        </Notice>
        <KeyEntry
          label={`API key for ${connection.name}`}
          submitLabel="Save key and retry"
          onSubmit={async (key) => {
            setKeyFailure(undefined);
            try {
              await requireBridge().updateConnection({
                id: connection.id,
                changes: { apiKey: key },
              });
              onRetry();
            } catch (error) {
              setKeyFailure(failureOf(error));
            }
          }}
        />
        {keyFailure && (
          <Notice tone="error" title="The key was not saved">
            <p className="failure-message">{keyFailure.message}</p>
          </Notice>
        )}
      </div>
    );
  }
  if (failure.kind === 'insufficient_balance') {
    return (
      <BalanceNotice message={failure.message} consoleUrl={connection.consoleUrl} actions={retry} />
    );
  }
  if (failure.kind === 'aborted') {
    return (
      <Notice tone="info" title="Generation cancelled">
        <p>Images that were already made stay in the gallery.</p>
      </Notice>
    );
  }
  const title = failureTitle(failure);
  const retryable = !['bad_request', 'invalid_request'].includes(failure.kind);
  return (
    <Notice
      tone="error"
      title={failure.status ? `${title} (HTTP ${failure.status})` : title}
      actions={retryable ? retry : undefined}
    >
      <p className="failure-message">{failure.message}</p>
      {failure.param && <p className="muted">The field in question: {failure.param}</p>}
    </Notice>
  );
}

function useSecondsUntil(at: number): number {
  const left = () => Math.max(0, Math.ceil((at - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => setSeconds(left()), 250);
    return () => clearInterval(timer);
  }, [at]); // `left` reads `at` only
  return seconds;
}

/** "Too many requests: trying again in 3 s", while main waits to ask again. */
export function ImageRetryNotice({ retry }: { retry: NonNullable<Generation['retry']> }) {
  const seconds = useSecondsUntil(retry.retryAt);
  return (
    <Notice tone="warning" title="The relay asked us to wait">
      <p className="failure-message">{retry.message}</p>
      <p>
        {seconds > 0
          ? `Trying again in ${seconds} s (attempt ${retry.attempt + 1}).`
          : `Trying again now (attempt ${retry.attempt + 1}).`}
      </p>
    </Notice>
  );
}
