/**
 * How the last request to each connection went, for the dot beside the connection in use: green
 * when it answered, amber when it answered but wants something done (a used-up balance, a rate
 * limit, a failing server), red when it could not be used (unreachable, too slow, a refused key, not
 * a relay). A request the person stopped says nothing about the relay and changes nothing.
 *
 * Kept in memory: after a restart nothing is known until the first request.
 */
import type { Emit } from '../../../shared/ipc/contract';
import type { ConnectionHealth, HealthState } from '../../../shared/ipc/routes/connections';

/** What a request ended in: its answer, or the kind of its failure and the message. */
export type RequestOutcome = { ok: true } | { ok: false; kind: string; message: string };

/** The dot's colour for a failure's kind; undefined when the failure says nothing of the relay. */
export function healthOfFailure(kind: string): HealthState | undefined {
  switch (kind) {
    case 'aborted':
      return undefined;
    // The relay answered and refused this request's content: the connection itself is fine.
    case 'bad_request':
      return 'ok';
    case 'insufficient_balance':
    case 'rate_limited':
    case 'server_error':
      return 'warning';
    default:
      return 'error';
  }
}

export class ConnectionHealthTracker {
  readonly #emit: Emit;
  readonly #now: () => Date;
  readonly #last = new Map<string, ConnectionHealth>();

  constructor(emit: Emit, now: () => Date = () => new Date()) {
    this.#emit = emit;
    this.#now = now;
  }

  /** Records the outcome of a request to `connectionId`, and tells the page when it changes. */
  record(connectionId: string, outcome: RequestOutcome): void {
    const state = outcome.ok ? 'ok' : healthOfFailure(outcome.kind);
    if (state === undefined) return;
    const health: ConnectionHealth = {
      connectionId,
      state,
      at: this.#now().toISOString(),
      ...(outcome.ok || state === 'ok' ? {} : { kind: outcome.kind, message: outcome.message }),
    };
    const before = this.#last.get(connectionId);
    this.#last.set(connectionId, health);
    if (before?.state === health.state && before.message === health.message) return;
    this.#emit('connectionHealthChanged', health);
  }

  /** What is known of every connection (those with no request yet are absent). */
  list(): ConnectionHealth[] {
    return [...this.#last.values()];
  }

  forget(connectionId: string): void {
    this.#last.delete(connectionId);
  }
}
