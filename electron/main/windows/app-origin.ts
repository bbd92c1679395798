/**
 * The app's own origin for the production renderer, `app://relay`, and how its URLs map to the
 * built files. Free of Electron imports so that the mapping can be tested in plain Node.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'relay';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;
/** The quick ask window's page: a second entry of the renderer build, beside index.html. */
export const QUICK_ENTRY_PATH = '/quick.html';
export const QUICK_ENTRY_URL = `${APP_ORIGIN}${QUICK_ENTRY_PATH}`;

/**
 * The policy sent as a header with every page of the app (the meta tag in index.html says the
 * same; `frame-ancestors` only works as a header).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  `img-src 'self' data: blob: ${APP_ORIGIN}`,
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The built file an `app://relay/…` URL names, or undefined when the URL is of another origin
 * or would leave the renderer folder (`..`, encoded separators, absolute paths).
 */
export function resolveRendererFile(rendererDir: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  if (path === '/' || path === '') path = '/index.html';
  const root = normalize(rendererDir + sep);
  const file = normalize(join(root, path));
  return file.startsWith(root) ? file : undefined;
}

/**
 * The path of an `app://relay/gallery/…` URL (for the gallery to resolve to one of its own
 * files), or undefined for any other URL.
 */
export function galleryPathOf(requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return undefined;
  return url.pathname.startsWith('/gallery/') ? url.pathname : undefined;
}

export interface AppRequestSources {
  /** The built renderer. */
  rendererDir: string;
  /** The gallery's own file for a `/gallery/…` path, or undefined (see `ImageGallery.servedFile`). */
  galleryFile?: (pathname: string) => Promise<string | undefined>;
}

/**
 * The answer to one `app://relay/…` request: the built renderer, or a gallery image, with the
 * CSP as a header; 404 for everything else. The content type comes from the name that was asked
 * for, never from the file it resolved to, so an image URL is never answered as a page.
 */
export async function answerAppRequest(
  requestUrl: string,
  sources: AppRequestSources,
): Promise<Response> {
  const notFound = () => new Response('Not found', { status: 404 });
  const pathname = galleryPathOf(requestUrl);
  let file: string | undefined;
  let requested: string;
  if (pathname !== undefined && sources.galleryFile) {
    file = await sources.galleryFile(pathname);
    requested = pathname;
  } else {
    file = resolveRendererFile(sources.rendererDir, requestUrl);
    requested = file ?? '';
  }
  if (file === undefined) return notFound();
  try {
    const body = await readFile(file);
    return new Response(body, {
      headers: {
        'content-type': contentTypeOf(requested),
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
      },
    });
  } catch {
    return notFound();
  }
}
