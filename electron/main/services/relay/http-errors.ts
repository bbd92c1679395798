import type { RelayErrorKind } from '../../../shared/relay-errors';
import { said, type Said } from '../words';
import { RelayError } from './relay-error';

/** Removes the API key, and anything shaped like one, from text that came from outside. */
export type Redact = (text: string) => string;

const KEY_SHAPED = /\b(?:sk|pk|rk)-[A-Za-z0-9_*.-]{6,}/g;

export function makeRedactor(getKeys: () => readonly string[]): Redact {
  return (text) => {
    let out = text;
    for (const key of getKeys()) {
      // Short keys would redact ordinary words; keys are never that short in practice.
      if (key.length >= 4) out = out.split(key).join('[redacted]');
    }
    return out.replace(KEY_SHAPED, '[redacted]');
  };
}

/** What an error body said, whatever shape the relay gave it. */
export interface ErrorPayload {
  message?: string | undefined;
  type?: string | undefined;
  param?: string | undefined;
  code?: string | undefined;
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Reads an error object: canonical `{"error":{message,type,param,code}}`, and the variants relays
 * send (`{"error":"text"}`, `{"message":…}`, FastAPI's `{"detail":…}`, numeric codes).
 */
export function readErrorPayload(body: unknown): ErrorPayload | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const inner = record.error;
  if (typeof inner === 'string') return { message: inner };
  if (inner !== null && typeof inner === 'object') {
    const e = inner as Record<string, unknown>;
    return {
      message: asText(e.message) ?? asText(e.msg),
      type: asText(e.type),
      param: asText(e.param),
      code: asText(e.code),
    };
  }
  const detail = record.detail;
  if (typeof detail === 'string') return { message: detail };
  if (typeof record.message === 'string') {
    return { message: record.message, type: asText(record.type), code: asText(record.code) };
  }
  return undefined;
}

const QUOTA_CODE =
  /insufficient_(user_)?quota|insufficient_balance|quota_exceeded|billing|balance/i;

export function looksLikeHtml(text: string): boolean {
  const head = text.trimStart().slice(0, 200).toLowerCase();
  return (
    head.startsWith('<!doctype') ||
    head.startsWith('<html') ||
    (head.startsWith('<') && /<(head|body|title|h1|center|p)\b/.test(head))
  );
}

function defaultMessage(kind: RelayErrorKind, status: number, url: string): Said {
  switch (kind) {
    case 'bad_request':
      return said('relay.http.badRequest', { status });
    case 'unauthorized':
      return status === 403 ? said('relay.http.forbidden') : said('relay.http.unauthorized');
    case 'insufficient_balance':
      return said('relay.http.insufficientBalance');
    case 'rate_limited':
      return said('relay.http.rateLimited');
    case 'server_error':
      return said('relay.http.serverError', { status });
    case 'timeout':
      return said('relay.http.timeout', { status });
    default:
      return said('relay.http.notARelay', { url, status });
  }
}

function kindForStatus(status: number, payload: ErrorPayload | undefined): RelayErrorKind {
  const codeOrType = `${payload?.code ?? ''} ${payload?.type ?? ''}`;
  if (status === 401) return 'unauthorized';
  if (status === 402) return 'insufficient_balance';
  if (status === 403) return QUOTA_CODE.test(codeOrType) ? 'insufficient_balance' : 'unauthorized';
  if (status === 429) return QUOTA_CODE.test(codeOrType) ? 'insufficient_balance' : 'rate_limited';
  if (status === 408) return 'timeout';
  if (status === 404) return 'bad_response';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'bad_request';
  return 'bad_response';
}

/** Turns an HTTP error answer (status and body text) into the RelayError a person can act on. */
export function errorFromHttp(
  status: number,
  bodyText: string,
  url: string,
  redact: Redact,
  retryAfterMs?: number,
): RelayError {
  let payload: ErrorPayload | undefined;
  let html = false;
  const trimmed = bodyText.trim();
  if (trimmed !== '') {
    try {
      payload = readErrorPayload(JSON.parse(trimmed));
    } catch {
      html = looksLikeHtml(trimmed);
    }
  }
  const kind = kindForStatus(status, payload);
  // The relay's own words are shown as it sent them; the app's own are in the person's language.
  let message: string | Said =
    payload?.message !== undefined ? redact(payload.message) : defaultMessage(kind, status, url);
  if (html && kind !== 'bad_response') {
    message = said('relay.http.webPageBehind', { reason: defaultMessage(kind, status, url) });
  } else if (html) {
    message = said('relay.http.webPageNotRelay', { url, status });
  }
  if (typeof message === 'string' && message.length > 1000) message = `${message.slice(0, 1000)}…`;
  return new RelayError(kind, message, {
    status,
    param: payload?.param !== undefined ? redact(payload.param) : undefined,
    code: payload?.code !== undefined ? redact(payload.code) : undefined,
    retryAfterMs: kind === 'rate_limited' ? retryAfterMs : undefined,
  });
}

/**
 * An error object in a successful answer: inside a stream that had already begun, or as the
 * whole body of a 200. There is no status to go by, so the code and type decide the kind.
 */
export function errorFromPayload(
  payload: ErrorPayload | undefined,
  redact: Redact,
  partialText: string,
): RelayError {
  const code = payload?.code;
  const hint = `${code ?? ''} ${payload?.type ?? ''}`;
  const numeric = code !== undefined && /^\d{3}$/.test(code) ? Number(code) : undefined;
  let kind: RelayErrorKind = 'server_error';
  if (numeric !== undefined && numeric >= 400) kind = kindForStatus(numeric, payload);
  else if (QUOTA_CODE.test(hint)) kind = 'insufficient_balance';
  else if (/rate_limit/i.test(hint)) kind = 'rate_limited';
  else if (/invalid_api_key|authentication/i.test(hint)) kind = 'unauthorized';
  else if (/invalid_request/i.test(hint)) kind = 'bad_request';
  const message =
    payload?.message !== undefined
      ? said('relay.reported', { detail: redact(payload.message) })
      : said('relay.reportedNothing');
  return new RelayError(kind, message, {
    code: code !== undefined ? redact(code) : undefined,
    param: payload?.param !== undefined ? redact(payload.param) : undefined,
    partialText,
  });
}

/** Walks an error and its causes for the first system or library error code. */
export function findCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || error === null || typeof error !== 'object') return undefined;
  const record = error as { code?: unknown; cause?: unknown; message?: unknown; errors?: unknown };
  if (typeof record.code === 'string' && record.code !== '') return record.code;
  if (typeof record.message === 'string') {
    // Electron's net.fetch reports Chromium's net errors only in the message.
    const match = /net::(ERR_[A-Z_]+)/.exec(record.message);
    if (match) return match[1];
    // Fetch refuses ports that belong to other protocols (9, 25, 6000…) before connecting.
    if (/^bad port$/i.test(record.message)) return 'BAD_PORT';
  }
  // Connecting to every address of a name ("happy eyeballs") fails with one error per address.
  if (Array.isArray(record.errors)) {
    for (const inner of record.errors) {
      const code = findCode(inner, depth + 1);
      if (code !== undefined) return code;
    }
  }
  return findCode(record.cause, depth + 1);
}

