import { useEffect, useState } from 'react';
import { formatNumber } from '../i18n/format';
import { useT } from '../i18n/i18n';
import type { PendingRetry } from '../lib/load-state';
import { Notice } from './notice';

/** Seconds left until `at`, updated while there are any. */
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

export interface RetryNoticeProps {
  retry: PendingRetry;
  /** What the wait means where it shows ("The relay asked us to wait"). */
  title: string;
  className?: string;
}

/** "Trying again in 3 s": why main waits, in the relay's words, and when it asks again. */
export function RetryNotice({ retry, title, className }: RetryNoticeProps) {
  const seconds = useSecondsUntil(retry.retryAt);
  const t = useT();
  const attempt = retry.attempt + 1;
  return (
    <Notice tone="warning" title={title} {...(className ? { className } : {})}>
      <p className="failure-message">{retry.message}</p>
      <p>
        {seconds > 0
          ? t('retry.in', { seconds: formatNumber(seconds), attempt })
          : t('retry.now', { attempt })}
      </p>
    </Notice>
  );
}
