import { describe, expect, it } from 'vitest';
import { hostChecker } from '../../../electron/demo-relay/host-names';

describe('the Host headers the demo relay answers', () => {
  it('bound to this machine only: its loopback names with its port', () => {
    const accepts = hostChecker('127.0.0.1', 8787);
    for (const host of ['127.0.0.1:8787', 'localhost:8787', '[::1]:8787'])
      expect(accepts(host), host).toBe(true);
    for (const host of [
      '192.168.1.5:8787',
      'relay.example:8787',
      '127.0.0.1:80',
      '127.0.0.1',
      undefined,
    ])
      expect(accepts(host), host).toBe(false);
  });

  it('bound to every address (LAN use): also any IP literal, never a name', () => {
    const accepts = hostChecker('0.0.0.0', 8787);
    for (const host of ['192.168.1.5:8787', '[fe80::1]:8787', 'localhost:8787'])
      expect(accepts(host), host).toBe(true);
    for (const host of ['attacker.example:8787', '192.168.1.5:8788'])
      expect(accepts(host), host).toBe(false);
  });

  it('bound to one LAN address: that address too', () => {
    const accepts = hostChecker('192.168.1.5', 8787);
    expect(accepts('192.168.1.5:8787')).toBe(true);
    expect(accepts('192.168.1.6:8787')).toBe(false);
  });
});
