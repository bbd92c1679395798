import { release } from 'node:os';
import { resolveLocale } from '../shared/locales';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { app, Menu, screen, type BrowserWindow } from 'electron';
import { emitEvents, EVENTS, ROUTES, type Emit } from '../shared/ipc/contract';
import { PRELOAD_ROUTES } from '../shared/ipc/file-grants';
import { createAppServices, type AppServices } from './app-services';
import { CHAT_IMPORT_WORKER, DOCUMENT_WORKER } from './build-entries';
import { createRouter, trustedSender } from './ipc/router';
import { windowRoutes } from './ipc/window-routes';
import { registerAppScheme, serveRenderer } from './platform/app-protocol';
import { electronDesktop, electronDialogs, openFolder } from './platform/desktop';
import { createDesktopShell, readClipboardText, type DesktopShell } from './platform/desktop-shell';
import { electronFetch } from './platform/electron-fetch';
import { emitToWindows, registerIpc } from './platform/ipc-main';
import { openSecretStore } from './platform/keychain';
import { openAppLog } from './platform/logging';
import { electronProxyStack } from './platform/network';
import { openUpdater } from './platform/updater';
import { LOGIN_START_FLAG } from './services/desktop/autostart';
import { acceleratorLabel } from './services/desktop/accelerator';
import { findLinkInArgv, LINK_SCHEME } from './services/desktop/connect-link';
import { logProcessErrors, type AppLog } from './services/log';
import { logsFolder } from './services/log-policy';
import { SettingsService } from './services/settings/settings';
import { fitToDisplays, loadWindowState, saveWindowState } from './services/window-state';
import { mainLocale, nativeText } from './services/words';
import { appMenuTemplate } from './windows/app-menu';
import { APP_ENTRY_URL, APP_ORIGIN, QUICK_ENTRY_PATH, QUICK_ENTRY_URL } from './windows/app-origin';
import { createMainWindow, createQuickWindow, hardenWebContents } from './windows/main-window';
import { checkStart, StartRefused, type StartPlan } from './windows/start-policy';

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
/** A separate entry of the build (`electron.vite.config.ts`), beside this file. */
const importWorkerPath = join(import.meta.dirname, `${CHAT_IMPORT_WORKER}.js`);
const documentWorkerPath = join(import.meta.dirname, `${DOCUMENT_WORKER}.js`);
const rendererDir = join(import.meta.dirname, '../renderer');
/** The tray images: beside app.asar when packaged (`extraResources`), in resources/ otherwise. */
const trayIconDir = app.isPackaged
  ? join(process.resourcesPath, 'tray')
  : join(import.meta.dirname, '../../resources/tray');

/** The demo knowledge base's sample documents, placed like the tray images. */
const knowledgeSamplesDir = app.isPackaged
  ? join(process.resourcesPath, 'knowledge-samples')
  : join(import.meta.dirname, '../../resources/knowledge-samples');

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
/** The quick ask window: made the first time it is shown, then hidden and shown again. */
let quickWindow: BrowserWindow | undefined;
/** The tray icon, the global shortcut and the login item. */
let desktopShell: DesktopShell | undefined;
/** Set once a quit has begun: windows then close for real instead of going to the tray. */
let quitting = false;
/** Closing the main window hides it (the tray keeps the app), from the person's settings. */
let closeToTray = false;
/** A `relay-desktop://` link that arrived before the services were ready. */
let pendingLink: string | undefined;
/** The quick ask shortcut as the tray menu shows it, while quick ask is on. */
let quickAskKeys: string | undefined;
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

/**
 * Opens the window where it was last closed (if that place is still on a display); `hidden`
 * keeps it hidden (a start at login, into the tray).
 */
async function openMainWindow(
  userDataDir: string,
  { hidden = false }: { hidden?: boolean } = {},
): Promise<BrowserWindow> {
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
    { hidden },
  );
  if (saved?.maximized) window.maximize();
  window.on('close', (event) => {
    const state = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    finishBeforeQuit(
      saveWindowState(userDataDir, state).catch((error: unknown) =>
        log?.error('window.state-not-saved', error),
      ),
    );
    // Closing to the tray hides the window; a quit (the tray's, the menu's) still closes it.
    if (closeToTray && desktopShell?.trayShown === true && !quitting && !window.isDestroyed()) {
      event.preventDefault();
      window.hide();
    }
  });
  window.on('closed', () => {
    // Without the main window the hidden quick window would keep the app alive.
    if (!quitting && process.platform !== 'darwin') quickWindow?.destroy();
    desktopShell?.refreshTray();
  });
  window.on('show', () => desktopShell?.refreshTray());
  window.on('hide', () => desktopShell?.refreshTray());
  return window;
}

/** Shows the main window, opening it again if it was closed (macOS keeps the app without it). */
function showMainWindow(): void {
  if (mainWindow && !mainWindow.isDestroyed()) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
    return;
  }
  void openMainWindow(app.getPath('userData')).then((window) => {
    mainWindow = window;
  });
}

