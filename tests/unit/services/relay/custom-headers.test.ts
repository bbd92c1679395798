/**
 * Which extra headers a connection may send: gateways' own headers yes; the key's header, the
 * host, hop-by-hop headers and the ones each request sets, never; values that would smuggle a
 * second header in, never.
 */
import { describe, expect, it } from 'vitest';
import {
  headerListProblems,
  headerNameProblem,
  headerValueProblem,
} from '../../../../electron/main/services/relay/custom-headers';

describe('an extra header name', () => {
  it.each([
    'HTTP-Referer',
    'X-Title',
    'x-portkey-api-key',
    'x-portkey-virtual-key',
    'api-key',
    'CF-Access-Client-Id',
    'CF-Access-Client-Secret',
    'OpenAI-Organization',
  ])('accepts %s', (name) => expect(headerNameProblem(name)).toBeUndefined());

  it.each([
    ['Authorization', /key field/],
    ['authorization', /key field/],
    ['Proxy-Authorization', /proxy/],
    ['Host', /comes from the address/],
    ['Connection', /hop-by-hop/],
    ['Keep-Alive', /hop-by-hop/],
    ['Transfer-Encoding', /hop-by-hop/],
    ['TE', /hop-by-hop/],
    ['Upgrade', /hop-by-hop/],
    ['Trailer', /hop-by-hop/],
    ['Proxy-Connection', /hop-by-hop/],
    ['Content-Length', /sets it for each request/],
    ['Content-Type', /sets it for each request/],
    ['Accept', /sets it for each request/],
    ['Cookie', /cookies/],
    ['Sec-Fetch-Mode', /belong to the browser/],
    ['Proxy-Foo', /belong to the browser or to proxies/],
    ['X Title', /not a header name/],
    ['X-Title:', /not a header name/],
    ['', /Give the header a name/],
    ['X-'.padEnd(101, 'x'), /at most 100/],
  ])('refuses %s, saying why', (name, message) => {
    expect(headerNameProblem(name)).toMatch(message);
  });
});

describe('an extra header value', () => {
  it('accepts visible text, spaces and tabs', () => {
    expect(headerValueProblem('X-Title', 'Relay Desktop\t(work)')).toBeUndefined();
  });

  it.each([
    ['a second header', 'k7q\r\nX-Injected: 1', /line break/],
    ['a line break', 'k7q\nz9w', /line break/],
    ['a NUL', 'k7q\0', /cannot be sent/],
    ['a letter outside ASCII', 'k7qé', /cannot be sent/],
    ['nothing', '', /Give a value/],
    ['8193 characters', 'k7q'.repeat(2731), /longer than 8192/],
  ])('refuses %s without quoting the value', (_what, value, message) => {
    const problem = headerValueProblem('api-key', value);
    expect(problem).toMatch(message);
    expect(problem).not.toContain('k7q');
  });
});

describe('a list of extra headers', () => {
  it('names each problem by its place, names given twice included (whatever the case)', () => {
    expect(
      headerListProblems([
        { name: 'X-Title', value: 'Relay' },
        { name: 'Host', value: 'evil.example' },
        { name: 'x-title', value: 'Again' },
        { name: 'api-key', value: 'a\nb' },
        { name: 'CF-Access-Client-Secret' },
      ]),
    ).toEqual([
      { index: 1, message: 'Host cannot be set here: the host comes from the address.' },
      { index: 2, message: 'x-title is given twice.' },
      {
        index: 3,
        message:
          'The value of api-key holds a line break or a character that cannot be sent in a header.',
      },
    ]);
  });
});
