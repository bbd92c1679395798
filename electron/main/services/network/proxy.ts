/**
 * The proxy setting as Chromium's network stack takes it (`session.setProxy`), and Chromium's
 * answer for one address (`session.resolveProxy`) read back. Plain functions, tested in Node;
 * `platform/network.ts` hands the result to Electron.
 */
import type { ProxySettings } from '../../../shared/ipc/routes/network';
import { proxyHostForRules } from '../../../shared/proxy-rules';

/**
 * What `session.setProxy` takes (Electron's `ProxyConfig`, the modes the app uses): the system's
 * settings, no proxy, or fixed servers with a bypass list.
 */
export type SessionProxyConfig =
  | { mode: 'system' }
  | { mode: 'direct' }
  | { mode: 'fixed_servers'; proxyRules: string; proxyBypassRules: string };

/**
 * This computer's own addresses, always reached directly: the embedded demo relay listens on
 * 127.0.0.1. Chromium bypasses them by itself too (its implicit rules) unless `<-loopback>` is
 * given, which the bypass list refuses; they are listed so the rule does not rest on a default.
 */
export const LOOPBACK_BYPASS = ['localhost', '127.0.0.1', '[::1]'] as const;

export function proxyConfigFor(settings: ProxySettings): SessionProxyConfig {
  switch (settings.mode) {
    case 'system':
      return { mode: 'system' };
    case 'none':
      return { mode: 'direct' };
    case 'manual': {
      const bypass = [...settings.bypass.map((rule) => rule.trim()), ...LOOPBACK_BYPASS];
      return {
        mode: 'fixed_servers',
        // One proxy for every scheme: `<scheme>://<host>:<port>`, in Chromium's rule syntax.
        proxyRules: `${settings.scheme}://${proxyHostForRules(settings.host)}:${settings.port}`,
        proxyBypassRules: [...new Set(bypass)].join(','),
      };
    }
  }
}

export interface ResolvedProxy {
  /** The first choice is to connect directly. */
  direct: boolean;
  /** The proxies of the answer, in order (`PROXY`, `HTTPS`, `SOCKS5`…, and `host:port`). */
  proxies: { kind: string; hostPort: string }[];
}

/**
 * Reads Chromium's answer for one address, in PAC form: `DIRECT`, or entries such as
 * `PROXY proxy.example.com:8080; DIRECT`, separated by semicolons.
 */
export function readResolvedProxy(answer: string): ResolvedProxy {
  const entries = answer
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const proxies: ResolvedProxy['proxies'] = [];
  for (const entry of entries) {
    const [kind = '', hostPort = ''] = entry.split(/\s+/, 2);
    if (kind.toUpperCase() !== 'DIRECT' && hostPort !== '') {
      proxies.push({ kind: kind.toUpperCase(), hostPort });
    }
  }
  const first = entries[0]?.toUpperCase() ?? 'DIRECT';
  return { direct: first === 'DIRECT', proxies };
}

/** Why `url` cannot be tested, or undefined: only http(s) addresses go through a proxy here. */
export function proxyTestUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `“${url}” is not an address: give one such as https://relay.example.com`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return 'Give an address starting with https:// or http://.';
  }
  return undefined;
}
