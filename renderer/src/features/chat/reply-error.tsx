import { useEffect, useState } from 'react';
import { KeyEntry } from '../../components/key-entry';
import { failureTitle } from '../../lib/errors';
import { relayBridge } from '../../lib/relay-bridge';
import { regenerateReply, replaceKeyAndRegenerate, stopReply } from './chat-actions';
import { useChatStore } from './chat-store';
import type { ReplyError } from './chat-types';

/** A failed reply's error, where it happened, with the action that fixes it. */
export function ReplyErrorView({
  error,
  conversationId,
  retry: offerRetry = true,
}: {
  error: ReplyError;
  conversationId: string;
  /** False where the reply's own actions (Continue, Regenerate) are shown instead of Retry. */
  retry?: boolean | undefined;
}) {
  const [consoleUrl, setConsoleUrl] = useState<string>();
  const [keyFailure, setKeyFailure] = useState<string>();

  useEffect(() => {
    if (error.kind !== 'insufficient_balance') return;
    void relayBridge()
      ?.listConnections()
      .then((list) => setConsoleUrl(list.find((c) => c.active)?.consoleUrl));
  }, [error.kind]);

  const retry = (
    <button
      type="button"
      className="button button-small"
      onClick={() => void regenerateReply(conversationId)}
    >
      Retry
    </button>
  );

  return (
    <div className="chat-reply-error" role="alert" data-kind={error.kind}>
      <p className="notice-title">{failureTitle(error)}</p>
      <p className="failure-message">{error.message}</p>
      {error.kind === 'bad_request' && error.param && (
        <p>
          The relay refused <code>{error.param}</code>: change it in this conversation&apos;s
          settings and try again.
        </p>
      )}
      {error.kind === 'unauthorized' && (
        <>
          <KeyEntry
            label="A new key for this connection"
            submitLabel="Save key and retry"
            onSubmit={async (key) => {
              try {
                setKeyFailure(undefined);
                await replaceKeyAndRegenerate(conversationId, key);
              } catch (failure) {
                setKeyFailure(
                  (failure as { message?: string }).message ?? 'The key was not saved.',
                );
              }
            }}
          />
          {keyFailure && <p className="field-error">{keyFailure}</p>}
        </>
      )}
      {error.kind === 'insufficient_balance' && (
        <p>
          Your balance on this relay is used up. Top it up, then retry.{' '}
          {consoleUrl && (
            <a href={consoleUrl} target="_blank" rel="noreferrer noopener">
              Open the relay&apos;s console
            </a>
          )}
        </p>
      )}
      {[
        'server_error',
        'network',
        'timeout',
        'rate_limited',
        'insufficient_balance',
        'bad_response',
      ].includes(error.kind) &&
        offerRetry &&
        retry}
    </div>
  );
}

/** Main waits before trying again (a 429 or a busy relay): the countdown, with Cancel. */
export function RetryCountdown({ replyId }: { replyId: string }) {
  const retry = useChatStore((s) => s.retries[replyId]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!retry) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [retry]);
  if (!retry) return null;
  const seconds = Math.max(0, Math.ceil((retry.retryAt - now) / 1000));
  return (
    <div className="chat-retry" role="status">
      <span>
        {retry.message} Trying again in {seconds} s (attempt {retry.attempt + 1}).
      </span>
      <button type="button" className="button button-small" onClick={() => void stopReply(replyId)}>
        Cancel
      </button>
    </div>
  );
}
