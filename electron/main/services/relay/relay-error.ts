import type { RelayErrorKind } from '../../../shared/relay-errors';

export interface RelayErrorDetails {
  /** HTTP status, when the relay answered with one. */
  status?: number | undefined;
  /** The request field the relay (or our own check) names as wrong. */
  param?: string | undefined;
  /** The relay's error code (always a string, even when the relay sent a number), or a network code. */
  code?: string | undefined;
  /** How long the relay asked us to wait before trying again. */
  retryAfterMs?: number | undefined;
  /** For a stream that broke: the reply text received before it broke. */
  partialText?: string | undefined;
}

/**
 * The one error a relay request ends in.
 *
 * Plain data only, and never a `cause`: underlying errors can carry request details, and nothing
 * reachable from this object may ever hold the API key.
 */
export class RelayError extends Error {
  override readonly name = 'RelayError';
  readonly kind: RelayErrorKind;
  readonly status?: number;
  readonly param?: string;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly partialText?: string;

  constructor(kind: RelayErrorKind, message: string, details: RelayErrorDetails = {}) {
    super(message);
    this.kind = kind;
    if (details.status !== undefined) this.status = details.status;
    if (details.param !== undefined) this.param = details.param;
    if (details.code !== undefined) this.code = details.code;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.partialText !== undefined) this.partialText = details.partialText;
  }

  /** A copy that also carries the reply text a broken stream delivered. */
  withPartialText(partialText: string): RelayError {
    return new RelayError(this.kind, this.message, { ...this.details(), partialText });
  }

  details(): RelayErrorDetails {
    const { status, param, code, retryAfterMs, partialText } = this;
    return { status, param, code, retryAfterMs, partialText };
  }

  toJSON(): { kind: RelayErrorKind; message: string } & RelayErrorDetails {
    return { kind: this.kind, message: this.message, ...this.details() };
  }
}

export function isRelayError(value: unknown): value is RelayError {
  return value instanceof RelayError;
}
