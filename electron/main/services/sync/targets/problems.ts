/**
 * A storage's failures in words the person can act on: each HTTP status and network error a
 * WebDAV or S3 server gives, and each file-system error a folder gives, becomes a `TargetError`
 * whose sentence says what happened and what fixes it.
 */
import { findCode } from '../../relay/http-errors';
import { said } from '../../words';
import { TargetError } from './target';

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A refusal by HTTP status, from a server at `host`; `where` names the folder or bucket. */
export function httpProblem(
  status: number,
  host: string,
  where: string,
  size?: number,
  detail?: string,
): TargetError {
  if (status === 401) return new TargetError('auth', said('sync.target.auth', { host }), status);
  if (status === 403)
    return new TargetError('forbidden', said('sync.target.forbidden', { host, where }), status);
  if (status === 404 || status === 409)
    return new TargetError('not_found', said('sync.target.notFound', { host, where }), status);
  if (status === 507)
    return new TargetError('full', said('sync.target.full', { host, status }), status);
  if (status === 413)
    return new TargetError(
      'too_large',
      said('sync.target.tooLarge', { host, size: Math.ceil((size ?? 0) / 1024), status }),
      status,
    );
  if (status === 429 || status === 503)
    return new TargetError('rate_limited', said('sync.target.busy', { host, status }), status);
  if (status >= 500)
    return new TargetError('server', said('sync.target.server', { host, status }), status);
  return new TargetError(
    'unexpected',
    said('sync.target.unexpected', { host, detail: detail ?? `HTTP ${status}` }),
    status,
  );
}

/** A request that got no answer: timed out, name not found, refused, reset, or a TLS failure. */
export function networkProblem(error: unknown, host: string, timeoutSeconds: number): TargetError {
  if (error instanceof TargetError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new TargetError(
      'timeout',
      said('sync.target.timeout', { host, seconds: timeoutSeconds }),
    );
  const code = findCode(error) ?? 'unknown';
  if (/CERT|TLS|SSL|EPROTO|UNABLE_TO_VERIFY|SELF_SIGNED/i.test(code))
    return new TargetError('tls', said('sync.target.tls', { host, code }));
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || /TIMED_OUT/.test(code))
    return new TargetError(
      'timeout',
      said('sync.target.timeout', { host, seconds: timeoutSeconds }),
    );
  return new TargetError('unreachable', said('sync.target.unreachable', { host, code }));
}

/** A folder's file-system error (ENOENT, EACCES, ENOSPC…), naming the folder. */
export function folderProblem(error: unknown, path: string): TargetError {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? 'EIO';
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new TargetError('not_found', said('sync.target.folderMissing', { path }));
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new TargetError('not_writable', said('sync.target.folderNotWritable', { path, code }));
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new TargetError('full', said('sync.target.folderFull', { path }));
  if (code === 'EFBIG')
    return new TargetError('too_large', said('sync.target.folderTooLarge', { path }));
  return new TargetError('unexpected', said('sync.target.folderFailed', { path, code }));
}
