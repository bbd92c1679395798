/**
 * The demo relay's accounts (wire-conventions.md §8): one balance and one request-rate limit per
 * API key. Balances are kept in integer micro-credits so that many small charges add up exactly.
 */

const MICRO = 1_000_000;

interface Account {
  /** 1-based, so logs can say which key was used without printing it. */
  label: string;
  microBalance: number;
  /** Token bucket: `tokens` requests may be made now; it refills at `ratePerMinute` a minute. */
  tokens: number;
  refilledAt: number;
}

export interface RateDecision {
  allowed: boolean;
  /** `x-ratelimit-*` headers, sent on every authenticated answer; plus `Retry-After` when refused. */
  headers: Record<string, string>;
}

export interface AccountSettings {
  keys: readonly string[];
  balance: number;
  cost: number;
  ratePerMinute: number;
  now?: () => number;
}

export class Accounts {
  private readonly accounts = new Map<string, Account>();
  private readonly microCost: number;
  private readonly ratePerMinute: number;
  private readonly now: () => number;

  constructor(settings: AccountSettings) {
    this.microCost = toMicro(settings.cost);
    this.ratePerMinute = settings.ratePerMinute;
    this.now = settings.now ?? Date.now;
    settings.keys.forEach((key, index) => {
      this.accounts.set(key, {
        label: `key#${index + 1}`,
        microBalance: toMicro(settings.balance),
        tokens: settings.ratePerMinute,
        refilledAt: this.now(),
      });
    });
  }

  has(key: string): boolean {
    return this.accounts.has(key);
  }

  label(key: string): string {
    return this.accounts.get(key)?.label ?? 'unknown-key';
  }

  /**
   * Counts one request against the key's rate limit. A token bucket rather than a fixed window:
   * it allows a burst of `ratePerMinute` and then one request every `60 / ratePerMinute` seconds,
   * which is how hosted relays behave and gives an honest `Retry-After`.
   */
  takeRequest(key: string): RateDecision {
    const account = this.require(key);
    const now = this.now();
    const perMs = this.ratePerMinute / 60_000;
    account.tokens = Math.min(
      this.ratePerMinute,
      account.tokens + (now - account.refilledAt) * perMs,
    );
    account.refilledAt = now;

    const allowed = account.tokens >= 1;
    if (allowed) account.tokens -= 1;
    const untilFullMs = (this.ratePerMinute - account.tokens) / perMs;
    const headers: Record<string, string> = {
      'x-ratelimit-limit-requests': String(this.ratePerMinute),
      'x-ratelimit-remaining-requests': String(Math.floor(account.tokens)),
      'x-ratelimit-reset-requests': formatDuration(untilFullMs),
    };
    if (!allowed) {
      const waitMs = Math.max(1, Math.ceil((1 - account.tokens) / perMs));
      headers['retry-after'] = String(Math.max(1, Math.ceil(waitMs / 1000)));
      headers['retry-after-ms'] = String(waitMs);
    }
    return { allowed, headers };
  }

  /**
   * Whether the key may make a request now. An empty balance is always too low, even when
   * requests are free, so that "balance 0" means what a person expects.
   */
  canAfford(key: string): boolean {
    const { microBalance } = this.require(key);
    return microBalance > 0 && microBalance >= this.microCost;
  }

  charge(key: string): void {
    this.require(key).microBalance -= this.microCost;
  }

  /** Gives back a charge for a request the relay itself failed. */
  refund(key: string): void {
    this.require(key).microBalance += this.microCost;
  }

  setBalance(key: string, credits: number): void {
    if (!Number.isFinite(credits))
      throw new RangeError('balance must be a finite number of credits');
    this.require(key).microBalance = toMicro(credits);
  }

  balanceOf(key: string): number | undefined {
    const account = this.accounts.get(key);
    return account === undefined ? undefined : account.microBalance / MICRO;
  }

  private require(key: string): Account {
    const account = this.accounts.get(key);
    // The message never contains the key: errors end up in logs.
    if (!account) throw new RangeError('not a key of this demo relay');
    return account;
  }
}

function toMicro(credits: number): number {
  return Math.round(credits * MICRO);
}

/** Durations as rate-limit headers write them: `12ms` below a second, else seconds (`1s`, `1.5s`). */
export function formatDuration(ms: number): string {
  if (ms <= 0) return '0s';
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  return `${Number((ms / 1000).toFixed(3))}s`;
}
