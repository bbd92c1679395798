import type { IpcError, IpcResult } from '../../../electron/shared/ipc/define';

/**
 * A failed call to main, as the page's own error: every field of main's `IpcError` (its kind, the
 * HTTP status, the message's key, values and parts, the field a refused request names, the wait
 * a rate limit asks for, the text a reply had before it failed).
 *
 * It is made here, in the page's world, from the plain `{ ok: false, error }` the preload
 * resolves with. An error made in the preload would not survive the crossing: Electron's
 * contextBridge rebuilds an Error as a new Error with its message alone.
 */
export class BridgeError extends Error {
  override readonly name = 'BridgeError';
  readonly kind: IpcError['kind'];
  readonly status?: number;
  readonly param?: string;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly partialText?: string;
  /** The message's key in main's catalogue and its values: the page formats it when it shows it. */
  readonly messageId?: string;
  readonly values?: IpcError['values'];
  /** Several messages said at once, each with its key (`message` joins their English). */
  readonly parts?: IpcError['parts'];

  constructor(error: IpcError) {
    super(error.message);
    this.kind = error.kind;
    if (error.messageId !== undefined) this.messageId = error.messageId;
    if (error.values !== undefined) this.values = error.values;
    if (error.parts !== undefined) this.parts = error.parts;
    if (error.status !== undefined) this.status = error.status;
    if (error.param !== undefined) this.param = error.param;
    if (error.code !== undefined) this.code = error.code;
    if (error.retryAfterMs !== undefined) this.retryAfterMs = error.retryAfterMs;
    if (error.partialText !== undefined) this.partialText = error.partialText;
  }
}

function isFailure(value: unknown): value is { ok: false; error: IpcError } {
  if (value === null || typeof value !== 'object') return false;
  const { ok, error } = value as { ok?: unknown; error?: unknown };
  return (
    ok === false &&
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { kind?: unknown }).kind === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/** A route's answer as the preload resolves it: its value, or a `BridgeError` thrown. */
export function answerOf<T>(result: IpcResult<T> | unknown): T {
  if (result !== null && typeof result === 'object' && (result as { ok?: unknown }).ok === true)
    return (result as { value: T }).value;
  if (isFailure(result)) throw new BridgeError(result.error);
  throw new BridgeError({ kind: 'internal', message: 'No valid answer came back from the app.' });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * The exposed bridge as the page calls it: every function that answers with a promise (a
 * route) resolves with its value or rejects with a `BridgeError`; what answers otherwise (a
 * one-way route, an event's subscriber) and every other value are as exposed. The preload's
 * `grantDroppedFiles` resolves as a route does, so it is unwrapped the same way.
 */
export function unwrapBridge<Unwrapped>(exposed: object): Unwrapped {
  const page: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(exposed)) {
    page[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            const outcome: unknown = (value as (...a: unknown[]) => unknown)(...args);
            return isThenable(outcome) ? Promise.resolve(outcome).then(answerOf) : outcome;
          }
        : value;
  }
  return Object.freeze(page) as Unwrapped;
}
