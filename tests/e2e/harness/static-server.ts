/**
 * A tiny static file server for the built renderer, sending the page's own Content-Security-Policy
 * as a header too (as the app's custom protocol does), so a CSP violation is caught either way.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export interface StaticServer {
  /** `http://127.0.0.1:<port>`: the page's origin. */
  origin: string;
  close(): Promise<void>;
}

/** The policy in index.html's `<meta http-equiv="Content-Security-Policy">`. */
export async function pagePolicy(root: string): Promise<string> {
  const html = await readFile(join(root, 'index.html'), 'utf8');
  const match = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('index.html carries no Content-Security-Policy');
  return match[1];
}

/** Resolves `/gallery/<hash>.<ext>` to a file of the current app's gallery, as the app protocol does. */
export type GalleryFile = (pathname: string) => Promise<string | undefined>;

/** Answers a request itself (true) or leaves it to the static files (false). */
export type ExtraRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

export async function serveDirectory(
  root: string,
  galleryFile?: () => GalleryFile | undefined,
  extraRoute?: ExtraRoute,
): Promise<StaticServer> {
  const policy = await pagePolicy(root);
  const server = createServer((req, res) => {
    if (extraRoute?.(req, res)) return;
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const gallery = galleryFile?.();
    if (pathname.startsWith('/gallery/') && gallery) {
      gallery(pathname)
        .then((file) => (file ? readFile(file) : Promise.reject(new Error('not in the gallery'))))
        .then(
          (body) => {
            res.writeHead(200, {
              'content-type': TYPES[extname(pathname)] ?? 'application/octet-stream',
              'x-content-type-options': 'nosniff',
              'cache-control': 'no-store',
            });
            res.end(body);
          },
          () => res.writeHead(404).end(),
        );
      return;
    }
    const path = decodeURIComponent(pathname);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'content-security-policy': policy,
          'cache-control': 'no-store',
        });
        res.end(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
