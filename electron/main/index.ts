import { release } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { app, BrowserWindow, Menu, screen } from 'electron';
import { emitEvents, ROUTES, type Emit } from '../shared/ipc/contract';
import { createAppServices, type AppServices } from './app-services';
import { CHAT_IMPORT_WORKER, DOCUMENT_WORKER } from './build-entries';
import { createRouter, trustedSender } from './ipc/router';
import { registerAppScheme, serveRenderer } from './platform/app-protocol';
import { electronDesktop, electronDialogs, openFolder } from './platform/desktop';
import { electronFetch } from './platform/electron-fetch';
import { emitTo, registerIpc } from './platform/ipc-main';
import { openSecretStore } from './platform/keychain';
import { openAppLog } from './platform/logging';
import { logProcessErrors, type AppLog } from './services/log';
import { logsFolder } from './services/log-policy';
import { SettingsService } from './services/settings/settings';
import { fitToDisplays, loadWindowState, saveWindowState } from './services/window-state';
import { appMenuTemplate } from './windows/app-menu';
import { APP_ENTRY_URL, APP_ORIGIN } from './windows/app-origin';
import { createMainWindow, hardenWebContents } from './windows/main-window';
import { checkStart, StartRefused, type StartPlan } from './windows/start-policy';

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
/** A separate entry of the build (`electron.vite.config.ts`), beside this file. */
const importWorkerPath = join(import.meta.dirname, `${CHAT_IMPORT_WORKER}.js`);
const documentWorkerPath = join(import.meta.dirname, `${DOCUMENT_WORKER}.js`);
const rendererDir = join(import.meta.dirname, '../renderer');

/** Refuses a start with remote debugging (packaged) or an unreadable dev server address. */
function planStart(): StartPlan {
  try {
    return checkStart({
      isPackaged: app.isPackaged,
      argv: process.argv,
      env: process.env,
      hasSwitch: (name) => app.commandLine.hasSwitch(name),
    });
  } catch (error) {
    if (!(error instanceof StartRefused)) throw error;
    console.error(error.message);
    app.exit(1);
    // app.exit ends the process at once; nothing below may run in the meantime.
    process.exit(1);
  }
}

const { devServer } = planStart();

// Every renderer runs sandboxed, including any window a later feature opens.
app.enableSandbox();
registerAppScheme();

let mainWindow: BrowserWindow | undefined;
/** The support log (`logs/main.log`); opened once this instance holds the single-instance lock. */
let log: AppLog | undefined;
/** The services, once started; closed before the process ends. */
let services: AppServices | undefined;

/**
 * Writes started while the app closes (the window's place, saved as it closes) that the process
 * must not end before. Electron ends the process right after `quit`, whatever is still pending.
 */
const finishing = new Set<Promise<unknown>>();

function finishBeforeQuit(work: Promise<unknown>): void {
  finishing.add(work);
  void work.finally(() => finishing.delete(work));
}

/** How long quitting waits for the app's own work (a stuck keyring or stream must not hang it). */
const QUIT_DEADLINE_MS = 5_000;

/** Opens the window where it was last closed (if that place is still on a display). */
async function openMainWindow(userDataDir: string): Promise<BrowserWindow> {
  const saved = await loadWindowState(userDataDir);
  const bounds =
    saved &&
    fitToDisplays(
      saved.bounds,
      screen.getAllDisplays().map((d) => d.workArea),
    );
  const window = createMainWindow(
    preloadPath,
    { url: devServer?.url ?? APP_ENTRY_URL },
    { packaged: app.isPackaged },
    bounds,
  );
  if (saved?.maximized) window.maximize();
  window.on('close', () => {
    const state = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    finishBeforeQuit(
      saveWindowState(userDataDir, state).catch((error: unknown) =>
        log?.error('window.state-not-saved', error),
      ),
    );
  });
  return window;
}

