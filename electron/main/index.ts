import { join } from 'node:path';
import { app, BrowserWindow } from 'electron';
import { createMainWindow, hardenWebContents, type RendererSource } from './windows/main-window';

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');

function rendererSource(): RendererSource {
  const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
  if (!app.isPackaged && devServerUrl) return { url: devServerUrl };
  return { file: join(import.meta.dirname, '../renderer/index.html') };
}

function openMainWindow(): BrowserWindow {
  return createMainWindow(preloadPath, rendererSource());
}

// Every renderer runs sandboxed, including any window a later feature opens.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | undefined;

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
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = openMainWindow();
  });

  void app.whenReady().then(() => {
    mainWindow = openMainWindow();
  });
}