/**
 * Why a secure connection failed, and what to do. Certificates are checked as the system's
 * browser checks them (Electron's net.fetch uses Chromium's verifier and the system's trust
 * store), so a relay with a certificate from a private CA needs that CA in the system's store.
 */
function tlsMessage(host: string, code: string): Said {
  if (/DATE_INVALID|EXPIRED|NOT_YET_VALID/i.test(code)) {
    return said('relay.tls.expired', { host, code });
  }
  if (/COMMON_NAME_INVALID|ALTNAME/i.test(code)) {
    return said('relay.tls.otherName', { host, code });
  }
  return said('relay.tls.untrusted', { host, code });
}

/** Maps a failure to connect or to read into a `network` RelayError that says which failure. */
export function errorFromNetwork(error: unknown, url: string, partialText?: string): RelayError {
  const code = findCode(error);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the whole url
  }
  let message: Said;
  if (/redirect/i.test(error instanceof Error ? error.message : String(error))) {
    // Electron's net.fetch with `redirect: 'manual'` rejects at the redirect (relay-client.ts).
    return new RelayError('bad_response', said('relay.network.redirect', { host }), {
      code: 'redirect_refused',
      partialText,
    });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ERR_NAME_NOT_RESOLVED') {
    message = said('relay.network.notFound', { host });
  } else if (code === 'ECONNREFUSED' || code === 'ERR_CONNECTION_REFUSED') {
    message = said('relay.network.refused', { host });
  } else if (
    code === 'ECONNRESET' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'ERR_CONNECTION_RESET' ||
    code === 'ERR_CONNECTION_CLOSED' ||
    code === 'EPIPE'
  ) {
    message = said('relay.network.closed', { host });
  } else if (code === 'BAD_PORT' || code === 'ERR_UNSAFE_PORT') {
    message = said('relay.network.badPort', { host });
  } else if (code !== undefined && /PROXY|TUNNEL_CONNECTION/i.test(code)) {
    message = said('relay.network.proxy', { host, code });
  } else if (code !== undefined && /CERT|TLS|SSL|EPROTO|UNABLE_TO_VERIFY|SELF_SIGNED/i.test(code)) {
    message = tlsMessage(host, code);
  } else if (
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'ERR_CONNECTION_TIMED_OUT'
  ) {
    return new RelayError('timeout', said('relay.network.timedOut', { host }), {
      code,
      partialText,
    });
  } else if (
    code === 'ENETUNREACH' ||
    code === 'EHOSTUNREACH' ||
    code === 'ERR_INTERNET_DISCONNECTED' ||
    code === 'ERR_ADDRESS_UNREACHABLE'
  ) {
    message = said('relay.network.unreachable', { host });
  } else {
    message =
      code !== undefined
        ? said('relay.network.unreachableCode', { host, code })
        : said('relay.network.unreachableAny', { host });
  }
  return new RelayError('network', message, { code, partialText });
}