/** The application menu; its commands go to the renderer, which runs them as it runs their keys. */
function setAppMenu(userDataDir: string, emit: Emit): void {
  const template = appMenuTemplate({
    platform: process.platform,
    appName: app.name,
    isPackaged: app.isPackaged,
    runCommand(id) {
      if (!mainWindow || mainWindow.isDestroyed()) return;
      mainWindow.show();
      emit('shellCommand', { id });
    },
    openLogsFolder() {
      openFolder(logsFolder(userDataDir)).then(
        (problem) => problem && log?.warn('logs.open-failed', { message: problem }),
        (error: unknown) => log?.error('logs.open-failed', error),
      );
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function start(appLog: AppLog): Promise<void> {
  const userDataDir = app.getPath('userData');
  const send = emitTo(() => mainWindow);
  setAppMenu(userDataDir, emitEvents(send));
  const secretStore = await openSecretStore({
    userDataDir,
    allowPlaintextFile: (await new SettingsService(userDataDir).get()).allowPlaintextKeys,
  });
  const { backend, secure, persistent, detail } = secretStore.status;
  appLog.info('keys.storage', { backend, secure, persistent, detail });
  const started = await createAppServices({
    userDataDir,
    picturesDir: app.getPath('pictures'),
    secretStore,
    log: appLog,
    fetch: electronFetch,
    dialogs: electronDialogs,
    desktop: electronDesktop,
    startImportWorker: (workerData) => new Worker(importWorkerPath, { workerData }),
    startDocumentWorker: (workerData) => new Worker(documentWorkerPath, { workerData }),
    emit: send,
    // After a restore, the page starts again on the restored data. A reload the page asked for
    // itself would be refused by the window's navigation guard; one from main is not.
    reloadWindow: () => {
      if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.reload();
    },
    version: app.getVersion(),
    platform: process.platform,
  });
  services = started;
  const origins = [APP_ORIGIN, ...(devServer ? [devServer.origin] : [])];
  const router = createRouter(ROUTES, started.handlers, {
    isTrustedSender: trustedSender(origins, () =>
      mainWindow && !mainWindow.isDestroyed() ? [mainWindow.webContents.id] : [],
    ),
    onInternalError: (channel, error) => appLog.error('ipc.internal-error', error, { channel }),
  });
  registerIpc(router.channels, router.dispatch);
  serveRenderer(rendererDir, (pathname) => started.gallery.servedFile(pathname));
  mainWindow = await openMainWindow(userDataDir);
}

/**
 * What the app finishes before the process ends, once every window has closed: the writes still
 * running (the window's place), then the services (streams stopped and saved, the demo relay
 * stopped, the database closed, so SQLite folds its WAL file back into the database).
 */
async function shutDown(starting: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), QUIT_DEADLINE_MS);
  });
  const work = (async () => {
    await starting.catch(() => undefined);
    await Promise.allSettled([...finishing]);
    await services?.close();
  })();
  try {
    if ((await Promise.race([work, deadline])) === 'late') {
      log?.warn('app.quit-timed-out', { waitedMs: QUIT_DEADLINE_MS });
    }
  } catch (error) {
    log?.error('app.close-failed', error);
  } finally {
    clearTimeout(timer);
  }
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  const appLog = openAppLog(app.getPath('userData'));
  log = appLog;
  logProcessErrors(appLog);
  appLog.info('app.start', {
    version: app.getVersion(),
    platform: process.platform,
    arch: process.arch,
    os: release(),
    electron: process.versions.electron,
    chrome: process.versions.chrome,
    node: process.versions.node,
    packaged: app.isPackaged,
  });
  app.on('render-process-gone', (_event, _contents, details) =>
    appLog.warn('renderer.gone', { reason: details.reason, exitCode: details.exitCode }),
  );
  app.on('child-process-gone', (_event, details) =>
    appLog.warn('child-process.gone', {
      type: details.type,
      name: details.name,
      reason: details.reason,
      exitCode: details.exitCode,
    }),
  );

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

  const starting = app
    .whenReady()
    .then(() => start(appLog))
    .catch((error: unknown) => {
      appLog.error('app.start-failed', error);
      console.error('Relay Desktop could not start:', error);
      app.exit(1);
    });

  // Every window is closed by now. Electron would end the process as soon as this returns, so
  // the quit is held until shutDown has finished, then asked for again and let through.
  let shutDownDone = false;
  app.on('will-quit', (event) => {
    if (shutDownDone) return;
    event.preventDefault();
    appLog.info('app.quit');
    void shutDown(starting).finally(() => {
      shutDownDone = true;
      app.quit();
    });
  });
}
