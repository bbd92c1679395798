import { protocol } from 'electron';
import { answerAppRequest, APP_SCHEME } from '../windows/app-origin';

/** Must run before the app is ready: makes `app://` a secure, standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/**
 * Serves the built renderer from `app://relay/`, with the CSP as a header, and the gallery's
 * images from `app://relay/gallery/<hash>.<ext>` through `galleryFile` (which answers only for
 * files inside the gallery folder); nothing else. See `answerAppRequest`.
 */
export function serveRenderer(
  rendererDir: string,
  galleryFile?: (pathname: string) => Promise<string | undefined>,
): void {
  protocol.handle(APP_SCHEME, (request) =>
    answerAppRequest(request.url, { rendererDir, ...(galleryFile ? { galleryFile } : {}) }),
  );
}
