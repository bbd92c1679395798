import ipaddr from 'ipaddr.js';
import { RelayError } from './relay-error';
import { said } from '../words';

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

/**
 * An address as it may be shown in a message or a log line: a user name and password, a query
 * and a fragment are cut out (they may hold a secret), and a long one is shortened.
 */
export function displayAddress(input: string): string {
  let shown = input.trim();
  // Parsed by hand rather than with URL, which refuses exactly the malformed input that most
  // needs showing; `scheme://userinfo@` and everything from the first `?` or `#` go.
  shown = shown.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
  const cut = shown.search(/[?#]/);
  if (cut >= 0) shown = `${shown.slice(0, cut)}${shown[cut]}…`;
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

function invalid(
  input: string,
  why: 'empty' | 'notUrl' | 'scheme' | 'credentials' | 'query',
  scheme = '',
): RelayError {
  const shown = displayAddress(input);
  return new RelayError(
    'bad_request',
    said(`relay.address.${why}` as const, { address: shown, scheme }),
    {
      param: 'baseUrl',
    },
  );
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
  if (trimmed === '') throw invalid(input, 'empty');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw invalid(input, 'notUrl');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(input, 'scheme', url.protocol.replace(/:$/, ''));
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid(input, 'credentials');
  }
  if (url.search !== '' || url.hash !== '') {
    throw invalid(input, 'query');
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

/**
 * Host names that stay inside this machine or the local network by convention: RFC 6761's
 * `.localhost` and `.test` (never delegated on the internet; local development setups map it to
 * this machine), mDNS's `.local`, RFC 8375's `.home.arpa`, and the common private suffixes.
 */
const LOCAL_SUFFIXES = [
  '.localhost',
  '.test',
  '.local',
  '.lan',
  '.internal',
  '.home.arpa',
  '.intranet',
];
/** ipaddr.js ranges that never leave this machine or the local network. */
const LOCAL_RANGES = new Set([
  'loopback',
  'private',
  'linkLocal',
  'uniqueLocal',
  'carrierGradeNat',
]);

/**
 * Whether a host is this machine or on the local network: loopback and private-range addresses
 * (IPv4, IPv6, and IPv4 inside IPv6), `localhost`, names under the local-use suffixes, and
 * single-label names (an intranet host such as `http://ollama:11434`). A key sent over plain
 * http to such a host does not cross the internet.
 */
export function isLocalNetworkHost(hostname: string): boolean {
  const name = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (ipaddr.isValid(name)) {
    let ip = ipaddr.parse(name);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
      ip = (ip as ipaddr.IPv6).toIPv4Address();
    }
    return LOCAL_RANGES.has(ip.range());
  }
  if (name === 'localhost' || !name.includes('.')) return true;
  return LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/** Whether a key sent to this address would cross the network unencrypted. */
export function sendsKeyInClear(base: ResolvedBaseUrl): boolean {
  return base.protocol === 'http:' && !isLocalNetworkHost(base.hostname);
}
