import { RelayError } from './relay-error';

export type RelayEndpoint = 'chat/completions' | 'embeddings' | 'models' | 'images/generations';

export interface ResolvedBaseUrl {
  /** `<origin><mount>`: what every endpoint path is appended to (before `/v1`). */
  root: string;
  origin: string;
  /** A path the relay is mounted under (`/openai`), or '' when it sits at the host's root. */
  mount: string;
  protocol: 'http:' | 'https:';
  hostname: string;
}

function invalid(input: string, why: string): RelayError {
  const shown = input.length > 200 ? `${input.slice(0, 200)}…` : input;
  return new RelayError('bad_request', `The address "${shown}" ${why}`, { param: 'baseUrl' });
}

/**
 * Reads a base address the way people paste it.
 *
 * `https://h`, `https://h/`, `https://h/v1` and `https://h/v1/` all mean one service; a path
 * before `/v1` is a mount point and is kept (wire-conventions.md §1). Credentials, a query or a
 * fragment in the address are refused rather than silently dropped or sent.
 */
export function resolveBaseUrl(input: string): ResolvedBaseUrl {
  const trimmed = input.trim();
  if (trimmed === '')
    throw invalid(
      input,
      'is empty: give the address of the relay, such as https://relay.example.com',
    );
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw invalid(
      input,
      'is not a valid web address: it should look like https://relay.example.com',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(
      input,
      `uses ${url.protocol.replace(/:$/, '')}: only http and https addresses are supported`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid(
      input,
      'contains a user name or password: put the API key in the key field instead',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw invalid(
      input,
      'contains a query (?…) or a fragment (#…): give only the host and, if any, its path',
    );
  }
  let mount = url.pathname.replace(/\/+$/, '');
  if (mount.endsWith('/v1')) mount = mount.slice(0, -'/v1'.length).replace(/\/+$/, '');
  return {
    root: `${url.origin}${mount}`,
    origin: url.origin,
    mount,
    protocol: url.protocol,
    hostname: url.hostname,
  };
}

/** The URL of one endpoint: always `<origin><mount>/v1/<endpoint>`, never `/v1/v1`. */
export function endpointUrl(base: ResolvedBaseUrl, endpoint: RelayEndpoint): string {
  return `${base.root}/v1/${endpoint}`;
}
