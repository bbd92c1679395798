/**
 * When a proxy change needs the person's yes: a proxy of their own that is not the one in use;
 * and the question names it.
 */
import { describe, expect, it } from 'vitest';
import type { ProxySettings } from '../../../../electron/shared/ipc/routes/network';
import {
  proxyNeedsConsent,
  proxyQuestion,
  sameProxy,
} from '../../../../electron/main/services/network/proxy-question';

const manual = (host: string, bypass: string[] = []): ProxySettings => ({
  mode: 'manual',
  scheme: 'http',
  host,
  port: 8080,
  bypass,
});

describe('a proxy change', () => {
  it('needs consent for a proxy of one’s own that is not the one in use', () => {
    expect(proxyNeedsConsent({ mode: 'system' }, manual('proxy.example.com'))).toBe(true);
    expect(proxyNeedsConsent(manual('a.example'), manual('b.example'))).toBe(true);
    expect(proxyNeedsConsent(manual('a.example'), manual('a.example', ['.corp']))).toBe(true);
    expect(proxyNeedsConsent(manual('a.example'), manual('A.example'))).toBe(false);
    expect(proxyNeedsConsent(manual('a.example'), { mode: 'none' })).toBe(false);
    expect(proxyNeedsConsent({ mode: 'none' }, { mode: 'system' })).toBe(false);
  });

  it('compares how requests would go', () => {
    expect(sameProxy({ mode: 'system' }, { mode: 'system' })).toBe(true);
    expect(sameProxy({ mode: 'system' }, { mode: 'none' })).toBe(false);
  });

  it('names the proxy, from Settings or from a restore', () => {
    const proxy = {
      mode: 'manual' as const,
      scheme: 'socks5' as const,
      host: '::1',
      port: 1080,
      bypass: [],
    };
    expect(proxyQuestion(proxy, 'settings').message).toBe(
      'Send the app’s requests through the proxy socks5://[::1]:1080?',
    );
    expect(proxyQuestion(proxy, 'restore').message).toMatch(/^The backup being restored/);
  });
});
