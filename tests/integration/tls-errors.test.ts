/**
 * What a person reads when a relay's certificate is not accepted: which failure it was, and for
 * a certificate from a CA this computer does not trust (a private or company CA), where to add
 * it, since the app trusts what the system trusts. Against a real TLS server with a self-signed
 * certificate (Node's fetch), and with the errors Electron's net.fetch gives (Chromium's codes).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayClient, RelayError } from '../../electron/main/services/relay/relay-client';

const run = promisify(execFile);
let dir: string;
let server: Server;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-tls-'));
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ]);
  server = createServer(
    { key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) },
    (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function failure(fetch?: Parameters<typeof createRelayClient>[0]['fetch']) {
  const client = createRelayClient({
    baseUrl: url,
    apiKey: '',
    maxRetries: 0,
    ...(fetch ? { fetch } : {}),
  });
  const error = await client.listModels().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RelayError);
  return error as RelayError;
}

describe('a certificate the system does not trust', () => {
  it('says the certificate was refused, and where a private CA goes', async () => {
    const error = await failure();
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(
      /^The secure \(TLS\) connection to 127\.0\.0\.1:\d+ failed: its certificate was not accepted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)\./,
    );
    expect(error.message).toContain('trusts the certificates your system trusts');
    expect(error.message).toContain('private or company CA');
  });

  it.each([
    [
      'net::ERR_CERT_AUTHORITY_INVALID',
      /not accepted \(ERR_CERT_AUTHORITY_INVALID\).*private or company CA/,
    ],
    ['net::ERR_CERT_DATE_INVALID', /has expired or is not valid yet \(ERR_CERT_DATE_INVALID\)/],
    ['net::ERR_CERT_COMMON_NAME_INVALID', /is for another name \(ERR_CERT_COMMON_NAME_INVALID\)/],
    [
      'net::ERR_PROXY_CONNECTION_FAILED',
      /The proxy could not take the request .*Settings → Network/,
    ],
    ['net::ERR_TUNNEL_CONNECTION_FAILED', /The proxy could not take the request/],
  ])("reads Electron's %s", async (chromium, message) => {
    // What net.fetch rejects with: Chromium's code in the message only.
    const error = await failure(async () => {
      throw new TypeError(`Failed to fetch: ${chromium}`);
    });
    expect(error.message).toMatch(message);
  });
});
