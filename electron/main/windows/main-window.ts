import { BrowserWindow, shell, type WebContents } from 'electron';
import { isSafeExternalUrl, mainWindowOptions, quickWindowOptions } from './main-window-options';

/**
 * Locks down a web contents: no navigation away from the app, no new windows, no permissions.
 *
 * Links meant for a browser (`target="_blank"` or `window.open`) go to the operating system's
 * browser when they are plain http(s) URLs; everything else is dropped.
 */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!event.isSameDocument) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!event.isSameDocument) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false);
  });
  contents.session.setPermissionCheckHandler(() => false);
}

/** Where the renderer comes from: the dev server while developing, the built page otherwise. */
export type RendererSource = { url: string } | { file: string };

/** Creates the main window and loads the renderer into it. */
export function createMainWindow(
  preloadPath: string,
  source: RendererSource,
  build: { packaged: boolean },
  bounds?: { x: number; y: number; width: number; height: number },
  { hidden = false }: { hidden?: boolean } = {},
): BrowserWindow {
  const options = mainWindowOptions(preloadPath, build);
  const window = new BrowserWindow({
    ...options,
    ...bounds,
    // The boundary flags again, literally, where the window is made: a static scanner
    // (electronegativity, in CI) reads them here, and nothing spread above can undo them.
    webPreferences: {
      ...options.webPreferences,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (!hidden) window.once('ready-to-show', () => window.show());
  const loading = 'url' in source ? window.loadURL(source.url) : window.loadFile(source.file);
  loading.catch((error: unknown) => {
    console.error('The main window could not load the renderer:', error);
  });
  return window;
}

/**
 * Creates the quick ask window (hidden) and loads its page. Its contents are hardened by the
 * app's `web-contents-created` handler like the main window's.
 */
export function createQuickWindow(
  preloadPath: string,
  source: RendererSource,
  build: { packaged: boolean },
): BrowserWindow {
  const options = quickWindowOptions(preloadPath, build);
  const window = new BrowserWindow({
    ...options,
    // As in createMainWindow: the boundary flags again, literally, for the static scanner.
    webPreferences: {
      ...options.webPreferences,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  const loading = 'url' in source ? window.loadURL(source.url) : window.loadFile(source.file);
  loading.catch((error: unknown) => {
    console.error('The quick ask window could not load its page:', error);
  });
  return window;
}
