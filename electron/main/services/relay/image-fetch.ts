/**
 * The fetch that downloads image links pointing away from the relay.
 *
 * Main runs inside the person's network, so a link is refused when its name resolves to an
 * address that is not on the public internet. Checking the name first and then fetching it
 * leaves a gap: the fetch resolves the name again, and a DNS server that answers a public
 * address to the check and 127.0.0.1 (or the router, or the cloud metadata address) to the fetch
 * gets main to send the request inside (DNS rebinding). The check must therefore happen in the
 * connection itself:
 *
 * - Electron's `net.fetch` (Chromium's network stack, which the app uses for relay requests)
 *   offers no hook between name resolution and connect: no `lookup` option, no access to the
 *   socket, and `session.resolveHost` answers from a resolution of its own. It cannot pin an
 *   address for an https request either, since the certificate must match the name.
 * - Node's `http.request`/`https.request` take a `lookup` function that the socket calls to
 *   resolve the name it is about to connect to. Here that function resolves, refuses any
 *   non-public answer, and hands the socket only the addresses it checked, so the connection
 *   goes to an address that passed; TLS still checks the certificate against the name.
 *
 * So these downloads go through Node, at the cost of what Chromium's stack adds: they use Node's
 * built-in root certificates rather than the system's, and no system proxy. Links to the relay's
 * own origin keep using the app's fetch (`relay-client.ts`). Redirects are not followed here:
 * the caller checks and fetches each hop itself.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { FetchLike } from './relay-client';
import { notPublic, specialRangeOf, type ResolveHost } from './images';

export interface ImageFetchOptions {
  /** Resolves a name to its addresses; `dns.lookup` in the app. */
  resolveHost: ResolveHost;
  /** Why an address may not be connected to, or undefined when it may (`specialRangeOf`). */
  specialRange?: (address: string) => string | undefined;
}

/** Status codes whose responses have no body (a `Response` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

export function createImageFetch(options: ImageFetchOptions): FetchLike {
  const specialRange = options.specialRange ?? specialRangeOf;

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    options.resolveHost(hostname).then(
      (found) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6;
        const addresses = found.filter(
          (address) => !family || isIP(address) === lookupOptions.family,
        );
        for (const address of addresses) {
          const range = specialRange(address);
          if (range !== undefined) {
            callback(notPublic(hostname, address, range), '', 0);
            return;
          }
        }
        if (addresses.length === 0) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
            code: 'ENOTFOUND',
            hostname,
          });
          callback(error, '', 0);
          return;
        }
        if (lookupOptions.all) {
          const all = addresses.map((address) => ({ address, family: isIP(address) }));
          (callback as unknown as (e: null, a: typeof all) => void)(null, all);
        } else {
          const first = addresses[0] as string;
          callback(null, first, isIP(first));
        }
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };

  return (link, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(link);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const method = init.method ?? 'GET';
      const request = send(
        url,
        {
          method,
          headers: { accept: 'image/*' },
          lookup,
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (answer: IncomingMessage) => resolve(toResponse(answer, method)),
      );
      request.on('error', reject);
      request.end();
    });
}

function toResponse(answer: IncomingMessage, method: string): Response {
  const status = answer.statusCode ?? 502;
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  if (NULL_BODY.has(status) || method === 'HEAD') {
    answer.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(answer) as ReadableStream<Uint8Array>, { status, headers });
}
