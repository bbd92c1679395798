import { isIP } from 'node:net';
import { RelayError } from './relay-error';

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
  const bad = (why: string) =>
    new RelayError('bad_response', `${host} sent an images answer that cannot be used: ${why}.`);
  if (body === null || typeof body !== 'object') throw bad('the answer is not a JSON object');
  const data = (body as Record<string, unknown>).data;
  if (!Array.isArray(data) || data.length === 0) throw bad('there is no image in its "data" list');
  return data.map((entry, position): ImageSource => {
    if (entry === null || typeof entry !== 'object')
      throw bad(`entry ${position} is not an object`);
    const e = entry as Record<string, unknown>;
    const revisedPrompt =
      typeof e.revised_prompt === 'string' && e.revised_prompt !== ''
        ? e.revised_prompt
        : undefined;
    const extra = revisedPrompt === undefined ? {} : { revisedPrompt };
    if (typeof e.b64_json === 'string' && e.b64_json !== '') {
      const bytes = decodeBase64Image(e.b64_json);
      if (bytes === undefined) throw bad(`entry ${position} is not valid base64`);
      return { kind: 'bytes', bytes, ...extra };
    }
    if (typeof e.url === 'string' && e.url !== '') {
      const dataUrl = /^data:image\/[a-z0-9.+-]+;base64,(.*)$/is.exec(e.url);
      if (dataUrl) {
        const bytes = decodeBase64Image(dataUrl[1] as string);
        if (bytes === undefined)
          throw bad(`entry ${position} is a data: link that is not valid base64`);
        return { kind: 'bytes', bytes, ...extra };
      }
      return { kind: 'url', url: e.url, ...extra };
    }
    throw bad(`entry ${position} has neither b64_json nor url`);
  });
}

export function isPrivateAddress(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const version = isIP(host);
  if (version === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (version === 6) {
    return (
      host === '::' ||
      host === '::1' ||
      /^f[cd]/.test(host) ||
      /^fe[89ab]/.test(host) ||
      host.startsWith('::ffff:')
    );
  }
  return false;
}

/**
 * Checks a link to an image before main fetches it: `https`, or `http` only to the relay's own
 * host; never another loopback, private or link-local address named literally.
 */
export function checkImageUrl(link: string, relayHostname: string): URL {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new RelayError(
      'bad_response',
      'The relay sent an image link that is not a valid address.',
    );
  }
  const sameHost = url.hostname.toLowerCase() === relayHostname.toLowerCase();
  if (url.username !== '' || url.password !== '') {
    throw new RelayError(
      'bad_response',
      'The relay sent an image link with credentials in it; it was not fetched.',
    );
  }
  if (url.protocol === 'http:' && !sameHost) {
    throw new RelayError(
      'bad_response',
      `The relay sent an unencrypted (http) image link to another host (${url.host}); it was not fetched.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RelayError(
      'bad_response',
      `The relay sent an image link of a kind that is not fetched (${url.protocol}).`,
    );
  }
  if (!sameHost && isPrivateAddress(url.hostname)) {
    throw new RelayError(
      'bad_response',
      `The relay sent an image link to a private or local address (${url.host}); it was not fetched.`,
    );
  }
  return url;
}

/** Resolves a host name to its addresses; `dns.lookup` in the app, a table in tests. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/**
 * Refuses a link whose host name resolves to a private, loopback or link-local address: a
 * literal check alone would let `http://internal.example` reach the local network. (Fetch
 * resolves the name again; a DNS answer that changes in between is not caught here.)
 */
export async function checkResolvedHost(
  url: URL,
  relayHostname: string,
  resolve: ResolveHost,
): Promise<void> {
  if (
    url.hostname.toLowerCase() === relayHostname.toLowerCase() ||
    isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0
  )
    return;
  let addresses: string[];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    // Fetch will fail on the same name and say so as a network error.
    return;
  }
  const inside = addresses.find((address) => isPrivateAddress(address));
  if (inside !== undefined) {
    throw new RelayError(
      'bad_response',
      `The relay sent an image link to ${url.host}, which is on a private or local network (${inside}); it was not fetched.`,
    );
  }
}
