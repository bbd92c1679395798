/**
 * Errors the demo relay answers with, always in the canonical body of wire-conventions.md §7:
 * `{"error":{"message","type","param","code"}}`.
 */

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** An error that becomes an HTTP answer with the canonical error body. */
export class RelayHttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  /** Extra response headers, e.g. `Retry-After` on a 429 or `Allow` on a 405. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    details: {
      type?: string;
      code?: string | null;
      param?: string | null;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'RelayHttpError';
    this.status = status;
    this.type = details.type ?? defaultsFor(status).type;
    this.code = details.code === undefined ? defaultsFor(status).code : details.code;
    this.param = details.param ?? null;
    this.headers = details.headers ?? {};
  }

  toBody(): ErrorBody {
    return errorBody(this.message, this.type, this.code, this.param);
  }
}

export function errorBody(
  message: string,
  type: string,
  code: string | null,
  param: string | null,
): ErrorBody {
  return { error: { message, type, param, code } };
}

interface StatusDefaults {
  type: string;
  code: string | null;
  message: string;
}

// One entry per status the relay can send, so injected faults get the same bodies as real ones.
const STATUS_DEFAULTS: Record<number, StatusDefaults> = {
  400: { type: 'invalid_request_error', code: 'invalid_value', message: 'The request is invalid.' },
  401: {
    type: 'authentication_error',
    code: 'invalid_api_key',
    message: 'Incorrect API key provided.',
  },
  402: {
    type: 'billing_error',
    code: 'insufficient_balance',
    message:
      'The balance of this API key is too low for this request. Top it up in the relay console.',
  },
  403: {
    type: 'permission_error',
    code: 'forbidden',
    message: 'This API key may not use this resource.',
  },
  404: { type: 'invalid_request_error', code: 'not_found', message: 'Not found.' },
  405: {
    type: 'invalid_request_error',
    code: 'method_not_allowed',
    message: 'Method not allowed.',
  },
  413: {
    type: 'invalid_request_error',
    code: 'request_too_large',
    message: 'The request body is too large.',
  },
  429: {
    type: 'rate_limit_error',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests. Wait and retry.',
  },
  500: {
    type: 'server_error',
    code: 'internal_error',
    message: 'The demo relay failed internally.',
  },
  502: {
    type: 'server_error',
    code: 'bad_gateway',
    message: 'The relay could not reach the model.',
  },
  503: {
    type: 'server_error',
    code: 'service_unavailable',
    message: 'The relay is overloaded or down. Retry later.',
  },
  504: {
    type: 'server_error',
    code: 'gateway_timeout',
    message: 'The model did not answer in time.',
  },
};

export function defaultsFor(status: number): StatusDefaults {
  return (
    STATUS_DEFAULTS[status] ??
    (status >= 500
      ? {
          type: 'server_error',
          code: 'server_error',
          message: `The relay failed with status ${status}.`,
        }
      : {
          type: 'invalid_request_error',
          code: null,
          message: `The request failed with status ${status}.`,
        })
  );
}

/** A 400 naming the offending field, the most common error the relay sends. */
export function invalidRequest(
  param: string | null,
  message: string,
  code = 'invalid_value',
): RelayHttpError {
  return new RelayHttpError(400, message, { type: 'invalid_request_error', code, param });
}
