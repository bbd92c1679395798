/**
 * `relay-desktop://connect` links: every field checked as if typed into the connection form, a
 * key in a link never taken, and a link that cannot be used saying why.
 */
import { describe, expect, it } from 'vitest';
import {
  findLinkInArgv,
  readConnectLink,
} from '../../../../electron/main/services/desktop/connect-link';

const link = (query: string) => `relay-desktop://connect?${query}`;

describe('a connect link', () => {
  it('prefills a name, an address and a console address', () => {
    expect(
      readConnectLink(
        link(
          'name=Work%20relay&baseUrl=https%3A%2F%2Frelay.example.com%2Fv1&consoleUrl=https%3A%2F%2Fconsole.example.com',
        ),
      ),
    ).toEqual({
      ok: true,
      draft: {
        name: 'Work relay',
        baseUrl: 'https://relay.example.com/v1',
        consoleUrl: 'https://console.example.com',
      },
      notes: [],
    });
  });

  it('reads the scheme and the action in any case, with or without slashes', () => {
    for (const url of [
      'RELAY-DESKTOP://Connect?name=A&baseUrl=https://a.example',
      'relay-desktop:connect?name=A&baseUrl=https://a.example',
      'relay-desktop://connect/?name=A&baseUrl=https://a.example',
    ]) {
      expect(readConnectLink(url)).toMatchObject({ ok: true, draft: { name: 'A' } });
    }
  });

  it.each([
    'key',
    'apiKey',
    'api_key',
    'API-KEY',
    'token',
    'access_token',
    'secret',
    'password',
    'authorization',
  ])('never takes a key given as %s, and says so', (name) => {
    const read = readConnectLink(
      link(`name=A&baseUrl=https://a.example&${name}=sk-live-123456789`),
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(JSON.stringify(read)).not.toContain('sk-live');
    expect(read.draft).toEqual({ name: 'A', baseUrl: 'https://a.example' });
    expect(read.notes[0]).toMatch(/held an API key, which was not used/);
  });

  it('refuses a key in the address itself, as the form does', () => {
    const read = readConnectLink(link('name=A&baseUrl=https%3A%2F%2Fme%3Ask-live-1@a.example'));
    expect(read).toMatchObject({ ok: false });
    expect(JSON.stringify(read)).not.toContain('sk-live');
    expect(read.ok ? '' : read.message).toMatch(/user name or password/);
  });

  it('notes parameters it does not use', () => {
    const read = readConnectLink(link('name=A&baseUrl=https://a.example&theme=dark'));
    expect(read).toMatchObject({ ok: true, notes: [expect.stringMatching(/theme/)] });
  });

  it.each([
    ['relay-desktop://open?name=A&baseUrl=https://a.example', /can only add a connection/],
    ['https://relay.example.com', /Only relay-desktop:\/\/ links/],
    ['relay-desktop://connect?name=A', /no relay address/],
    ['relay-desktop://connect?baseUrl=https://a.example', /no name/],
    ['relay-desktop://connect?name=A&baseUrl=ftp://a.example', /only http and https/],
    ['relay-desktop://connect?name=A&baseUrl=https://a.example?x=1', /query/],
    ['relay-desktop://connect?name=A&baseUrl=a.example', /not a valid web address/],
    [`relay-desktop://connect?name=${'n'.repeat(101)}&baseUrl=https://a.example`, /too long/],
    [
      'relay-desktop://connect?name=A&baseUrl=https://a.example&consoleUrl=javascript:alert(1)',
      /console address/,
    ],
    ['relay-desktop://connect?name=A&name=B&baseUrl=https://a.example', /gives name twice/],
    [
      `relay-desktop://connect?name=A&baseUrl=https://a.example&x=${'y'.repeat(5000)}`,
      /longer than 4096/,
    ],
    ['relay-desktop://connect?%', /not a valid address|no relay address/],
  ])('refuses %s, saying why', (url, message) => {
    const read = readConnectLink(url);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.message).toMatch(message);
  });
});

describe('a link on the command line', () => {
  it('is the first argument with our scheme, whatever else is there', () => {
    expect(
      findLinkInArgv([
        '/opt/Relay Desktop/relay-desktop',
        '--no-sandbox',
        'relay-desktop://connect?name=A',
      ]),
    ).toBe('relay-desktop://connect?name=A');
    expect(findLinkInArgv(['/opt/relay-desktop', '--hidden'])).toBeUndefined();
  });
});
