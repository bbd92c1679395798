import { describe, expect, it } from 'vitest';
import { Accounts, formatDuration } from '../../../electron/demo-relay/accounts';
import { ImageLinks } from '../../../electron/demo-relay/image-links';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

describe('Accounts rate limit', () => {
  it('allows a burst of ratePerMinute, then refuses with an honest Retry-After', () => {
    const time = clock();
    const accounts = new Accounts({
      keys: ['k'],
      balance: 1,
      cost: 0,
      ratePerMinute: 3,
      now: time.now,
    });
    expect(accounts.takeRequest('k').headers['x-ratelimit-remaining-requests']).toBe('2');
    accounts.takeRequest('k');
    const last = accounts.takeRequest('k');
    expect(last.allowed).toBe(true);
    expect(last.headers['x-ratelimit-remaining-requests']).toBe('0');
    expect(last.headers['x-ratelimit-reset-requests']).toBe('60s');

    const refused = accounts.takeRequest('k');
    expect(refused.allowed).toBe(false);
    // 3 a minute refill one request every 20 s.
    expect(refused.headers['retry-after']).toBe('20');
    expect(refused.headers['retry-after-ms']).toBe('20000');

    time.advance(20_000);
    expect(accounts.takeRequest('k').allowed).toBe(true);
  });

  it('keeps keys apart', () => {
    const accounts = new Accounts({
      keys: ['a', 'b'],
      balance: 1,
      cost: 0,
      ratePerMinute: 1,
      now: clock().now,
    });
    expect(accounts.takeRequest('a').allowed).toBe(true);
    expect(accounts.takeRequest('a').allowed).toBe(false);
    expect(accounts.takeRequest('b').allowed).toBe(true);
    expect(accounts.label('b')).toBe('key#2');
  });
});

describe('Accounts balance', () => {
  it('draws exactly: 10,000 requests at 0.01 empty a balance of 100', () => {
    const accounts = new Accounts({ keys: ['k'], balance: 100, cost: 0.01, ratePerMinute: 60 });
    for (let i = 0; i < 10_000; i++) {
      expect(accounts.canAfford('k')).toBe(true);
      accounts.charge('k');
    }
    expect(accounts.balanceOf('k')).toBe(0);
    expect(accounts.canAfford('k')).toBe(false);
    accounts.refund('k');
    expect(accounts.balanceOf('k')).toBe(0.01);
  });

  it('treats an empty balance as too low even when requests are free', () => {
    const accounts = new Accounts({ keys: ['k'], balance: 0, cost: 0, ratePerMinute: 60 });
    expect(accounts.canAfford('k')).toBe(false);
    accounts.setBalance('k', 5);
    expect(accounts.canAfford('k')).toBe(true);
  });

  it('never puts a key in an error message', () => {
    const accounts = new Accounts({ keys: ['k'], balance: 1, cost: 0, ratePerMinute: 60 });
    expect(() => accounts.setBalance('sk-secret-value', 1)).toThrow(/^(?!.*sk-secret-value)/);
    expect(accounts.balanceOf('sk-secret-value')).toBeUndefined();
  });
});

describe('formatDuration', () => {
  it('writes milliseconds below a second, else seconds', () => {
    expect(formatDuration(12)).toBe('12ms');
    expect(formatDuration(0.4)).toBe('1ms');
    expect(formatDuration(1000)).toBe('1s');
    expect(formatDuration(1500)).toBe('1.5s');
    expect(formatDuration(0)).toBe('0s');
  });
});

describe('ImageLinks', () => {
  it('forgets links after their hour and bounds how many it keeps', () => {
    const time = clock();
    const links = new ImageLinks({ maxImages: 2, ttlMs: 3_600_000 }, time.now);
    const first = links.put(Buffer.from('one'));
    const second = links.put(Buffer.from('two'));
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(links.get(first)?.toString()).toBe('one');
    const third = links.put(Buffer.from('three'));
    expect(links.get(first)).toBeUndefined();
    expect(links.size).toBe(2);
    time.advance(3_600_001);
    expect(links.get(second)).toBeUndefined();
    expect(links.get(third)).toBeUndefined();
  });
});
