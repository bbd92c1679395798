import { useLingui } from '@lingui/react';
import type { IpcError } from '../../../electron/shared/ipc/define';
import { i18n, t, type MessageKey } from '../i18n/i18n';

/**
 * What the renderer knows of a failed call: the bridge rejects with the router's typed error
 * (`kind`, `message`, `status`…). Read by shape, since the renderer loads no code from main.
 * `message` is in the page's language at the moment of the failure.
 */
export interface FailureInfo {
  kind: string;
  message: string;
  status?: number | undefined;
  /** Main's message key and values, kept so a view shows it in the language of the moment. */
  messageId?: string | undefined;
  values?: MainMessage['values'];
  parts?: MainMessage['parts'];
  /** The field of the request that a refused request names (the schema's `param`). */
  param?: string | undefined;
}

/**
 * Main's words as they cross to the page: the message's key in main's `errors` catalogue
 * (`electron/shared/messages`) and its values, with the English text as `message`. Errors kept
 * by the previous release have the text only.
 */
export interface MainMessage {
  message: string;
  messageId?: string | undefined;
  values?: IpcError['values'];
  /** Several messages said at once (each file a sending refuses): shown one after the other. */
  parts?: IpcError['parts'];
}

function plainValue(value: unknown): string | number {
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') {
    const { id, values } = value as { id?: unknown; values?: unknown };
    if (typeof id === 'string') return formatted(id, values) ?? '';
  }
  return String(value);
}

/** The message `id` in the page's language, or undefined when its catalogue is not in yet. */
function formatted(id: string, values: unknown): string | undefined {
  if (i18n.messages[id] === undefined) return undefined;
  const plain =
    values !== null && typeof values === 'object'
      ? Object.fromEntries(
          Object.entries(values as Record<string, unknown>).map(([name, value]) => [
            name,
            plainValue(value),
          ]),
        )
      : {};
  return i18n._(id, plain);
}

/**
 * Main's message in the language the page shows now: formatted from its key and values; its
 * English text when it has no key (the relay's own words, data of the previous release) or
 * before main's catalogue has arrived.
 */
export function mainMessageText(error: MainMessage): string {
  if (error.parts !== undefined && error.parts.length > 0)
    return error.parts.map((part) => mainMessageText(part)).join(' ');
  return (error.messageId && formatted(error.messageId, error.values)) || error.message;
}

/**
 * `mainMessageText` for a component that shows a stored error (a failed reply, a failed run): it
 * re-renders, and the error follows, when the language changes.
 */
export function useMainMessageText(): typeof mainMessageText {
  useLingui();
  return mainMessageText;
}

export function failureOf(error: unknown): FailureInfo {
  if (error !== null && typeof error === 'object') {
    const { kind, message, status, messageId, values, parts, param } = error as Record<
      string,
      unknown
    >;
    const keyed =
      typeof message === 'string' && message !== '' && typeof messageId === 'string'
        ? {
            messageId,
            ...(values !== null && typeof values === 'object'
              ? { values: values as NonNullable<MainMessage['values']> }
              : {}),
          }
        : {};
    const said =
      typeof message === 'string' && message !== '' && Array.isArray(parts)
        ? { ...keyed, parts: parts as NonNullable<MainMessage['parts']> }
        : keyed;
    const text =
      typeof message === 'string' && message !== ''
        ? mainMessageText({ message, ...said })
        : t('failure.noMessage');
    return {
      kind: typeof kind === 'string' ? kind : 'internal',
      message: text,
      ...(typeof status === 'number' ? { status } : {}),
      ...said,
      ...(typeof param === 'string' ? { param } : {}),
    };
  }
  return { kind: 'internal', message: String(error) };
}

/**
 * What a refused request says of one field, for the form to show beside it: the schema's own
 * words, without "The request to … is not valid: field:" before them.
 */
export function fieldProblemText(
  failure: Pick<FailureInfo, 'message' | 'messageId' | 'values'>,
): string {
  const detail = failure.values?.['detail'];
  if (failure.messageId === 'form.requestInvalidAt' && detail !== undefined) {
    const text = plainValue(detail);
    if (text !== '') return String(text);
  }
  return failure.message.replace(/^The request to \S+ is not valid: \S+: /, '');
}

const FAILURE_TITLES = {
  bad_request: 'failure.bad_request',
  unauthorized: 'failure.unauthorized',
  insufficient_balance: 'failure.insufficient_balance',
  rate_limited: 'failure.rate_limited',
  server_error: 'failure.server_error',
  network: 'failure.network',
  timeout: 'failure.timeout',
  bad_response: 'failure.bad_response',
  aborted: 'failure.aborted',
  invalid_request: 'failure.invalid_request',
  not_found: 'failure.not_found',
} as const satisfies Record<string, MessageKey>;

/** A heading for each kind of failure, above the precise message main gave, in the app's language. */
export function failureTitle(failure: Pick<FailureInfo, 'kind' | 'status'>): string {
  // A bad request that never reached a relay (no HTTP status) is an address that does not parse.
  if (failure.kind === 'bad_request' && failure.status === undefined)
    return t('failure.badAddress');
  const key = Object.hasOwn(FAILURE_TITLES, failure.kind)
    ? FAILURE_TITLES[failure.kind as keyof typeof FAILURE_TITLES]
    : 'failure.other';
  return t(key);
}

/** The heading with the HTTP status when there was one: "The relay had a problem (HTTP 503)". */
export function failureHeading(failure: Pick<FailureInfo, 'kind' | 'status'>): string {
  const title = failureTitle(failure);
  return failure.status
    ? t('failure.withStatus', { title, status: String(failure.status) })
    : title;
}
