/** Where a screen's data is: not asked for yet, on its way, shown, or failed (with why). */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';

/** Main will ask the relay again at `retryAt` (a rate limit or a failing server). */
export interface PendingRetry {
  attempt: number;
  /** `Date.now()` of the next attempt. */
  retryAt: number;
  /** Why it waits, in the relay's words. */
  message: string;
}
