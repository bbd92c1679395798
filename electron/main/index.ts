import { join } from 'node:path';
import { app, BrowserWindow, screen } from 'electron';
import { ROUTES } from '../shared/ipc/contract';
import { createAppServices } from './app-services';
import { createRouter, originOf, trustedSender } from './ipc/router';
import { registerAppScheme, serveRenderer } from './platform/app-protocol';
import { electronDesktop, electronDialogs } from './platform/desktop';
import { electronFetch } from './platform/electron-fetch';
import { emitTo, registerIpc } from './platform/ipc-main';
import { openSecretStore } from './platform/keychain';
import { SettingsService } from './services/settings';
import { fitToDisplays, loadWindowState, saveWindowState } from './services/window-state';
import { APP_ENTRY_URL, APP_ORIGIN } from './windows/app-origin';
import { createMainWindow, hardenWebContents } from './windows/main-window';

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const rendererDir = join(import.meta.dirname, '../renderer');
const devServerUrl = !app.isPackaged ? process.env['ELECTRON_RENDERER_URL'] : undefined;

// Every renderer runs sandboxed, including any window a later feature opens.
app.enableSandbox();
registerAppScheme();

let mainWindow: BrowserWindow | undefined;

/** Opens the window where it was last closed (if that place is still on a display). */
async function openMainWindow(userDataDir: string): Promise<BrowserWindow> {
  const saved = await loadWindowState(userDataDir);
  const bounds =
    saved &&
    fitToDisplays(
      saved.bounds,
      screen.getAllDisplays().map((d) => d.workArea),
    );
  const window = createMainWindow(preloadPath, { url: devServerUrl ?? APP_ENTRY_URL }, bounds);
  if (saved?.maximized) window.maximize();
  window.on('close', () => {
    const state = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    saveWindowState(userDataDir, state).catch((error: unknown) =>
      console.error('The window position was not saved:', error),
    );
  });
  return window;
}

async function start(): Promise<void> {
  const userDataDir = app.getPath('userData');
  const services = await createAppServices({
    userDataDir,
    picturesDir: app.getPath('pictures'),
    secretStore: await openSecretStore({
      userDataDir,
      allowPlaintextFile: (await new SettingsService(userDataDir).get()).allowPlaintextKeys,
    }),
    fetch: electronFetch,
    dialogs: electronDialogs,
    desktop: electronDesktop,
    emit: emitTo(() => mainWindow),
    version: app.getVersion(),
    platform: process.platform,
  });
  const origins = [APP_ORIGIN, ...(devServerUrl ? [originOf(devServerUrl) ?? ''] : [])];
  const router = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(origins, () =>
      mainWindow && !mainWindow.isDestroyed() ? [mainWindow.webContents.id] : [],
    ),
    onInternalError: (channel, error) => console.error(`IPC ${channel} failed:`, error),
  });
  registerIpc(router.channels, router.dispatch);
  serveRenderer(rendererDir, (pathname) => services.gallery.servedFile(pathname));
  mainWindow = await openMainWindow(userDataDir);
  app.on('before-quit', () => void services.close());
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));

  app.on('second-instance', () => {
    if (!mainWindow || mainWindow.isDestroyed()) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) {
      void openMainWindow(app.getPath('userData')).then((window) => {
        mainWindow = window;
      });
    }
  });

  app.whenReady().then(start, (error: unknown) => {
    console.error('Relay Desktop could not start:', error);
    app.exit(1);
  });
}
