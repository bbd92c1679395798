/**
 * The demo relay's public options and their defaults. Every value is checked when the relay
 * starts (and faults when they are set), so a typo fails loudly instead of running a strange relay.
 */
import { randomBytes } from 'node:crypto';

/** Failures the relay can be told to simulate, to test how a client copes. */
export interface DemoRelayFaults {
  /** Answer every API request with this status (400..599) and the canonical error body. */
  status?: number;
  /** The body sent with `status`: the canonical JSON (default), a proxy's HTML page, or nothing. */
  statusBody?: 'json' | 'html' | 'empty';
  /** Streaming: destroy the socket after N content chunks (no finish_reason, no [DONE]). */
  cutAfterChunks?: number;
  /** Streaming: end the response cleanly after N content chunks, without finish_reason or [DONE]. */
  endAfterChunks?: number;
  /** Streaming: after N content chunks send `data: {"error":{...}}`, then end. */
  errorAfterChunks?: number;
  /** Send 200 and the headers of a valid request, then nothing, until `close()`. */
  stallAfterHeaders?: boolean;
  /**
   * Throw inside the request handler after validation, so the relay's own catch-all answers:
   * 500 with the canonical body (and the charge refunded).
   */
  internalError?: boolean;
  /** Apply the faults to the next request they affect only, then clear them all (to test retries). */
  failOnce?: boolean;
  /**
   * Apply the faults only to requests for these models (the `model` of the request body), so
   * that one column of a compare fails while the others go on.
   */
  models?: string[];
}

export interface DemoRelayOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default '127.0.0.1': the relay is for this machine only unless asked otherwise. */
  host?: string;
  /** Accepted API keys; default one fresh random key `sk-demo-<32 hex>`. */
  keys?: string[] | undefined;
  /** Starting balance of every key, in credits (default 100). */
  balance?: number;
  /** Credits every request that passes validation draws (default 0.01). */
  cost?: number;
  /** Requests per key per minute before 429 (default 60; bursts up to this many are allowed). */
  ratePerMinute?: number;
  /** Delay before answering each API request, in ms (default 0). */
  latencyMs?: number;
  /** Pace of streamed chat replies; 0 streams as fast as possible (default 40). */
  tokensPerSecond?: number;
  /**
   * Length of chat replies in tokens: a reply shorter than this is continued with numbered
   * paragraphs of plain prose until it has exactly this many (for long streams in benchmarks).
   * 0 (default) keeps each reply its own length (about 130 to 200 tokens).
   */
  replyTokens?: number;
  faults?: DemoRelayFaults;
  /** Receives one line per request (method, path, status, time, key number; never the key). */
  log?: ((line: string) => void) | undefined;
}

export interface DemoRelaySettings {
  balance: number;
  cost: number;
  ratePerMinute: number;
  tokensPerSecond: number;
  latencyMs: number;
  replyTokens: number;
}

export interface DemoRelay {
  /** 'http://127.0.0.1:<port>': the host only, without /v1. */
  url: string;
  keys: string[];
  /** Closes the server and destroys open sockets, stalled and streaming ones included. */
  close(): Promise<void>;
  setFaults(faults: DemoRelayFaults | undefined): void;
  setBalance(key: string, credits: number): void;
  balanceOf(key: string): number | undefined;
  settings: DemoRelaySettings;
}

export const DEFAULT_SETTINGS: DemoRelaySettings = {
  balance: 100,
  cost: 0.01,
  ratePerMinute: 60,
  tokensPerSecond: 40,
  latencyMs: 0,
  replyTokens: 0,
};

/** The longest reply `replyTokens` may ask for. */
export const MAX_REPLY_TOKENS = 1_000_000;
export const DEFAULT_HOST = '127.0.0.1';

export interface ResolvedOptions {
  port: number;
  host: string;
  keys: string[];
  settings: DemoRelaySettings;
  faults: DemoRelayFaults | undefined;
  log: ((line: string) => void) | undefined;
}

export function resolveOptions(options: DemoRelayOptions = {}): ResolvedOptions {
  const settings: DemoRelaySettings = {
    balance: check('balance', options.balance ?? DEFAULT_SETTINGS.balance, { min: 0 }),
    cost: check('cost', options.cost ?? DEFAULT_SETTINGS.cost, { min: 0 }),
    ratePerMinute: check('ratePerMinute', options.ratePerMinute ?? DEFAULT_SETTINGS.ratePerMinute, {
      min: 1,
      integer: true,
    }),
    tokensPerSecond: check(
      'tokensPerSecond',
      options.tokensPerSecond ?? DEFAULT_SETTINGS.tokensPerSecond,
      { min: 0 },
    ),
    latencyMs: check('latencyMs', options.latencyMs ?? DEFAULT_SETTINGS.latencyMs, { min: 0 }),
    replyTokens: check('replyTokens', options.replyTokens ?? DEFAULT_SETTINGS.replyTokens, {
      min: 0,
      max: MAX_REPLY_TOKENS,
      integer: true,
    }),
  };
  const keys = options.keys && options.keys.length > 0 ? [...options.keys] : [newDemoKey()];
  keys.forEach(checkKey);
  if (new Set(keys).size !== keys.length) throw new RangeError('demo relay keys must be distinct');
  return {
    port: check('port', options.port ?? 0, { min: 0, max: 65535, integer: true }),
    host: options.host ?? DEFAULT_HOST,
    keys,
    settings,
    faults: checkFaults(options.faults),
    log: options.log,
  };
}

export function newDemoKey(): string {
  return `sk-demo-${randomBytes(16).toString('hex')}`;
}

/** A key must travel in an HTTP header unchanged: visible ASCII, no spaces. */
export function checkKey(key: string): void {
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(key)) {
    throw new RangeError(
      'a demo relay key must be 1 to 256 visible ASCII characters without spaces',
    );
  }
}

export function checkFaults(faults: DemoRelayFaults | undefined): DemoRelayFaults | undefined {
  if (faults === undefined) return undefined;
  if (faults.status !== undefined)
    check('faults.status', faults.status, { min: 400, max: 599, integer: true });
  if (faults.statusBody !== undefined && !['json', 'html', 'empty'].includes(faults.statusBody)) {
    throw new RangeError('faults.statusBody must be "json", "html" or "empty"');
  }
  if (
    faults.models !== undefined &&
    (!Array.isArray(faults.models) || faults.models.some((m) => typeof m !== 'string' || m === ''))
  )
    throw new RangeError('faults.models must be a list of model ids');
  for (const name of ['cutAfterChunks', 'endAfterChunks', 'errorAfterChunks'] as const) {
    const value = faults[name];
    if (value !== undefined) check(`faults.${name}`, value, { min: 0, integer: true });
  }
  return { ...faults };
}

function check(
  name: string,
  value: number,
  rule: { min: number; max?: number; integer?: boolean },
): number {
  const max = rule.max ?? Number.MAX_SAFE_INTEGER;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= rule.min &&
    value <= max &&
    (!rule.integer || Number.isInteger(value));
  if (!ok) {
    const kind = rule.integer ? 'an integer' : 'a number';
    const range = rule.max === undefined ? `>= ${rule.min}` : `from ${rule.min} to ${rule.max}`;
    throw new RangeError(`${name} must be ${kind} ${range}`);
  }
  return value;
}
