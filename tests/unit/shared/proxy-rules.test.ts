/**
 * What the Network settings accept as a proxy host and as bypass entries: Chromium's syntax,
 * with a sentence for each mistake a person makes when typing them.
 */
import { describe, expect, it } from 'vitest';
import { errorText } from '../../../electron/main/services/words';
import { proxySettingsSchema } from '../../../electron/shared/ipc/routes/network';
import { issueWords } from '../../../electron/shared/messages/worded';
import {
  bypassRuleProblem,
  proxyHostForRules,
  proxyHostProblem,
} from '../../../electron/shared/proxy-rules';

describe('a proxy host', () => {
  it.each([
    'proxy.example.com',
    'proxy',
    'corp-proxy_1.internal',
    '10.0.0.8',
    '::1',
    '[fe80::1]',
    '2001:db8::8:800:200c:417a',
  ])('accepts %s', (host) => expect(proxyHostProblem(host)).toBeUndefined());

  it.each([
    ['', /Give the proxy’s host/],
    ['http://proxy.example.com', /without http:\/\//],
    ['socks5://10.0.0.1', /without http:\/\//],
    ['proxy.example.com:8080', /Port field/],
    ['10.0.0.300', /not an IPv4 address/],
    ['proxy example', /not a host name/],
    ['user@proxy', /not a host name/],
    ['[not-v6]', /not an IPv6 address/],
    ['-bad-.example.com', /not a host name/],
  ])('refuses %j, saying why', (host, message) => {
    expect(proxyHostProblem(host)?.english).toMatch(message);
  });

  it('puts an IPv6 address in brackets for the proxy rules', () => {
    expect(proxyHostForRules('fe80::1')).toBe('[fe80::1]');
    expect(proxyHostForRules('[fe80::1]')).toBe('[fe80::1]');
    expect(proxyHostForRules('proxy.example.com')).toBe('proxy.example.com');
  });
});

describe('a bypass entry', () => {
  it.each([
    '<local>',
    'intranet.example.com',
    '.example.com',
    '*.example.com',
    '*example.com',
    'example.com:8443',
    'https://relay.example.com',
    'http://*.corp:8080',
    '10.0.0.1',
    '192.168.0.0/16',
    'fd00::/8',
    '[::1]',
    '[fe80::1]:443',
    '*',
  ])('accepts %s', (rule) => expect(bypassRuleProblem(rule)).toBeUndefined());

  it.each([
    ['', /empty/],
    ['<-loopback>', /always reaches them directly/],
    ['a.example.com, b.example.com', /one entry per line/],
    ['ftp://files.example.com', /http, https, ws or wss/],
    ['example.com:http', /must be a port/],
    ['example.com:70000', /1 to 65535/],
    ['10.0.0.0/33', /\/0 to \/32/],
    ['fd00::/129', /\/0 to \/128/],
    ['not-an-ip/8', /not an address range/],
    ['[zz::1]', /IPv6 address in brackets/],
    ['exa mple.com', /one entry per line/],
    ['bad..example.com', /not a host, a domain/],
  ])('refuses %j, saying why', (rule, message) => {
    expect(bypassRuleProblem(rule)?.english).toMatch(message);
  });
});

describe('the proxy setting in the contract', () => {
  it('takes system, none, and a manual proxy with its bypass list', () => {
    expect(proxySettingsSchema.parse({ mode: 'system' })).toEqual({ mode: 'system' });
    expect(proxySettingsSchema.parse({ mode: 'none' })).toEqual({ mode: 'none' });
    const manual = {
      mode: 'manual',
      scheme: 'socks5',
      host: 'proxy.example.com',
      port: 1080,
      bypass: ['<local>', '.corp.example.com'],
    };
    expect(proxySettingsSchema.parse(manual)).toEqual(manual);
  });

  it('names the field and the bypass entry that are wrong', () => {
    const result = proxySettingsSchema.safeParse({
      mode: 'manual',
      scheme: 'http',
      host: 'proxy.example.com:3128',
      port: 0,
      bypass: ['ok.example.com', 'ftp://x'],
    });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toEqual([
      ['host', 'Put the port in the Port field, not after the host.'],
      ['port', 'The port is a number from 1 to 65535.'],
      ['bypass.1', '“ftp://x”: a bypass entry may name http, https, ws or wss before ://.'],
    ]);
  });

  it('refuses a mode it does not know and fields a mode does not take', () => {
    expect(proxySettingsSchema.safeParse({ mode: 'pac' }).success).toBe(false);
    expect(proxySettingsSchema.safeParse({ mode: 'none', host: 'x' }).success).toBe(false);
  });
});

describe("a proxy setting's mistakes in the person's language", () => {
  it('carry their key and values, the English as their sentence', () => {
    const problem = bypassRuleProblem('a.example.com, b.example.com')!;
    expect(problem.id).toBe('proxy.bypass.separator');
    expect(errorText('en', problem.id, problem.values)).toBe(problem.english);
    expect(errorText('de', problem.id, problem.values)).toBe(
      '„a.example.com, b.example.com“ enthält ein Leerzeichen, Komma oder Semikolon: ein Eintrag pro Zeile.',
    );
  });

  it('reach the form through the schema with their key, on the line at fault', () => {
    const parsed = proxySettingsSchema.safeParse({
      mode: 'manual',
      scheme: 'http',
      host: 'http://proxy.example.com',
      port: 8080,
      bypass: ['ok.example.com', '192.168.0.0/40'],
    });
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues.map((issue) => ({
      path: issue.path.join('.'),
      words: issueWords(issue),
    }));
    expect(issues).toEqual([
      { path: 'host', words: { id: 'proxy.host.scheme' } },
      {
        path: 'bypass.1',
        words: { id: 'proxy.bypass.ipv4Range', values: { value: '192.168.0.0/40' } },
      },
    ]);
  });
});
