import { RelayError } from './relay-error';
import { said } from '../words';

/** Statuses worth another attempt when they come before any body: rate limits and server failures. */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export function isRetryable(error: RelayError): boolean {
  if (error.status === undefined || !RETRYABLE_STATUSES.has(error.status)) return false;
  // A 429 that is really a spent quota is a balance problem: waiting will not fix it.
  return error.kind !== 'insufficient_balance';
}

/**
 * How long the relay asked us to wait: `retry-after-ms`, else `Retry-After` in seconds or as an
 * HTTP date, else `x-ratelimit-reset-requests` (a duration such as `1s`, `12ms`, `1m30s`).
 */
export function retryAfterFromHeaders(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const after = headers.get('retry-after');
  if (after !== null) {
    const trimmed = after.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get('x-ratelimit-reset-requests');
  if (reset !== null) return parseDuration(reset);
  return undefined;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses `1s`, `12ms`, `1m30.5s`, `6m0s`; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] ?? 0);
  }
  return Math.ceil(total);
}

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … up to 8 s, each scaled by 0.5–1. */
export function backoffDelay(retryNumber: number, random: () => number): number {
  const base = Math.min(8000, 500 * 2 ** Math.max(0, retryNumber - 1));
  return Math.round(base * (0.5 + random() / 2));
}

/** Waits, unless the signal aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortedError(partialText?: string): RelayError {
  return new RelayError('aborted', said('relay.cancelled'), { partialText });
}
