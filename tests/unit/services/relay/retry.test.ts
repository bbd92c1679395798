import { describe, expect, it } from 'vitest';
import { RelayError } from '../../../../electron/main/services/relay/relay-error';
import {
  backoffDelay,
  isRetryable,
  parseDuration,
  retryAfterFromHeaders,
  sleep,
} from '../../../../electron/main/services/relay/retry';

describe('retryAfterFromHeaders', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');

  it('prefers retry-after-ms over Retry-After', () => {
    expect(
      retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now),
    ).toBe(250);
  });

  it('reads Retry-After in seconds, fractional too', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
  });

  it('reads Retry-After as an HTTP date', () => {
    const headers = new Headers({ 'retry-after': 'Sat, 21 Nov 2026 12:00:07 GMT' });
    expect(retryAfterFromHeaders(headers, now)).toBe(7000);
    expect(
      retryAfterFromHeaders(new Headers({ 'retry-after': 'Sat, 21 Nov 2026 11:00:00 GMT' }), now),
    ).toBe(0);
  });

  it('falls back to x-ratelimit-reset-requests durations', () => {
    expect(retryAfterFromHeaders(new Headers({ 'x-ratelimit-reset-requests': '1m30s' }), now)).toBe(
      90_000,
    );
  });

  it('ignores values it cannot read', () => {
    expect(
      retryAfterFromHeaders(new Headers({ 'retry-after': 'soon', 'retry-after-ms': '-4' }), now),
    ).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers(), now)).toBeUndefined();
  });
});

describe('parseDuration', () => {
  it.each([
    ['1s', 1000],
    ['12ms', 12],
    ['6m0s', 360_000],
    ['1.5s', 1500],
    ['2h', 7_200_000],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', 's', '1x', '1 s', '-1s'])('%j is not a duration', (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );
});

describe('isRetryable', () => {
  it('retries rate limits, timeouts and server failures', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) {
      const kind = status === 429 ? 'rate_limited' : status === 408 ? 'timeout' : 'server_error';
      expect(isRetryable(new RelayError(kind, 'x', { status }))).toBe(true);
    }
  });

  it('never retries what waiting cannot fix', () => {
    expect(isRetryable(new RelayError('insufficient_balance', 'x', { status: 429 }))).toBe(false);
    expect(isRetryable(new RelayError('bad_request', 'x', { status: 400 }))).toBe(false);
    expect(isRetryable(new RelayError('unauthorized', 'x', { status: 401 }))).toBe(false);
    expect(isRetryable(new RelayError('server_error', 'x', { status: 501 }))).toBe(false);
    expect(isRetryable(new RelayError('network', 'x'))).toBe(false);
  });
});

describe('backoffDelay', () => {
  it('doubles from half a second, with jitter between half and the whole, capped at 8 s', () => {
    expect(backoffDelay(1, () => 0)).toBe(250);
    expect(backoffDelay(1, () => 1)).toBe(500);
    expect(backoffDelay(2, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 0.5)).toBe(1500);
    expect(backoffDelay(20, () => 1)).toBe(8000);
  });
});

describe('sleep', () => {
  it('ends early, as an aborted RelayError, when the signal fires', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses to start on an already aborted signal', async () => {
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ kind: 'aborted' });
  });
});
