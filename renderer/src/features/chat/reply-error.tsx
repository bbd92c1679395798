import { useEffect, useState } from 'react';
import { RelayFailure, type RelayFailureProps } from '../../components/relay-failure';
import { Message, useT } from '../../i18n/i18n';
import {
  readConnections,
  regenerateReply,
  replaceKeyAndRegenerate,
  stopReply,
} from './chat-actions';
import { useChatStore } from './chat-store';
import type { ReplyError } from './chat-types';

/** The kinds a plain retry can mend (a refused request or key needs a change first). */
const RETRYABLE = new Set([
  'server_error',
  'network',
  'timeout',
  'rate_limited',
  'insufficient_balance',
  'bad_response',
]);

/**
 * A failed reply's error, where it happened, with the action that fixes it: the shared
 * RelayFailure view, with what chat adds (the refused parameter, a retry that regenerates).
 */
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
  const t = useT();
  const connection = useActiveConnection(error.kind);
  return (
    <RelayFailure
      className="chat-reply-error"
      failure={error}
      connection={connection}
      onKey={(key) => replaceKeyAndRegenerate(conversationId, key)}
      retry={
        offerRetry &&
        RETRYABLE.has(error.kind) && (
          <button
            type="button"
            className="button button-small"
            onClick={() => void regenerateReply(conversationId)}
          >
            {t('chat.retry')}
          </button>
        )
      }
    >
      {error.kind === 'bad_request' && error.param && (
        <p>
          <Message
            id="chat.error.param"
            values={{ param: error.param }}
            components={{ 0: <code /> }}
          />
        </p>
      )}
    </RelayFailure>
  );
}

/** The active connection's name and console, looked up only for the failures that name them. */
function useActiveConnection(kind: string): RelayFailureProps['connection'] {
  const t = useT();
  const [found, setConnection] = useState<RelayFailureProps['connection']>();
  useEffect(() => {
    if (kind !== 'insufficient_balance' && kind !== 'unauthorized') return;
    let live = true;
    void readConnections()?.then((list) => {
      const active = list.find((c) => c.active);
      if (live && active) setConnection({ name: active.name, consoleUrl: active.consoleUrl });
    });
    return () => {
      live = false;
    };
  }, [kind]);
  return found ?? { name: t('chat.relay') };
}

/** Main waits before trying again (a 429 or a busy relay): the countdown, with Cancel. */
export function RetryCountdown({ replyId }: { replyId: string }) {
  const t = useT();
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
        <span data-source="main">{retry.message}</span>{' '}
        {t('retry.in', { seconds, attempt: retry.attempt + 1 })}
      </span>
      <button type="button" className="button button-small" onClick={() => void stopReply(replyId)}>
        {t('chat.cancel')}
      </button>
    </div>
  );
}
