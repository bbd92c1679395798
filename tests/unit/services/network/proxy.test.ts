/**
 * What `session.setProxy` is given for each proxy setting, how Chromium's answer for an address
 * is read back, and the network service between the two (with a recording stand-in for the
 * session, which only Electron has).
 */
import { describe, expect, it } from 'vitest';
import type { ProxySettings } from '../../../../electron/shared/ipc/routes/network';
import {
  NetworkService,
  type ProxyStack,
} from '../../../../electron/main/services/network/network-service';
import {
  LOOPBACK_BYPASS,
  proxyConfigFor,
  readResolvedProxy,
  type SessionProxyConfig,
} from '../../../../electron/main/services/network/proxy';

describe('the proxy given to the session', () => {
  it('follows the system, or goes direct', () => {
    expect(proxyConfigFor({ mode: 'system' })).toEqual({ mode: 'system' });
    expect(proxyConfigFor({ mode: 'none' })).toEqual({ mode: 'direct' });
  });

  it('sends every scheme through a manual proxy, except the bypass list and this computer', () => {
    expect(
      proxyConfigFor({
        mode: 'manual',
        scheme: 'http',
        host: 'proxy.example.com',
        port: 3128,
        bypass: [' <local> ', '.corp.example.com'],
      }),
    ).toEqual({
      mode: 'fixed_servers',
      proxyRules: 'http://proxy.example.com:3128',
      proxyBypassRules: '<local>,.corp.example.com,localhost,127.0.0.1,[::1]',
    });
  });

  it('keeps the demo relay (127.0.0.1) direct whatever the list says, without repeating entries', () => {
    const config = proxyConfigFor({
      mode: 'manual',
      scheme: 'socks5',
      host: 'fe80::2',
      port: 1080,
      bypass: ['127.0.0.1'],
    });
    expect(config).toMatchObject({ proxyRules: 'socks5://[fe80::2]:1080' });
    const rules = (config as { proxyBypassRules: string }).proxyBypassRules.split(',');
    for (const loopback of LOOPBACK_BYPASS) expect(rules).toContain(loopback);
    expect(rules.filter((rule) => rule === '127.0.0.1')).toHaveLength(1);
  });
});

describe("Chromium's answer for an address", () => {
  it.each([
    ['DIRECT', { direct: true, proxies: [] }],
    [
      'PROXY proxy.example.com:3128',
      { direct: false, proxies: [{ kind: 'PROXY', hostPort: 'proxy.example.com:3128' }] },
    ],
    [
      'HTTPS secure.example.com:443; SOCKS5 10.0.0.2:1080; DIRECT',
      {
        direct: false,
        proxies: [
          { kind: 'HTTPS', hostPort: 'secure.example.com:443' },
          { kind: 'SOCKS5', hostPort: '10.0.0.2:1080' },
        ],
      },
    ],
    ['', { direct: true, proxies: [] }],
  ])('reads %j', (answer, expected) => {
    expect(readResolvedProxy(answer)).toEqual(expected);
  });
});

function recordingStack(answer = 'PROXY proxy.example.com:3128'): ProxyStack & {
  applied: SessionProxyConfig[];
  asked: string[];
} {
  const applied: SessionProxyConfig[] = [];
  const asked: string[] = [];
  return {
    applied,
    asked,
    async setProxy(config) {
      applied.push(config);
    },
    async resolveProxy(url) {
      asked.push(url);
      return answer;
    },
  };
}

