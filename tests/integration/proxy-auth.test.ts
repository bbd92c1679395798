/**
 * A proxy that asks for a user name and password (HTTP 407, Basic): a real forward proxy on
 * loopback that refuses a request without the right `Proxy-Authorization`. The client stands in
 * for Chromium, which on a 407 asks the app (Electron's `login` event, `authInfo.isProxy`) and
 * asks again with the answer: main answers from the setting's user name and the password kept
 * in the keychain, for the proxy of the setting only, and the password is never in the settings.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NetworkService,
  PROXY_PASSWORD_ACCOUNT,
  type ProxyChallenge,
  type ProxyCredentials,
  type ProxyStack,
} from '../../electron/main/services/network/network-service';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { SettingsService } from '../../electron/main/services/settings/settings';

const USER = 'ada';
const PASSWORD = 'correct horse battery';

let target: Server;
let proxy: Server;
let proxyPort: number;
let targetUrl: string;
/** The `Proxy-Authorization` header of each request the proxy saw. */
const seen: (string | undefined)[] = [];

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

beforeAll(async () => {
  target = createServer((_req, res) => res.end('relay reached'));
  targetUrl = `http://127.0.0.1:${await listen(target)}/v1/models`;
  // A forward proxy: absolute-form requests, Basic authentication required.
  proxy = createServer((req, res) => {
    const auth = req.headers['proxy-authorization'];
    seen.push(auth);
    const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    if (auth !== expected) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="office proxy"' });
      res.end();
      return;
    }
    const upstream = request(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  proxyPort = await listen(proxy);
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => target.close(resolve));
});

/** A network stack that keeps the answer main hands it, as Electron's `login` event would. */
function recordingStack(): ProxyStack & {
  answer?: (challenge: ProxyChallenge) => Promise<ProxyCredentials | undefined>;
} {
  const stack: ProxyStack & {
    answer?: (challenge: ProxyChallenge) => Promise<ProxyCredentials | undefined>;
  } = {
    setProxy: async () => undefined,
    resolveProxy: async () => 'DIRECT',
    onProxyLogin(answer) {
      stack.answer = answer;
    },
  };
  return stack;
}

/** A GET through the proxy, with or without credentials: its status and body. */
function viaProxy(credentials?: ProxyCredentials): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (credentials)
      headers['proxy-authorization'] =
        `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    const req = request(
      { host: '127.0.0.1', port: proxyPort, path: targetUrl, method: 'GET', headers },
      (res: IncomingMessage) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('a proxy that asks for a user name and password', () => {
  it('is answered from the setting and the keychain, and lets the request through', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'relay-proxy-auth-'));
    try {
      const secrets = new MemorySecretStore();
      const stack = recordingStack();
      const network = new NetworkService(stack, secrets);
      const settings = new SettingsService(dir);
      const manual = {
        mode: 'manual' as const,
        scheme: 'http' as const,
        host: '127.0.0.1',
        port: proxyPort,
        username: USER,
        bypass: [],
      };
      await network.save(manual, settings);
      await expect(network.passwordSet()).resolves.toBe(false);
      await expect(network.setPassword(PASSWORD)).resolves.toBe(true);
      await expect(secrets.get(PROXY_PASSWORD_ACCOUNT)).resolves.toBe(PASSWORD);

      // First without credentials, as Chromium asks: the proxy says 407.
      const refused = await viaProxy();
      expect(refused.status).toBe(407);
      // Chromium asks the app; main answers for this proxy.
      const credentials = await stack.answer!({ host: '127.0.0.1', port: proxyPort });
      expect(credentials).toEqual({ username: USER, password: PASSWORD });
      const through = await viaProxy(credentials);
      expect(through).toEqual({ status: 200, body: 'relay reached' });
      expect(seen.at(-1)).toMatch(/^Basic /);

      // Another proxy asking (the system's, a PAC file's) is told nothing.
      await expect(stack.answer!({ host: 'elsewhere.example', port: proxyPort })).resolves.toBe(
        undefined,
      );
      await expect(stack.answer!({ host: '127.0.0.1', port: proxyPort + 1 })).resolves.toBe(
        undefined,
      );

      // The password is in the keychain only: not in settings.json.
      const file = await readFile(join(dir, 'settings.json'), 'utf8');
      expect(file).toContain(USER);
      expect(file).not.toContain(PASSWORD);

      // Removed, it is no longer given; a wrong one is refused by the proxy.
      await expect(network.setPassword(null)).resolves.toBe(false);
      const without = await stack.answer!({ host: '127.0.0.1', port: proxyPort });
      expect(without).toEqual({ username: USER, password: '' });
      expect((await viaProxy(without)).status).toBe(407);

      // No user name set: nothing is answered.
      await network.save({ ...manual, username: undefined }, settings);
      await expect(stack.answer!({ host: '127.0.0.1', port: proxyPort })).resolves.toBe(undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
