/**
 * What the renderer knows of a failed call: the bridge rejects with the router's typed error
 * (`kind`, `message`, `status`…). Read by shape, since the renderer loads no code from main.
 */
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
      message: typeof message === 'string' && message !== '' ? message : 'Something went wrong.',
      ...(typeof status === 'number' ? { status } : {}),
    };
  }
  return { kind: 'internal', message: String(error) };
}

/** A heading for each kind of failure, above the precise message main gave. */
export function failureTitle(failure: Pick<FailureInfo, 'kind' | 'status'>): string {
  switch (failure.kind) {
    case 'bad_request':
      return failure.status === undefined
        ? 'The address is not valid'
        : 'The relay refused the request';
    case 'unauthorized':
      return 'The key was refused';
    case 'insufficient_balance':
      return 'The balance is used up';
    case 'rate_limited':
      return 'Too many requests';
    case 'server_error':
      return 'The relay had a problem';
    case 'network':
      return 'The relay could not be reached';
    case 'timeout':
      return 'The relay did not answer in time';
    case 'bad_response':
      return 'This does not look like a Model Relay';
    case 'aborted':
      return 'The request was cancelled';
    case 'invalid_request':
      return 'Check the form';
    case 'not_found':
      return 'Not found';
    default:
      return 'Something went wrong';
  }
}
