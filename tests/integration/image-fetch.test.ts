/**
 * Image links from a relay are fetched by main, which sits inside the person's network: the
 * address a link's name resolves to is checked as the connection is made, and the connection
 * goes to exactly the address that passed, so a name cannot resolve to a public address for the
 * check and to an inside one for the fetch (DNS rebinding).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createImageFetch } from '../../electron/main/services/relay/image-fetch';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

/** A server that answers `body` and counts the connections it was given. */
async function serve(host: string, port: number, body: string) {
  const seen = { connections: 0, requests: 0 };
  const server = createServer((_req, res) => {
    seen.requests++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  server.on('connection', () => seen.connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

// 127.0.0.2 stands for a public address here; 127.0.0.1 for the inside of the network.
const outside = (address: string) => (address === '127.0.0.2' ? undefined : 'loopback');

describe('createImageFetch', () => {
  it('connects to the address that was checked, however the name answers afterwards', async () => {
    const publicSide = await serve('127.0.0.2', 0, 'the image');
    const inside = await serve('127.0.0.1', publicSide.port, 'a secret');
    let lookups = 0;
    const fetch = createImageFetch({
      // First answer public, every later one inside: what a rebinding DNS server does.
      resolveHost: async () => (lookups++ === 0 ? ['127.0.0.2'] : ['127.0.0.1']),
      specialRange: outside,
    });
    const response = await fetch(`http://images.rebind.test:${publicSide.port}/a.png`, {
      method: 'GET',
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('the image');
    expect(lookups).toBe(1);
    expect(inside.seen.connections).toBe(0);
  });

  it('refuses a name with any inside address among its answers, before any connection', async () => {
    const inside = await serve('127.0.0.1', 0, 'a secret');
    const fetch = createImageFetch({
      resolveHost: async () => ['127.0.0.2', '127.0.0.1'],
      specialRange: outside,
    });
    await expect(
      fetch(`http://images.rebind.test:${inside.port}/a.png`, { method: 'GET' }),
    ).rejects.toMatchObject({
      kind: 'bad_response',
      message: expect.stringMatching(
        /images\.rebind\.test.*127\.0\.0\.1.*not a public internet address \(loopback\)/,
      ),
    });
    expect(inside.seen.connections).toBe(0);
  });

  it('passes on status, headers and a streamed body, and stops when aborted', async () => {
    const side = await serve('127.0.0.2', 0, 'x'.repeat(100_000));
    const fetch = createImageFetch({
      resolveHost: async () => ['127.0.0.2'],
      specialRange: outside,
    });
    const response = await fetch(`http://cdn.test:${side.port}/a.png`, { method: 'GET' });
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect((await response.arrayBuffer()).byteLength).toBe(100_000);

    const controller = new AbortController();
    controller.abort();
    await expect(
      fetch(`http://cdn.test:${side.port}/a.png`, { method: 'GET', signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
