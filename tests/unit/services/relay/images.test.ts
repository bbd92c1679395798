import { describe, expect, it } from 'vitest';
import { checkImageUrl, specialRangeOf } from '../../../../electron/main/services/relay/images';

describe('specialRangeOf', () => {
  it.each([
    // IPv4: private, loopback, link-local (cloud metadata), shared, "this network".
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    // The rest of IANA's special-purpose registry, multicast, reserved and broadcast.
    '192.0.0.8',
    '192.0.0.170',
    '192.0.2.1',
    '192.31.196.1',
    '192.52.193.1',
    '192.88.99.1',
    '192.175.48.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    // IPv6: loopback, unspecified, unique local, link-local, site-local (deprecated), multicast.
    '::1',
    '::',
    'fd00::1',
    'fc00::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    // IPv4 inside IPv6: mapped, compatible, translated (NAT64), 6to4, Teredo.
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '::10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378::1',
    // Documentation, benchmarking, ORCHID, discard, segment routing, and outside 2000::/3.
    '2001:db8::1',
    '2001:2::1',
    '2001:20::1',
    '100::1',
    '5f00::1',
    '3fff::1',
    '4000::1',
    '[::1]',
  ])('%s is not a public address', (address) => {
    expect(specialRangeOf(address)).toBeDefined();
  });

  it.each(['93.184.216.34', '172.32.0.1', '8.8.8.8', '1.1.1.1', '2606:4700::1111', '2a00:1450::1'])(
    '%s is public',
    (address) => expect(specialRangeOf(address)).toBeUndefined(),
  );

  it('calls a name that is not an address not public', () => {
    expect(specialRangeOf('images.example.com')).toBeDefined();
  });
});

describe('checkImageUrl', () => {
  const relay = 'http://127.0.0.1:8787';

  it('lets a link to the relay itself through, whatever its address', () => {
    expect(checkImageUrl('http://127.0.0.1:8787/files/a.png', relay).href).toBe(
      'http://127.0.0.1:8787/files/a.png',
    );
  });

  it.each([
    ['another port of the relay host', 'http://127.0.0.1:6379/', /unencrypted/],
    ['another port over https', 'https://127.0.0.1:9200/', /not a public internet address/],
    ['the relay host by another name', 'http://localhost:8787/files/a.png', /unencrypted/],
    ['localhost by name', 'https://localhost/a.png', /not a public internet address/],
    ['a name under localhost', 'https://printer.localhost./a.png', /not a public internet address/],
    [
      'a mapped loopback address',
      'https://[::ffff:127.0.0.1]/a.png',
      /not a public internet address/,
    ],
    [
      'a compatible loopback address',
      'https://[::127.0.0.1]/a.png',
      /not a public internet address/,
    ],
    ['NAT64', 'https://[64:ff9b::a9fe:a9fe]/latest', /not a public internet address/],
    ['site-local', 'https://[fec0::1]/a.png', /not a public internet address/],
    ['benchmarking', 'https://198.18.0.1/a.png', /not a public internet address/],
    ['multicast', 'https://224.0.0.1/a.png', /not a public internet address/],
    ['reserved', 'https://240.0.0.1/a.png', /not a public internet address/],
    ['a decimal loopback', 'https://2130706433/a.png', /not a public internet address/],
    ['credentials', 'https://user:pw@cdn.example.com/a.png', /credentials/],
    ['a file', 'file:///etc/passwd', /not fetched/],
  ])('refuses %s', (_name, link, message) => {
    expect(() => checkImageUrl(link, relay)).toThrow(message);
  });

  it('lets a public https link through, to be checked again at connect time', () => {
    expect(checkImageUrl('https://cdn.example.com/a.png', relay).host).toBe('cdn.example.com');
    expect(checkImageUrl('https://93.184.216.34/a.png', relay).host).toBe('93.184.216.34');
  });
});