describe('the network service', () => {
  it('applies a setting to the stack and remembers it', async () => {
    const stack = recordingStack();
    const service = new NetworkService(stack);
    await service.apply({ mode: 'none' });
    expect(stack.applied).toEqual([{ mode: 'direct' }]);
    expect(service.applied).toEqual({ mode: 'direct' });
  });

  it('says when the stack refuses a setting, and keeps the one before', async () => {
    const service = new NetworkService({
      setProxy: async () => {
        throw new Error('Invalid proxy rules');
      },
      resolveProxy: async () => 'DIRECT',
    });
    await expect(service.apply({ mode: 'none' })).rejects.toMatchObject({
      kind: 'invalid_request',
      message: 'The proxy could not be applied: Invalid proxy rules',
    });
    expect(service.applied).toBeUndefined();
  });

  it('saves a setting only once the stack took it', async () => {
    const saved: ProxySettings[] = [];
    const store = {
      get: async () => ({ proxy: { mode: 'system' } as ProxySettings }),
      update: async ({ proxy }: { proxy: ProxySettings }) => (saved.push(proxy), { proxy }),
    };
    const refusing = new NetworkService({
      setProxy: async () => {
        throw new Error('Invalid proxy rules');
      },
      resolveProxy: async () => 'DIRECT',
    });
    await expect(refusing.save({ mode: 'none' }, store)).rejects.toThrow(/could not be applied/);
    expect(saved).toEqual([]);

    const stack = recordingStack();
    await expect(new NetworkService(stack).save({ mode: 'none' }, store)).resolves.toEqual({
      mode: 'none',
    });
    expect(saved).toEqual([{ mode: 'none' }]);
    expect(stack.applied).toEqual([{ mode: 'direct' }]);
  });

  it('applies the setting before again when saving fails', async () => {
    const stack = recordingStack();
    const store = {
      get: async () => ({ proxy: { mode: 'system' } as ProxySettings }),
      update: async (): Promise<{ proxy: ProxySettings }> => {
        throw new Error('disk full');
      },
    };
    const service = new NetworkService(stack);
    await expect(service.save({ mode: 'none' }, store)).rejects.toThrow('disk full');
    expect(stack.applied).toEqual([{ mode: 'direct' }, { mode: 'system' }]);
    expect(service.applied).toEqual({ mode: 'system' });
  });

  it('tests an address without its user name, password or fragment, and reads the answer', async () => {
    const stack = recordingStack('PROXY proxy.example.com:3128; DIRECT');
    const result = await new NetworkService(stack).test('https://me:secret@relay.example.com/v1#x');
    expect(stack.asked).toEqual(['https://relay.example.com/v1']);
    expect(result).toEqual({
      url: 'https://relay.example.com/v1#…',
      answer: 'PROXY proxy.example.com:3128; DIRECT',
      direct: false,
      proxies: [{ kind: 'PROXY', hostPort: 'proxy.example.com:3128' }],
    });
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('refuses to test what is not an http(s) address', async () => {
    const service = new NetworkService(recordingStack());
    await expect(service.test('relay.example.com')).rejects.toThrow(/is not an address/);
    await expect(service.test('ftp://relay.example.com')).rejects.toThrow(
      /https:\/\/ or http:\/\//,
    );
  });
});

describe('the person’s choice of proxy', () => {
  const manual = (host: string): ProxySettings => ({
    mode: 'manual',
    scheme: 'http',
    host,
    port: 8080,
    bypass: [],
  });

  function choosing(current: ProxySettings, answers: boolean[]) {
    const stack = recordingStack();
    const saved: ProxySettings[] = [];
    const questions: string[] = [];
    const settings = {
      get: async () => ({ proxy: saved.at(-1) ?? current }),
      update: async ({ proxy }: { proxy: ProxySettings }) => (saved.push(proxy), { proxy }),
    };
    const service = new NetworkService(stack, undefined, {
      settings,
      confirm: async (question) => (questions.push(question.message), answers.shift() ?? false),
    });
    return { stack, saved, questions, service };
  }

  it('applies and saves a proxy of one’s own only once the person said yes', async () => {
    const { stack, saved, questions, service } = choosing({ mode: 'system' }, [false, true]);
    await expect(service.choose(manual('proxy.example.com'))).rejects.toMatchObject({
      kind: 'invalid_request',
      message: 'The proxy was not changed: it was not confirmed.',
    });
    expect(stack.applied).toEqual([]);
    expect(saved).toEqual([]);

    await expect(service.choose(manual('proxy.example.com'))).resolves.toEqual(
      manual('proxy.example.com'),
    );
    expect(questions).toEqual([
      'Send the app’s requests through the proxy http://proxy.example.com:8080?',
      'Send the app’s requests through the proxy http://proxy.example.com:8080?',
    ]);
    expect(saved).toEqual([manual('proxy.example.com')]);
    expect(stack.applied).toHaveLength(1);
  });

  it('does not ask again for the proxy in use, nor for the system’s or none', async () => {
    const { saved, questions, service } = choosing(manual('proxy.example.com'), []);
    await service.choose(manual('PROXY.example.com'));
    await service.choose({ mode: 'none' });
    await service.choose({ mode: 'system' });
    expect(questions).toEqual([]);
    expect(saved).toEqual([manual('PROXY.example.com'), { mode: 'none' }, { mode: 'system' }]);
  });
});
