/**
 * Extra request headers a connection sends with every request to its relay: what gateways such
 * as OpenRouter (`HTTP-Referer`, `X-Title`), Portkey (`x-portkey-*`), Azure-style gateways
 * (`api-key`) or Cloudflare Access (`CF-Access-Client-Id`, `CF-Access-Client-Secret`) ask for.
 *
 * A name is an HTTP token that the app does not set itself and that means something to the
 * connection rather than to one hop of it: never `Authorization` (the key has its own field and
 * its own rules), `Host`, the hop-by-hop headers or the ones each request sets.
 */

/** One extra header; a secret one's value lives in the key store, like the key. */
export interface CustomHeader {
  name: string;
  value: string;
  secret: boolean;
}

export const MAX_HEADER_NAME = 100;
export const MAX_HEADER_VALUE = 8192;

/** RFC 9110 `token`: the characters a header name may use. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Names the app never lets a connection set, with the reason the person is given. */
const REFUSED: Record<string, string> = {
  authorization: 'the API key is sent as Authorization; give it in the key field',
  'proxy-authorization': 'it is meant for a proxy, not the relay',
  host: 'the host comes from the address',
  connection: 'it is a hop-by-hop header, used by the connection itself',
  'keep-alive': 'it is a hop-by-hop header, used by the connection itself',
  'proxy-connection': 'it is a hop-by-hop header, used by the connection itself',
  te: 'it is a hop-by-hop header, used by the connection itself',
  trailer: 'it is a hop-by-hop header, used by the connection itself',
  'transfer-encoding': 'it is a hop-by-hop header, used by the connection itself',
  upgrade: 'it is a hop-by-hop header, used by the connection itself',
  'content-length': 'the app sets it for each request',
  'content-type': 'the app sets it for each request',
  accept: 'the app sets it for each request',
  'accept-encoding': 'the network stack sets it',
  cookie: 'cookies are not sent to relays',
  expect: 'it changes how the request body is sent',
};

/** Why `name` cannot be an extra header's name, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  if (name === '') return 'Give the header a name.';
  if (name.length > MAX_HEADER_NAME) {
    return `A header name is at most ${MAX_HEADER_NAME} characters.`;
  }
  if (!TOKEN.test(name)) {
    return `“${name}” is not a header name: use letters, digits and - (no spaces or colons).`;
  }
  const reason = REFUSED[name.toLowerCase()];
  if (reason !== undefined) return `${name} cannot be set here: ${reason}.`;
  if (/^(sec-|proxy-)/i.test(name)) {
    return `${name} cannot be set here: headers starting with ${name.slice(0, name.indexOf('-') + 1)} belong to the browser or to proxies.`;
  }
  return undefined;
}

/**
 * Why `value` cannot be sent as the value of `name`, or undefined when it can. The message never
 * quotes the value: it may be a secret.
 */
export function headerValueProblem(name: string, value: string): string | undefined {
  if (value === '') return `Give a value for ${name}.`;
  if (value.length > MAX_HEADER_VALUE) {
    return `The value of ${name} is longer than ${MAX_HEADER_VALUE} characters.`;
  }
  // Visible ASCII, spaces and tabs: no line breaks (a second header smuggled in), no NUL.
  if (!/^[\t\x20-\x7e]*$/.test(value)) {
    return `The value of ${name} holds a line break or a character that cannot be sent in a header.`;
  }
  return undefined;
}

/**
 * Every problem of a list of headers, in order: bad names, bad values, a name given twice
 * (header names are not case-sensitive).
 */
export function headerListProblems(
  headers: readonly { name: string; value?: string | undefined }[],
): { index: number; message: string }[] {
  const problems: { index: number; message: string }[] = [];
  const seen = new Set<string>();
  headers.forEach((header, index) => {
    const nameProblem = headerNameProblem(header.name);
    if (nameProblem !== undefined) {
      problems.push({ index, message: nameProblem });
      return;
    }
    const key = header.name.toLowerCase();
    if (seen.has(key)) problems.push({ index, message: `${header.name} is given twice.` });
    seen.add(key);
    if (header.value !== undefined) {
      const valueProblem = headerValueProblem(header.name, header.value);
      if (valueProblem !== undefined) problems.push({ index, message: valueProblem });
    }
  });
  return problems;
}
