/**
 * The one error a service throws on purpose: a refusal the person can act on (a record that no
 * longer exists, a file that cannot be used, a request that does not make sense now), with the
 * kind the renderer shows a remedy for. The router passes it on as it is; any other error is a
 * fault, logged in main and never shown in detail.
 *
 * Its words come from main's catalogue (`said('key', values)`, `services/words.ts`): the page
 * shows them in the person's language, and `message` keeps them in English.
 *
 * `errorInfo` is the one mapping of the app's errors (this one and `RelayError`) to the plain
 * `IpcError` that crosses to the page, in an answer, an event or a stored reply.
 */
import type { IpcError, IpcErrorKind } from '../../shared/ipc/define';
import type { ErrorMessageKey, MessageValues } from '../../shared/messages/keys';
import { RelayError } from './relay/relay-error';
import { messageFields, said, type Said } from './words';

/** A field of a form that is wrong, and why, in words for the person. */
export interface FieldIssue {
  field: string;
  message: string;
}

export interface AppErrorDetails {
  /** The request field at fault, as the relay names them (`messages[0].content`). */
  param?: string;
  /** For `invalid_request`: every field of the form that is wrong, in form order (main only). */
  issues?: readonly FieldIssue[];
}

export class AppError extends Error {
  override readonly name = 'AppError';
  /** The message's key in main's catalogue, when it has one (older code passes English text). */
  declare readonly messageId?: ErrorMessageKey;
  declare readonly values?: MessageValues;
  /** Several messages said at once, in order (each file a sending refuses). */
  declare readonly parts?: readonly (Said | string)[];

  /** `message` may be several messages said together: `message` is then their English, joined. */
  constructor(
    readonly kind: IpcErrorKind,
    message: string | Said | readonly (Said | string)[],
    readonly details: AppErrorDetails = {},
  ) {
    super(
      typeof message === 'string'
        ? message
        : 'english' in message
          ? message.english
          : message.map((part) => (typeof part === 'string' ? part : part.english)).join(' '),
    );
    if (typeof message === 'string') return;
    if ('english' in message) {
      this.messageId = message.id;
      if (message.values) this.values = message.values;
    } else {
      this.parts = [...message];
    }
  }
}

/** A message said as part of several: its English, and its key and values when it has them. */
function partInfo(part: Said | string): NonNullable<IpcError['parts']>[number] {
  return typeof part === 'string' ? { message: part } : messageFields(part);
}

/** The IPC form of an `AppError` or a `RelayError`; undefined for any other error (a fault). */
export function errorInfo(error: unknown): IpcError | undefined {
  if (error instanceof RelayError) {
    const { kind, message, status, param, code, retryAfterMs, partialText, messageId, values } =
      error;
    return withDefined(
      { kind, message },
      { messageId, values, status, param, code, retryAfterMs, partialText },
    );
  }
  if (error instanceof AppError) {
    return withDefined(
      { kind: error.kind, message: error.message },
      {
        messageId: error.messageId,
        values: error.values,
        param: error.details.param,
        parts: error.parts?.map(partInfo),
      },
    );
  }
  return undefined;
}

/**
 * A fault of the app itself, in words the page shows in the person's language: the fault's detail
 * is logged where it happened, never shown. `faultInfo(error, 'app.fault.indexing')` keeps an
 * `AppError` or `RelayError` as it is.
 */
export function faultInfo(
  error: unknown,
  id: ErrorMessageKey,
  values?: Record<string, string | number>,
): IpcError {
  const known = errorInfo(error);
  if (known) return known;
  return { kind: 'internal', ...messageFields(said(id, values)) };
}

/** Something refused by name (a file, an entry), with the reason in words the page formats. */
export interface Refusal {
  name: string;
  /** The reason in English. */
  reason: string;
  messageId?: ErrorMessageKey;
  values?: MessageValues;
}

export function refusal(name: string, reason: Said | AppError): Refusal {
  const out: Refusal = {
    name,
    reason: reason instanceof AppError ? reason.message : reason.english,
  };
  const id = reason instanceof AppError ? reason.messageId : reason.id;
  if (id !== undefined) out.messageId = id;
  if (reason.values !== undefined) out.values = reason.values;
  return out;
}

/**
 * "Nothing was imported", after every reason: one refusal's in the page's language, several in
 * English (they are listed one by one beside it).
 */
export function nothingImported(refused: readonly Omit<Refusal, 'name'>[]): Said {
  const [only] = refused;
  if (refused.length === 1 && only?.messageId !== undefined) {
    return said('import.nothingImported', {
      reasons: { id: only.messageId, english: only.reason, values: only.values ?? {} },
    });
  }
  if (refused.length === 0) return said('import.nothingAtAll');
  return said('import.nothingImported', { reasons: refused.map((r) => r.reason).join(' ') });
}

/** `base` with the fields of `extra` that are set: an absent one stays absent, not undefined. */
function withDefined(base: IpcError, extra: Partial<IpcError>): IpcError {
  const out = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (value !== undefined) Object.assign(out, { [key]: value });
  }
  return out;
}
