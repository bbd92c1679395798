/**
 * What the renderer knows of a failed call: the bridge rejects with the router's typed error
 * (`kind`, `message`, `status`…). Read by shape, since the renderer loads no code from main.
 */
import { t, type MessageKey } from '../i18n/i18n';

export interface FailureInfo {
  kind: string;
  message: string;
  status?: number | undefined;
}

export function failureOf(error: unknown): FailureInfo {
  if (error !== null && typeof error === 'object') {
    const { kind, message, status } = error as Record<string, unknown>;
    return {
      kind: typeof kind === 'string' ? kind : 'internal',
      message: typeof message === 'string' && message !== '' ? message : t('failure.noMessage'),
      ...(typeof status === 'number' ? { status } : {}),
    };
  }
  return { kind: 'internal', message: String(error) };
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
