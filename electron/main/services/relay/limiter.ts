/**
 * How many requests go to one relay at once, and the pauses the relay asks for.
 *
 * One limiter per connection, shared by everything in the app that talks to that relay (chat,
 * embeddings runs, and whatever sends many requests next): requests beyond `maxConcurrent` wait
 * their turn, the person's own requests ahead of background work; and when the relay answers
 * 429 with a wait (Retry-After), no request of that connection starts before the wait is over,
 * and fewer run at once afterwards, growing back one at a time as requests go through.
 *
 * A slot is held from the request until its answer has been read (or given up), streams
 * included: that is what "at once" means to a relay.
 */
import { abortedError } from './retry';

/** Requests at once per relay: what browsers open to one host over HTTP/1.1. */
export const MAX_CONCURRENT_REQUESTS = 6;

/** The person waits on it (a reply, a model list), or it can wait (a run of many batches). */
export type RequestPriority = 'interactive' | 'background';

export interface RequestSlot {
  /** Frees the slot; calling it again does nothing. */
  release(): void;
}

export interface RequestLimiter {
  /**
   * Waits for a slot (and for any pause the relay asked for), then holds it until `release`.
   * Rejects with an `aborted` RelayError if `signal` aborts while waiting.
   */
  acquire(options?: { signal?: AbortSignal; priority?: RequestPriority }): Promise<RequestSlot>;
  /** The relay asked to wait `ms`: nothing of this connection starts before then. */
  pause(ms: number): void;
  /** What it is doing now (for tests and diagnostics). */
  state(): { active: number; waiting: number; limit: number; pausedForMs: number };
}

export interface RequestLimiterOptions {
  maxConcurrent?: number;
  now?: () => number;
}

interface Waiter {
  grant(): void;
  priority: RequestPriority;
}

export function createRequestLimiter(options: RequestLimiterOptions = {}): RequestLimiter {
  const max = Math.max(1, Math.floor(options.maxConcurrent ?? MAX_CONCURRENT_REQUESTS));
  const now = options.now ?? Date.now;
  let limit = max;
  let active = 0;
  let pausedUntil = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waiting: Waiter[] = [];

  function next(): Waiter | undefined {
    const index = waiting.findIndex((w) => w.priority === 'interactive');
    return index >= 0 ? waiting.splice(index, 1)[0] : waiting.shift();
  }

  function pump(): void {
    const wait = pausedUntil - now();
    if (wait > 0) {
      if (timer === undefined && waiting.length > 0) {
        timer = setTimeout(() => {
          timer = undefined;
          pump();
        }, wait);
      }
      return;
    }
    while (active < limit && waiting.length > 0) next()!.grant();
  }

  function slot(): RequestSlot {
    active++;
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        active--;
        // Each request that went through lets one more run at once, up to the most.
        if (limit < max) limit++;
        pump();
      },
    };
  }

  return {
    acquire({ signal, priority = 'interactive' } = {}) {
      if (signal?.aborted) return Promise.reject(abortedError());
      if (waiting.length === 0 && active < limit && pausedUntil <= now())
        return Promise.resolve(slot());
      return new Promise<RequestSlot>((resolve, reject) => {
        const onAbort = () => {
          const index = waiting.indexOf(waiter);
          if (index >= 0) waiting.splice(index, 1);
          reject(abortedError());
        };
        const waiter: Waiter = {
          priority,
          grant() {
            signal?.removeEventListener('abort', onAbort);
            resolve(slot());
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(waiter);
        pump();
      });
    },
    pause(ms) {
      if (!(ms > 0)) return;
      pausedUntil = Math.max(pausedUntil, now() + ms);
      // The relay is overwhelmed: half as many at once from here, growing back as requests pass.
      limit = Math.max(1, Math.floor(limit / 2));
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      pump();
    },
    state() {
      return {
        active,
        waiting: waiting.length,
        limit,
        pausedForMs: Math.max(0, pausedUntil - now()),
      };
    },
  };
}
