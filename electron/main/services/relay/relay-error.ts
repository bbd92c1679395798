import type { ErrorMessageKey, MessageValues } from '../../../shared/messages/keys';
import type { RelayErrorKind } from '../../../shared/relay-errors';
import type { Said } from '../words';

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
  /** The message's key in main's catalogue and its values, when the words are the app's own. */
  messageId?: ErrorMessageKey | undefined;
  values?: MessageValues | undefined;
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
  readonly messageId?: ErrorMessageKey;
  readonly values?: MessageValues;

  /**
   * `message` is the app's own words (`said(…)`), or text the relay sent, which is shown as it
   * came (it has no key).
   */
  constructor(kind: RelayErrorKind, message: string | Said, details: RelayErrorDetails = {}) {
    super(typeof message === 'string' ? message : message.english);
    this.kind = kind;
    if (typeof message !== 'string') {
      this.messageId = message.id;
      if (message.values) this.values = message.values;
    } else if (details.messageId !== undefined) {
      this.messageId = details.messageId;
      if (details.values !== undefined) this.values = details.values;
    }
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
    const { status, param, code, retryAfterMs, partialText, messageId, values } = this;
    return { status, param, code, retryAfterMs, partialText, messageId, values };
  }

  toJSON(): { kind: RelayErrorKind; message: string } & RelayErrorDetails {
    return { kind: this.kind, message: this.message, ...this.details() };
  }
}

export function isRelayError(value: unknown): value is RelayError {
  return value instanceof RelayError;
}
