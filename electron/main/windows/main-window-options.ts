import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The web preferences of every window of the app: the main window and the quick ask window.
 *
 * Every flag that guards the boundary between the web page and the machine is spelled out, even
 * where it matches Electron's default, so a changed default upstream cannot weaken it.
 */
export function secureWebPreferences(
  preloadPath: string,
  build: { packaged: boolean },
): WebPreferences {
  return {
    preload: preloadPath,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    plugins: false,
    enableWebSQL: false,
    // Middle-click would otherwise open links in a new window without the open handler's say.
    disableBlinkFeatures: 'Auxclick',
    // An installed build has no developer tools: they would show and change the page's state
    // (and call its bridge) for anyone at the keyboard. Development builds keep them.
    devTools: !build.packaged,
  };
}

/**
 * The options of the main window.
 *
 * Kept free of runtime Electron imports so the security-relevant flags can be checked by a plain
 * unit test.
 */
export function mainWindowOptions(
  preloadPath: string,
  build: { packaged: boolean },
): BrowserWindowConstructorOptions {
  return {
    title: 'Relay Desktop',
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    // Shown on `ready-to-show`, so the first paint is the themed page rather than a white flash.
    show: false,
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preloadPath, build),
  };
}

/**
 * The options of the quick ask window: small, on top of other windows, without a frame or a
 * taskbar entry, and hidden until the shortcut shows it; the same web preferences as the main
 * window.
 */
export function quickWindowOptions(
  preloadPath: string,
  build: { packaged: boolean },
): BrowserWindowConstructorOptions {
  return {
    title: 'Quick ask – Relay Desktop',
    width: 640,
    height: 440,
    minWidth: 420,
    minHeight: 220,
    show: false,
    frame: false,
    resizable: true,
    alwaysOnTop: true,
    skipTaskbar: true,
    fullscreenable: false,
    minimizable: false,
    maximizable: false,
    webPreferences: secureWebPreferences(preloadPath, build),
  };
}

/**
 * Whether a URL may be handed to the operating system's browser.
 *
 * Only absolute http(s) URLs without embedded credentials qualify: anything else (file:, custom
 * schemes, javascript:) could launch a local program or leak a secret through the shell.
 */
export function isSafeExternalUrl(candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username !== '' || url.password !== '') return false;
  return url.hostname !== '';
}
