import { useState } from 'react';
import { KeyEntry } from '../../components/key-entry';
import { BalanceNotice } from '../../components/balance-notice';
import { Notice } from '../../components/notice';
import { failureOf, failureTitle, type FailureInfo } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { loadModels, replaceKeyAndRetry } from './models-actions';

export interface ModelsFailureProps {
  connection: ConnectionSummary;
  failure: FailureInfo;
}

/**
 * Why the models could not be listed, with the remedy in place: a refused key opens a field for
 * the right one; a used-up balance links to the relay's console; anything else can be retried.
 */
export function ModelsFailure({ connection, failure }: ModelsFailureProps) {
  const [keyFailure, setKeyFailure] = useState<FailureInfo | undefined>();
  const retry = (
    <button type="button" className="button" onClick={() => void loadModels(connection.id, true)}>
      Try again
    </button>
  );

  if (failure.kind === 'unauthorized') {
    return (
      <div className="models-failure">
        <Notice tone="error" title={`${connection.name} refused the key`}>
          <p className="failure-message">{failure.message}</p>
        </Notice>
        <section className="card key-fix" aria-labelledby="key-fix-title">
          <h2 className="card-title" id="key-fix-title">
            Enter the correct key
          </h2>
          <p className="card-lead">It replaces the saved key, and the models load again.</p>
          <KeyEntry
            label={`API key for ${connection.name}`}
            submitLabel="Save key and retry"
            autoFocus
            onSubmit={async (key) => {
              setKeyFailure(undefined);
              try {
                await replaceKeyAndRetry(connection.id, key);
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
        </section>
      </div>
    );
  }

  if (failure.kind === 'insufficient_balance') {
    return (
      <div className="models-failure">
        <BalanceNotice message={failure.message} consoleUrl={connection.consoleUrl} actions={retry}>
          {!connection.consoleUrl && (
            <p>Add this relay&apos;s console address to the connection to get a link to it here.</p>
          )}
        </BalanceNotice>
      </div>
    );
  }

  const title = failureTitle(failure);
  return (
    <div className="models-failure">
      <Notice
        tone="error"
        title={failure.status ? `${title} (HTTP ${failure.status})` : title}
        actions={retry}
      >
        <p className="failure-message">{failure.message}</p>
      </Notice>
    </div>
  );
}