function toggleMainWindow(): void {
  if (mainWindow && !mainWindow.isDestroyed() && mainWindow.isVisible()) mainWindow.hide();
  else showMainWindow();
}

/** The quick ask window, made once; its page comes from the same origin as the main window's. */
function ensureQuickWindow(): BrowserWindow {
  if (quickWindow && !quickWindow.isDestroyed()) return quickWindow;
  const url = devServer ? new URL(QUICK_ENTRY_PATH, devServer.url).href : QUICK_ENTRY_URL;
  quickWindow = createQuickWindow(preloadPath, { url }, { packaged: app.isPackaged });
  return quickWindow;
}

/**
 * The shortcut or the tray: hides the quick window if it is in front, else reads the clipboard
 * (when the setting allows), shows it and tells its page.
 */
async function toggleQuickWindow(): Promise<void> {
  const window = ensureQuickWindow();
  if (window.isVisible() && window.isFocused()) {
    window.hide();
    return;
  }
  await services?.quickAsk.windowShown();
  window.show();
  window.focus();
  emit('quickAskShown', null);
}

/** Sends an event's payload on its channel to the window(s) it is for; the tray follows connections. */
function sendEvent(channel: string, payload: unknown): void {
  emitToWindows(() => ({ main: mainWindow, quick: quickWindow }))(channel, payload);
  if (channel === EVENTS.connectionsChanged.channel) void refreshTrayConnections();
}

/** Sends an event of the contract by its name. */
const emit: Emit = emitEvents(sendEvent);

/** The connections the tray menu lists, read again when they change. */
let trayConnections: { id: string; name: string; active: boolean; isDemo: boolean }[] = [];

async function refreshTrayConnections(): Promise<void> {
  if (!services || !desktopShell) return;
  try {
    const [list, activeId] = await Promise.all([
      services.connections.list(),
      services.connections.activeId(),
    ]);
    trayConnections = list.map((c) => ({
      id: c.id,
      name: c.name,
      active: c.id === activeId,
      isDemo: c.isDemo ?? false,
    }));
  } catch (error) {
    log?.warn('tray.connections-unread', { message: String(error) });
  }
  desktopShell.refreshTray();
}

/** A `relay-desktop://` link from the command line, another instance or macOS. */
function openLink(link: string): void {
  if (!services) {
    pendingLink = link;
    return;
  }
  services.desktop.openLink(link);
  showMainWindow();
}

/** The language the application menu was last built in. */
let menuLocale: string | undefined;

/**
 * The application menu, in main's language now (built again when it changes); its commands go to
 * the renderer, which runs them as it runs their keys.
 */
