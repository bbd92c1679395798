import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RelayError } from './relay-error';
import { said, type Said } from '../words';

export interface GeneratedImage {
  bytes: Uint8Array;
  mimeType: string;
  revisedPrompt?: string;
}

export interface ImageResult {
  images: GeneratedImage[];
}

/** One entry of an images answer before any download: the bytes, or where to fetch them. */
export type ImageSource =
  | { kind: 'bytes'; bytes: Uint8Array; revisedPrompt?: string }
  | { kind: 'url'; url: string; revisedPrompt?: string };

/** The type of an image by its first bytes, which a relay cannot mislabel. */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  const at = (i: number) => bytes[i];
  if (
    bytes.length >= 8 &&
    at(0) === 0x89 &&
    at(1) === 0x50 &&
    at(2) === 0x4e &&
    at(3) === 0x47 &&
    at(4) === 0x0d &&
    at(5) === 0x0a &&
    at(6) === 0x1a &&
    at(7) === 0x0a
  ) {
    return 'image/png';
  }
  if (bytes.length >= 3 && at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return 'image/webp';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a'))
    return 'image/gif';
  return undefined;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function decodeBase64Image(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || !BASE64.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** Reads the `data` list of an images answer into sources, without fetching anything yet. */
export function readImageSources(body: unknown, host: string): ImageSource[] {
  const bad = (reason: Said) =>
    new RelayError('bad_response', said('relay.images.unusable', { host, reason }));
  if (body === null || typeof body !== 'object') throw bad(said('relay.why.notJsonObject'));
  const data = (body as Record<string, unknown>).data;
  if (!Array.isArray(data) || data.length === 0) throw bad(said('relay.why.noImage'));
  return data.map((entry, position): ImageSource => {
    if (entry === null || typeof entry !== 'object')
      throw bad(said('relay.why.entryNotObject', { position }));
    const e = entry as Record<string, unknown>;
    const revisedPrompt =
      typeof e.revised_prompt === 'string' && e.revised_prompt !== ''
        ? e.revised_prompt
        : undefined;
    const extra = revisedPrompt === undefined ? {} : { revisedPrompt };
    if (typeof e.b64_json === 'string' && e.b64_json !== '') {
      const bytes = decodeBase64Image(e.b64_json);
      if (bytes === undefined) throw bad(said('relay.why.entryNotBase64', { position }));
      return { kind: 'bytes', bytes, ...extra };
    }
    if (typeof e.url === 'string' && e.url !== '') {
      const dataUrl = /^data:image\/[a-z0-9.+-]+;base64,(.*)$/is.exec(e.url);
      if (dataUrl) {
        const bytes = decodeBase64Image(dataUrl[1] as string);
        if (bytes === undefined) throw bad(said('relay.why.entryDataLink', { position }));
        return { kind: 'bytes', bytes, ...extra };
      }
      return { kind: 'url', url: e.url, ...extra };
    }
    throw bad(said('relay.why.entryNoImage', { position }));
  });
}

/** IPv6 global unicast: every public IPv6 address is in it; anything outside is special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why an address is not an ordinary public one (ipaddr.js's name for its range: `loopback`,
 * `private`, `linkLocal`, `ipv4Mapped`, `rfc6052`, `reserved`, `multicast`…), or undefined when
 * it is public. ipaddr.js covers IANA's IPv4 and IPv6 special-purpose registries; on top of it,
 * an IPv6 address outside 2000::/3 (where all global unicast lives) is refused too, which also
 * covers the deprecated ranges such as IPv4-compatible `::a.b.c.d`.
 */
export function specialRangeOf(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  const ip = ipaddr.parse(bare);
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return 'outside global unicast';
  return undefined;
}

/** RFC 6761: `localhost` and every name under it is this machine, whatever DNS says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The refusal of a link to an address that is not on the public internet. */
export function notPublic(host: string, address: string, range: string): RelayError {
  return new RelayError(
    'bad_response',
    host === address
      ? said('relay.image.notPublic', { host, range })
      : said('relay.image.notPublicResolved', { host, address, range }),
  );
}

/**
 * Checks a link to an image before main fetches it. A link to the relay's own origin (scheme,
 * host and port) is fetched as the relay's other answers are. Any other link must be `https` to
 * a name or a public address: never another port of the relay's host, a loopback, private,
 * link-local or other special-purpose address named literally, or `localhost`. Names are
 * checked again, by the addresses they resolve to, as the connection is made
 * (`createImageFetch`).
 */
export function checkImageUrl(link: string, relayOrigin: string): URL {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new RelayError('bad_response', said('relay.image.invalidLink'));
  }
  if (url.username !== '' || url.password !== '') {
    throw new RelayError('bad_response', said('relay.image.credentials'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RelayError('bad_response', said('relay.image.scheme', { scheme: url.protocol }));
  }
  if (url.origin === relayOrigin) return url;
  if (url.protocol === 'http:') {
    throw new RelayError('bad_response', said('relay.image.unencrypted', { host: url.host }));
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isLocalhostName(hostname)) throw notPublic(url.host, url.host, 'loopback');
  if (isIP(hostname) !== 0) {
    const range = specialRangeOf(hostname);
    if (range !== undefined) throw notPublic(url.host, url.host, range);
  }
  return url;
}

/** Resolves a host name to its addresses; `dns.lookup` in the app, a table in tests. */
export type ResolveHost = (hostname: string) => Promise<string[]>;
