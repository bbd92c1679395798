import { describe, expect, it } from 'vitest';
import {
  checkResolvedHost,
  isPrivateAddress,
} from '../../../../electron/main/services/relay/images';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    'localhost',
    'printer.localhost',
  ])('%s is private or local', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111', 'images.example.com'])(
    '%s is public',
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );
});

describe('checkResolvedHost', () => {
  const table = (answers: Record<string, string[]>) => async (host: string) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found;
  };

  it('refuses a name that resolves to a private address, naming it', async () => {
    const resolve = table({ 'internal.example.com': ['203.0.113.7', '10.0.0.5'] });
    await expect(
      checkResolvedHost(
        new URL('https://internal.example.com/a.png'),
        'relay.example.com',
        resolve,
      ),
    ).rejects.toMatchObject({
      kind: 'bad_response',
      message: expect.stringMatching(/private or local network \(10\.0\.0\.5\)/),
    });
  });

  it('lets a public name through, and leaves the relay itself and literal addresses to the literal check', async () => {
    const resolve = table({ 'cdn.example.com': ['203.0.113.7'], 'relay.local': ['127.0.0.1'] });
    await expect(
      checkResolvedHost(new URL('https://cdn.example.com/a.png'), 'relay.local', resolve),
    ).resolves.toBeUndefined();
    await expect(
      checkResolvedHost(new URL('http://relay.local/files/a.png'), 'relay.local', resolve),
    ).resolves.toBeUndefined();
    await expect(
      checkResolvedHost(new URL('https://203.0.113.9/a.png'), 'relay.local', resolve),
    ).resolves.toBeUndefined();
  });

  it('leaves a name that does not resolve to fetch, which reports it as a network error', async () => {
    await expect(
      checkResolvedHost(new URL('https://gone.example.com/a.png'), 'relay.local', table({})),
    ).resolves.toBeUndefined();
  });
});
