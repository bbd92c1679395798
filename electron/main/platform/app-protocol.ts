import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import {
  APP_SCHEME,
  CONTENT_SECURITY_POLICY,
  contentTypeOf,
  galleryPathOf,
  resolveRendererFile,
} from '../windows/app-origin';

/** Must run before the app is ready: makes `app://` a secure, standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/**
 * Serves the built renderer from `app://relay/`, with the CSP as a header, and the gallery's
 * images from `app://relay/gallery/<hash>.<ext>` through `galleryFile` (which answers only for
 * files inside the gallery folder); nothing else.
 */
export function serveRenderer(
  rendererDir: string,
  galleryFile?: (pathname: string) => Promise<string | undefined>,
): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const pathname = galleryPathOf(request.url);
    const file =
      pathname !== undefined && galleryFile
        ? await galleryFile(pathname)
        : resolveRendererFile(rendererDir, request.url);
    if (file === undefined) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'content-type': contentTypeOf(file),
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