function setAppMenu(userDataDir: string, emit: Emit): void {
  menuLocale = mainLocale();
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
  setAppMenu(userDataDir, emit);
  const secretStore = await openSecretStore({
    userDataDir,
    allowPlaintextFile: (await new SettingsService(userDataDir).get()).allowPlaintextKeys,
  });
  const { backend, secure, persistent, detail } = secretStore.status;
  appLog.info('keys.storage', { backend, secure, persistent, detail });
  const updates = openUpdater(appLog);
  if ('reason' in updates) appLog.info('updates.unsupported', { reason: updates.reason.english });
  const platform = process.platform;
  desktopShell = createDesktopShell({
    trayIconDir,
    onShortcut: () => void toggleQuickWindow(),
    onTrayClick: () => toggleMainWindow(),
    trayMenu: () => ({
      windowVisible:
        mainWindow !== undefined && !mainWindow.isDestroyed() && mainWindow.isVisible(),
      connections: trayConnections,
      quickAskKeys,
      newChat() {
        showMainWindow();
        emit('shellCommand', { id: 'newChat' });
      },
      quickAsk: () => void toggleQuickWindow(),
      toggleWindow: () => toggleMainWindow(),
      selectConnection(id) {
        void services?.connections.select(id).then(
          () => emit('connectionsChanged', null),
          (error: unknown) => appLog.warn('tray.select-failed', { message: String(error) }),
        );
      },
      quit: () => app.quit(),
    }),
    autostartEntry: () => ({
      // An AppImage runs from a mounted image that changes each start: its own file is $APPIMAGE.
      command: process.env['APPIMAGE'] ?? process.execPath,
      args: [LOGIN_START_FLAG],
      name: app.name,
      comment: nativeText('autostart.comment'),
      icon: 'relay-desktop',
    }),
    loginArgs: [LOGIN_START_FLAG],
  });
  const started = await createAppServices({
    userDataDir,
    knowledgeSamplesDir,
    picturesDir: app.getPath('pictures'),
    secretStore,
    log: appLog,
    fetch: electronFetch,
    dialogs: electronDialogs,
    desktop: electronDesktop,
    startImportWorker: (workerData) => new Worker(importWorkerPath, { workerData }),
    startDocumentWorker: (workerData) => new Worker(documentWorkerPath, { workerData }),
    emit: sendEvent,
    // After a restore, the page starts again on the restored data. A reload the page asked for
    // itself would be refused by the window's navigation guard; one from main is not.
    reloadWindow: () => {
      if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.reload();
    },
    // The services over the data were opened again on the restored data: the shell follows the
    // new settings service and applies the restored shortcut, tray, login item and update checks.
    onReopened: () => {
      if (services)
        void followServices(services, { restored: true }).catch((error: unknown) => {
          appLog.error('backups.restored-shell', error);
        });
    },
    version: app.getVersion(),
    platform,
    // The system's preferred languages, most preferred first, then the UI language Chromium chose.
    systemLocale: resolveLocale([...app.getPreferredSystemLanguages(), app.getLocale()]),
    // The demo relay runs in this process on loopback: Node's own fetch, which no proxy reaches.
    directFetch: (url, init) => fetch(url, init),
    proxyStack: electronProxyStack,
    ...('updater' in updates
      ? { updater: updates.updater }
      : { updatesUnsupported: updates.reason }),
    desktopIntegration: desktopShell,
    windows: {
      showMain: () => showMainWindow(),
      hideQuickAsk: () => quickWindow?.hide(),
    },
    readClipboard: readClipboardText,
  });
  services = started;
  /** The shell (close to tray, the tray's label for quick ask) follows the services' settings. */
  async function followServices(current: AppServices, { restored = false } = {}): Promise<void> {
    const followSettings = (settings: Awaited<ReturnType<typeof current.settings.get>>) => {
      // The services set main's language from the settings first; the menu follows it.
      if (mainLocale() !== menuLocale) setAppMenu(userDataDir, emit);
      closeToTray = settings.desktop.closeToTray;
      quickAskKeys = settings.quickAsk.enabled
        ? acceleratorLabel(settings.quickAsk.shortcut, platform)
        : undefined;
      desktopShell?.refreshTray();
    };
    followSettings(await current.settings.get());
    current.settings.onChange(followSettings);
    if (restored) {
      // After a restore: the new services apply what the restored settings say.
      await current.desktop.start();
      await refreshTrayConnections();
      void current.updates.start();
    }
  }
  await followServices(started);
  const origins = [APP_ORIGIN, ...(devServer ? [devServer.origin] : [])];
  const router = createRouter(ROUTES, started.handlers, {
    // Exactly two windows are trusted: the main window and the quick ask window, top frames only.
    isTrustedSender: trustedSender(origins, () =>
      [mainWindow, quickWindow]
        .filter((window) => window !== undefined && !window.isDestroyed())
        .map((window) => window!.webContents.id),
    ),
    // The quick ask window reaches its own routes only.
    mayCall: windowRoutes(() =>
      quickWindow && !quickWindow.isDestroyed() ? [quickWindow.webContents.id] : [],
    ),
    onInternalError: (channel, error) => appLog.error('ipc.internal-error', error, { channel }),
    onRefused: (channel, error) =>
      appLog.warn('ipc.one-way-refused', { channel, kind: error.kind, message: error.message }),
  });
  registerIpc(router);
  // The preload's own channel (grants for a drop): the main window alone, which takes drops.
  registerIpc(
    createRouter(PRELOAD_ROUTES, started.preloadHandlers, {
      isTrustedSender: trustedSender(origins, () =>
        mainWindow && !mainWindow.isDestroyed() ? [mainWindow.webContents.id] : [],
      ),
      onInternalError: (channel, error) => appLog.error('ipc.internal-error', error, { channel }),
    }),
  );
  serveRenderer(rendererDir, (pathname) => started.gallery.servedFile(pathname));
  await started.desktop.start();
  await refreshTrayConnections();
  void started.updates.start();

  // Started at login with a tray to live in: stay there until the person opens the window.
  const atLogin =
    process.argv.includes(LOGIN_START_FLAG) ||
    (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  const trayShown = (await started.desktop.status()).tray.shown;
  mainWindow = await openMainWindow(userDataDir, { hidden: atLogin && trayShown });

  const link = pendingLink ?? findLinkInArgv(process.argv);
  pendingLink = undefined;
  if (link !== undefined) openLink(link);
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

  // A second start (Windows and Linux pass a link on its command line) shows this one instead.
  app.on('second-instance', (_event, argv) => {
    const link = findLinkInArgv(argv);
    if (link !== undefined) openLink(link);
    else if (services) showMainWindow();
  });
  // macOS hands links to the running app; it can do so before ready, while the app starts.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openLink(url);
  });
  // Registered by an installed build only: a development build would register the bare Electron
  // binary. The installers also declare the scheme (`protocols` in electron-builder.yml).
  if (app.isPackaged && !app.isDefaultProtocolClient(LINK_SCHEME)) {
    app.setAsDefaultProtocolClient(LINK_SCHEME);
  }

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (!services) return;
    showMainWindow();
  });

  app.on('before-quit', () => {
    quitting = true;
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
    desktopShell?.dispose();
    if (shutDownDone) return;
    event.preventDefault();
    appLog.info('app.quit');
    void shutDown(starting).finally(() => {
      shutDownDone = true;
      app.quit();
    });
  });
}
