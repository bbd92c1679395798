import { useState, type ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import { failureOf, useMainMessageText, type FailureInfo } from '../lib/errors';
import { BalanceNotice } from './balance-notice';
import { FailureNotice } from './failure-notice';
import { KeyEntry } from './key-entry';
import { Notice } from './notice';

export interface RelayFailureProps {
  failure: FailureInfo;
  /** The connection the request went to: named when it refused the key, its console linked. */
  connection: { name: string; consoleUrl?: string | undefined };
  /** What asks again ("Try again", "Retry the rest"); absent where asking again cannot help. */
  retry?: ReactNode;
  /**
   * Saves a corrected key after a 401 (and asks again). Without it, a refused key is shown like
   * any other failure.
   */
  onKey?(key: string): Promise<void>;
  /**
   * Shows the key field in a card of its own, focused, with this sentence under its title (where
   * the whole screen waits for the key).
   */
  keyCardLead?: string;
  /** What the feature adds under the message: what was kept, the field in question. */
  children?: ReactNode;
  /** What the feature adds to a used-up balance (by default, where a console link comes from). */
  balanceNote?: ReactNode;
  className?: string;
}

/**
 * A failed relay request, by kind, with its remedy in place: a refused key opens a field for the
 * right one, a used-up balance links to the relay's console, anything else names the failure
 * (with its HTTP status) and can be asked again. Presentational: the feature says what the
 * remedies do.
 */
export function RelayFailure(props: RelayFailureProps) {
  const t = useT();
  // Main's words in the language shown now (a stored failure follows a language change).
  const message = useMainMessageText()(props.failure);
  return (
    <div className={props.className} data-kind={props.failure.kind}>
      {failureBody({ ...props, failure: { ...props.failure, message } }, t)}
    </div>
  );
}

function failureBody(
  { failure, connection, retry, onKey, keyCardLead, children, balanceNote }: RelayFailureProps,
  t: ReturnType<typeof useT>,
) {
  if (failure.kind === 'unauthorized' && onKey) {
    return (
      <>
        <Notice tone="error" title={t('relayFailure.keyRefused', { name: connection.name })}>
          <p className="failure-message" data-source="main">
            {failure.message}
          </p>
        </Notice>
        <KeyFix connection={connection} onKey={onKey} cardLead={keyCardLead} />
      </>
    );
  }
  if (failure.kind === 'insufficient_balance') {
    return (
      <BalanceNotice message={failure.message} consoleUrl={connection.consoleUrl} actions={retry}>
        {balanceNote ?? (!connection.consoleUrl && <p>{t('relayFailure.addConsole')}</p>)}
      </BalanceNotice>
    );
  }
  return (
    <FailureNotice failure={failure} actions={retry}>
      {children}
    </FailureNotice>
  );
}

/** The field that takes the right key, and why the key was not saved if it was not. */
function KeyFix({
  connection,
  onKey,
  cardLead,
}: {
  connection: RelayFailureProps['connection'];
  onKey(key: string): Promise<void>;
  cardLead: string | undefined;
}) {
  const [keyFailure, setKeyFailure] = useState<FailureInfo | undefined>();
  const t = useT();
  const entry = (
    <KeyEntry
      label={t('relayFailure.keyFor', { name: connection.name })}
      submitLabel={t('relayFailure.saveAndRetry')}
      autoFocus={cardLead !== undefined}
      onSubmit={async (key) => {
        setKeyFailure(undefined);
        try {
          await onKey(key);
        } catch (error) {
          setKeyFailure(failureOf(error));
        }
      }}
    />
  );
  const refused = keyFailure && (
    <FailureNotice title={t('relayFailure.keyNotSaved')} failure={keyFailure} />
  );
  if (cardLead === undefined)
    return (
      <>
        {entry}
        {refused}
      </>
    );
  return (
    <section className="card key-fix" aria-labelledby="key-fix-title">
      <h2 className="card-title" id="key-fix-title">
        {t('relayFailure.enterCorrectKey')}
      </h2>
      <p className="card-lead">{cardLead}</p>
      {entry}
      {refused}
    </section>
  );
}
