import { useEffect, useState } from 'react';
import { Notice } from '../../components/notice';
import type { PendingRetry } from './models-store';

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

/** "Trying again in 3 s": why the list is late, and when main will ask again. */
export function RetryNotice({ retry }: { retry: PendingRetry }) {
  const seconds = useSecondsUntil(retry.retryAt);
  return (
    <Notice tone="warning" title="The relay did not answer yet" className="retry-notice">
      <p className="failure-message">{retry.message}</p>
      <p>
        {seconds > 0
          ? `Trying again in ${seconds} s (attempt ${retry.attempt + 1}).`
          : `Trying again now (attempt ${retry.attempt + 1}).`}
      </p>
    </Notice>
  );
}
