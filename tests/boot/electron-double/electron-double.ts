/**
 * A recording double of Electron's main-process API, for loading the built main bundle in plain
 * Node (see `runtime.ts` and the boot tests).
 *
 * It implements what the app uses, each piece doing what Electron documents (and refusing what
 * Electron refuses: `enableSandbox` or `registerSchemesAsPrivileged` after ready, a window before
 * ready, a second `ipcMain.handle` for one channel, an invalid menu template), and nothing else:
 * every other export and property throws, naming its path (`strict.ts`). A feature that starts
 * using a new Electron API (a tray, a global shortcut, `session.setProxy`, the auto-updater's
 * `app` calls, `app.setAsDefaultProtocolClient`) adds it here, in the section of its module, with
 * Electron's documented behaviour, and the boot test asserts the call.
 *
 * What it cannot show: anything Chromium does (rendering, the sandbox itself, the network stack,
 * how a registered scheme is parsed), and timing: Electron's own steps take their own time; the
 * double takes one macrotask between the steps of a quit and ends the process at `quit`, as
 * Electron does, without waiting for work the app did not hold the quit for.
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type {
  BrowserWindowConstructorOptions,
  MenuItemConstructorOptions,
  ProxyConfig,
  Rectangle,
  Settings as LoginItemSettings,
} from 'electron';
import { describe, strict, strictClass, unimplemented, type Journal } from './strict';

export interface DoubleConfig {
  /** Every value Electron's main process exports: the `Main` and `Common` namespaces. */
  exportNames: readonly string[];
  /**
   * What only Electron's other processes export (`ipcRenderer`, `parentPort`, …): in the main
   * process `require('electron').ipcRenderer` is undefined, and libraries probe for it that way.
   */
  otherProcessNames: readonly string[];
  /** `app.name`: the `productName` of the app's package.json. */
  appName: string;
  /** `app.getVersion()`: the `version` of the app's package.json. */
  appVersion: string;
  isPackaged: boolean;
  /** What `app.getPath(name)` answers; any other name is not implemented. */
  paths: Readonly<Record<string, string>>;
  /** The switches Chromium parsed from the command line (`app.commandLine.hasSwitch`). */
  switches: readonly string[];
  /** Whether `app.requestSingleInstanceLock()` gets the lock. */
  singleInstanceLock: boolean;
  /** `screen.getAllDisplays()`. */
  displays: readonly { bounds: Rectangle; workArea: Rectangle }[];
  /** `process.resourcesPath`: where an installed app's `app.asar` and extra resources are. */
  resourcesPath: string;
  /** Global shortcuts another app holds: `globalShortcut.register` refuses them. */
  takenShortcuts: readonly string[];
  /** The system's proxy, as `session.resolveProxy` answers it in 'system' mode (`DIRECT`). */
  systemProxy: string;
  /** `nativeTheme.shouldUseDarkColors`. */
  darkTheme: boolean;
  /** `app.getPreferredSystemLanguages()`: the system's languages, most preferred first. */
  preferredLanguages: readonly string[];
  /** `app.getLocale()`: the UI language Chromium chose. */
  locale: string;
  /** What `clipboard.readText()` and, on Linux, `clipboard.selection.readText()` give. */
  clipboardText: string;
  selectionText: string;
  /**
   * The buttons the person clicks in `dialog.showMessageBox`, in order (their index); with none
   * left, the dialog is cancelled (its `cancelId`).
   */
  messageBoxAnswers?: readonly number[];
}

/** Who sends an IPC message: a frame of one of the windows, at the URL it shows. */
export interface SenderSpec {
  /** The window (`BrowserWindow.id`); the first one if absent. */
  window?: number;
  /** Its top frame (what the page's own scripts are), or an iframe inside it. */
  frame: 'main' | 'sub';
  /** The frame's URL; the URL the window loaded if absent. */
  url?: string;
}

export interface ProtocolAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export type InvokeAnswer = { ok: true; value: unknown } | { ok: false; error: string };

/** The double's live state, as plain data. */
export interface DoubleState {
  ready: boolean;
  sandboxEnabled: boolean;
  privilegedSchemes: unknown;
  protocolHandlers: string[];
  ipcHandlers: string[];
  ipcListeners: Record<string, number>;
  appListeners: Record<string, number>;
  applicationMenu: unknown;
  windows: WindowState[];
  /** `app.setAsDefaultProtocolClient`'s schemes. */
  protocolClients: string[];
  loginItem: unknown;
  /** The accelerators registered with `globalShortcut`. */
  shortcuts: string[];
  tray: TrayState | undefined;
  /** The proxy of each session, by partition (`''`: the default session). */
  proxies: Record<string, unknown>;
  /** The partition of each `net.request`'s session, in order (`''`: the default session). */
  netRequests: { url: string; partition: string }[];
}

export interface TrayState {
  image: { path: string; empty: boolean };
  tooltip: string | undefined;
  menu: unknown;
  destroyed: boolean;
}

export interface WindowState {
  id: number;
  webContentsId: number;
  options: unknown;
  url: string | undefined;
  visible: boolean;
  focused: boolean;
  destroyed: boolean;
  /** Events the app sent to the page: `webContents.send(channel, payload)`. */
  sent: { channel: string; args: unknown[] }[];
  hasWindowOpenHandler: boolean;
  permissionHandlers: { request: boolean; check: boolean };
  contentsListeners: Record<string, number>;
}

export interface DoubleControl {
  /** What Electron does once Chromium has started: `ready`, and `whenReady()` resolves. */
  makeReady(): void;
  /** A request to a scheme the app handles, as a page of the app would make it. */
  protocolRequest(url: string): Promise<ProtocolAnswer>;
  /** `ipcRenderer.invoke(channel, payload)` from the given frame. */
  invoke(channel: string, payload: unknown, sender: SenderSpec): Promise<InvokeAnswer>;
  /**
   * `ipcRenderer.send(channel, payload)` from the given frame: each `ipcMain.on` listener of the
   * channel is called, nothing is answered; how many listeners there were.
   */
  send(channel: string, payload: unknown, sender: SenderSpec): Promise<{ listeners: number }>;
  /** The page tries to navigate its top frame; whether the app prevented it. */
  navigate(window: number | undefined, url: string): { prevented: boolean };
  /** The page calls `window.open(url)`; what the app's handler answered. */
  openWindow(window: number | undefined, url: string): unknown;
  /** The page asks for a permission, and checks one; whether each was granted. */
  permission(
    window: number | undefined,
    permission: string,
  ): Promise<{ requested: boolean | 'no handler'; checked: boolean | 'no handler' }>;
  /** The person chooses the menu item with this id. */
  clickMenuItem(id: string): void;
  /** The person closes the window (its close button). */
  closeWindow(window: number | undefined): void;
  /** `app.quit()`, as the menu's Quit or Cmd+Q does. */
  quit(): void;
  /** Another start of the app with these arguments: `second-instance` in this one. */
  secondInstance(argv: string[]): void;
  /** macOS hands the app a link: `open-url`. */
  openUrl(url: string): { prevented: boolean };
  /** The person presses a registered global shortcut. */
  pressShortcut(accelerator: string): void;
  /** The person clicks the tray icon, or an item of its menu. */
  clickTray(): void;
  clickTrayMenuItem(id: string): void;
  state(): DoubleState;
}

export interface ElectronDouble {
  /** What `import … from 'electron'` and `require('electron')` give the app. */
  electron: Record<string, unknown>;
  control: DoubleControl;
}

/** An event object of Electron's: `preventDefault()` and whatever fields the event carries. */
function electronEvent<Fields extends object>(
  path: string,
  journal: Journal,
  fields: Fields = {} as Fields,
) {
  const event = {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return { event, proxy: strict(path, event, journal) };
}

function listenerCounts(emitter: EventEmitter): Record<string, number> {
  return Object.fromEntries(
    emitter.eventNames().map((name) => [String(name), emitter.listenerCount(name)]),
  );
}

/**
 * Electron's check in `Menu.buildFromTemplate` (lib/browser/api/menu.ts): every item has a
 * label, a role or the separator type, at every level.
 */
function checkMenuTemplate(template: unknown): void {
  if (!Array.isArray(template)) {
    throw new TypeError('Invalid template for Menu: Menu template must be an array');
  }
  for (const item of template as unknown[]) {
    const valid =
      item !== null &&
      typeof item === 'object' &&
      (Object.hasOwn(item, 'label') ||
        Object.hasOwn(item, 'role') ||
        (item as { type?: unknown }).type === 'separator');
    if (!valid) {
      throw new TypeError(
        'Invalid template for MenuItem: must have at least one of label, role or type',
      );
    }
    const submenu = (item as { submenu?: unknown }).submenu;
    if (Array.isArray(submenu)) checkMenuTemplate(submenu);
  }
}

function findMenuItem(
  items: readonly MenuItemConstructorOptions[],
  id: string,
): MenuItemConstructorOptions | undefined {
  for (const item of items) {
    if (item.id === id) return item;
    if (Array.isArray(item.submenu)) {
      const found = findMenuItem(item.submenu, id);
      if (found) return found;
    }
  }
  return undefined;
}

export function createElectronDouble(
  config: DoubleConfig,
  journal: Journal,
  exit: (code: number) => never,
): ElectronDouble {
  let ready = false;
  let quitting = false;
  let markReady = () => {};
  const whenReady = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  function requireReady(what: string): void {
    if (!ready) throw new Error(`${what} cannot be used before the app is ready.`);
  }

  // ---------------------------------------------------------------------------------------- app

  let sandboxEnabled = false;
  const protocolClients = new Set<string>();
  let loginItem: unknown;
  const appImpl = Object.assign(new EventEmitter(), {
    get name() {
      return config.appName;
    },
    get isPackaged() {
      return config.isPackaged;
    },
    commandLine: strict(
      'app.commandLine',
      { hasSwitch: (name: string) => config.switches.includes(name) },
      journal,
    ),
    enableSandbox() {
      if (ready) throw new Error('app.enableSandbox() can only be called before app is ready');
      sandboxEnabled = true;
    },
    requestSingleInstanceLock: () => config.singleInstanceLock,
    getVersion: () => config.appVersion,
    getPreferredSystemLanguages: () => [...config.preferredLanguages],
    getLocale() {
      if (!ready) throw new Error('app.getLocale() can only be called after app is ready');
      return config.locale;
    },
    getName: () => config.appName,
    /** Records the scheme; the OS's own registration is the installers' (electron-builder). */
    setAsDefaultProtocolClient(protocol: string) {
      protocolClients.add(protocol);
      return true;
    },
    isDefaultProtocolClient: (protocol: string) => protocolClients.has(protocol),
    /** Electron keeps no state on Linux, where this does nothing; recorded as given. */
    setLoginItemSettings(settings: LoginItemSettings) {
      loginItem = describe(settings);
    },
    getLoginItemSettings: () =>
      strict(
        'app.getLoginItemSettings()',
        {
          openAtLogin: (loginItem as LoginItemSettings | undefined)?.openAtLogin ?? false,
          wasOpenedAtLogin: false,
          executableWillLaunchAtLogin: false,
          launchItems: [],
        },
        journal,
      ),
    getPath(name: string) {
      const path = config.paths[name];
      if (path === undefined) {
        journal.missing({ path: `app.getPath('${name}')`, how: 'call' });
        throw new Error(`The Electron double has no path for app.getPath('${name}').`);
      }
      return path;
    },
    isReady: () => ready,
    whenReady: () => whenReady,
    /** Electron's quit: before-quit, close every window, will-quit, quit, then the process ends. */
    quit() {
      if (quitting) return;
      const before = electronEvent('app before-quit event', journal);
      appImpl.emit('before-quit', before.proxy);
      if (before.event.defaultPrevented) return;
      quitting = true;
      setImmediate(() => {
        for (const window of [...windows]) {
          if (!window.close()) {
            quitting = false;
            return;
          }
        }
        setImmediate(() => {
          const willQuit = electronEvent('app will-quit event', journal);
          appImpl.emit('will-quit', willQuit.proxy);
          if (willQuit.event.defaultPrevented) {
            quitting = false;
            return;
          }
          appImpl.emit('quit', electronEvent('app quit event', journal).proxy, 0);
          exit(0);
        });
      });
    },
    /** Ends at once: no events, no windows asked (Electron's `app.exit`). */
    exit(code = 0) {
      exit(code);
    },
  });
  const app = strict('app', appImpl, journal);

  // ------------------------------------------------------------------------------ session

  const permissionHandlers: {
    request?: ((...args: unknown[]) => void) | undefined;
    check?: ((...args: unknown[]) => boolean) | undefined;
  } = {};
  const proxies = new Map<string, ProxyConfig>();

  /**
   * Chromium's answer for a URL under a session's proxy, in PAC form, for the modes the app
   * sets: the system's (the configured `systemProxy`), direct, or fixed servers whose bypass
   * rules are host names, `.domain`/`*.domain` suffixes and `<local>`; this computer's own
   * addresses are always direct, as Chromium's implicit rules make them.
   */
  function resolveProxy(partition: string, url: string): string {
    const proxy = proxies.get(partition) ?? { mode: 'system' };
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (['localhost', '127.0.0.1', '::1'].includes(host)) return 'DIRECT';
    if (proxy.mode === 'system') return config.systemProxy;
    if (proxy.mode !== 'fixed_servers' || !proxy.proxyRules) return 'DIRECT';
    for (const rule of (proxy.proxyBypassRules ?? '').split(/[,;]/).map((r) => r.trim())) {
      if (rule === '<local>' && !host.includes('.')) return 'DIRECT';
      const suffix = rule.replace(/^\*/, '');
      if (rule === host || (suffix.startsWith('.') && `.${host}`.endsWith(suffix))) return 'DIRECT';
    }
    const server = new URL(proxy.proxyRules);
    const kinds: Record<string, string> = {
      'http:': 'PROXY',
      'https:': 'HTTPS',
      'socks5:': 'SOCKS5',
    };
    return `${kinds[server.protocol] ?? 'PROXY'} ${server.host}`;
  }

  /** A session of Electron's: permission handlers, the proxy, and its open connections. */
  function createSession(path: string, partition: string) {
    const impl = {
      partition,
      setPermissionRequestHandler(handler: ((...args: unknown[]) => void) | null) {
        permissionHandlers.request = handler ?? undefined;
      },
      setPermissionCheckHandler(handler: ((...args: unknown[]) => boolean) | null) {
        permissionHandlers.check = handler ?? undefined;
      },
      async setProxy(proxyConfig: ProxyConfig) {
        requireReady(`${path}.setProxy`);
        proxies.set(partition, { ...proxyConfig });
      },
      async resolveProxy(url: string) {
        return resolveProxy(partition, url);
      },
      async closeAllConnections() {},
    };
    return strict(path, impl, journal);
  }

  const defaultSession = createSession('session.defaultSession', '');
  const partitions = new Map<string, object>();
  const session = strict(
    'session',
    {
      defaultSession,
      /** The same session for the same partition, as Electron gives it. */
      fromPartition(partition: string, _options?: { cache?: boolean }) {
        requireReady('session.fromPartition');
        let found = partitions.get(partition);
        if (!found) {
          found = createSession(`session.fromPartition('${partition}')`, partition);
          partitions.set(partition, found);
        }
        return found;
      },
    },
    journal,
  );

  // ---------------------------------------------------------------------- protocol

  let privilegedSchemes: unknown;
  const protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  const protocol = strict(
    'protocol',
    {
      registerSchemesAsPrivileged(schemes: unknown) {
        if (ready) {
          throw new Error(
            'protocol.registerSchemesAsPrivileged should be called before app is ready',
          );
        }
        // Electron documents it as callable once: a second call replaces the first list.
        if (privilegedSchemes !== undefined) {
          throw new Error('protocol.registerSchemesAsPrivileged can be called only once');
        }
        privilegedSchemes = describe(schemes);
      },
      handle(scheme: string, handler: (request: Request) => Response | Promise<Response>) {
        requireReady('protocol.handle');
        if (protocolHandlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`);
        protocolHandlers.set(scheme, handler);
      },
    },
    journal,
  );

  async function protocolRequest(url: string): Promise<ProtocolAnswer> {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = protocolHandlers.get(scheme);
    if (!handler) throw new Error(`No handler is registered for ${scheme}:`);
    const response = await handler(new Request(url));
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: new Uint8Array(await response.arrayBuffer()),
    };
  }

  // ---------------------------------------------------------------------- ipcMain

  type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;
  const ipcHandlers = new Map<string, InvokeHandler>();
  const ipcMainImpl = Object.assign(new EventEmitter(), {
    handle(channel: string, handler: InvokeHandler) {
      if (ipcHandlers.has(channel)) {
        throw new Error(`Attempted to register a second handler for '${channel}'`);
      }
      ipcHandlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      ipcHandlers.delete(channel);
    },
  });
  const ipcMain = strict('ipcMain', ipcMainImpl, journal);

  // ------------------------------------------------------------- BrowserWindow, webContents

  interface WindowRecord {
    id: number;
    proxy: object;
    contents: ContentsRecord;
    options: BrowserWindowConstructorOptions;
    state: {
      bounds: Rectangle;
      visible: boolean;
      maximized: boolean;
      minimized: boolean;
      destroyed: boolean;
    };
    /** Emits `close`; unless prevented, destroys the window. Whether it closed. */
    close(): boolean;
  }

  interface ContentsRecord {
    id: number;
    emitter: EventEmitter;
    proxy: object;
    mainFrame: { url: string | undefined };
    mainFrameProxy: object;
    url: string | undefined;
    destroyed: boolean;
    sent: { channel: string; args: unknown[] }[];
    windowOpenHandler: ((details: unknown) => unknown) | undefined;
  }

  const windows: WindowRecord[] = [];
  let nextWindowId = 1;
  let nextContentsId = 1;
  let focused: WindowRecord | undefined;

  function createContents(windowPath: string): ContentsRecord {
    const id = nextContentsId++;
    const path = `${windowPath}.webContents`;
    const mainFrame = {
      get url() {
        return record.url;
      },
    };
    const emitter = new EventEmitter();
    const record: ContentsRecord = {
      id,
      emitter,
      proxy: {},
      mainFrame,
      mainFrameProxy: strict(`${path}.mainFrame`, mainFrame, journal),
      url: undefined,
      destroyed: false,
      sent: [],
      windowOpenHandler: undefined,
    };
    record.proxy = strict(
      path,
      Object.assign(emitter, {
        id,
        session: defaultSession,
        mainFrame: record.mainFrameProxy,
        send(channel: string, ...args: unknown[]) {
          record.sent.push({ channel, args: describe(args) as unknown[] });
        },
        setWindowOpenHandler(handler: (details: unknown) => unknown) {
          record.windowOpenHandler = handler;
        },
        getURL: () => record.url ?? '',
        isDestroyed: () => record.destroyed,
      }),
      journal,
    );
    return record;
  }

  function createWindow(...args: unknown[]): object {
    requireReady('BrowserWindow');
    const options = (args[0] ?? {}) as BrowserWindowConstructorOptions;
    const id = nextWindowId++;
    const path = `BrowserWindow#${id}`;
    const contents = createContents(path);
    const emitter = new EventEmitter();
    const state = {
      bounds: {
        x: options.x ?? 0,
        y: options.y ?? 0,
        width: options.width ?? 800,
        height: options.height ?? 600,
      },
      visible: options.show ?? true,
      maximized: false,
      minimized: false,
      destroyed: false,
    };
    const record: WindowRecord = {
      id,
      proxy: {},
      contents,
      options,
      state,
      close() {
        if (state.destroyed) return true;
        const close = electronEvent(`${path} close event`, journal);
        emitter.emit('close', close.proxy);
        if (close.event.defaultPrevented) return false;
        destroy();
        return true;
      },
    };

    function destroy(): void {
      state.destroyed = true;
      state.visible = false;
      contents.destroyed = true;
      windows.splice(windows.indexOf(record), 1);
      if (focused === record) focused = undefined;
      emitter.emit('closed');
      if (windows.length === 0 && !quitting) {
        // Electron quits by itself only when nothing listens for window-all-closed.
        if (appImpl.listenerCount('window-all-closed') > 0) appImpl.emit('window-all-closed');
        else appImpl.quit();
      }
    }

    /** Loads a URL of a scheme the app handles; rejects as Chromium does when it fails. */
    async function load(url: string): Promise<void> {
      contents.url = url;
      const scheme = new URL(url).protocol.slice(0, -1);
      if (!protocolHandlers.has(scheme)) {
        journal.missing({ path: `${path}.loadURL(${scheme}:)`, how: 'call' });
        throw new Error(`The Electron double loads only schemes the app handles, not ${scheme}:`);
      }
      const answer = await protocolRequest(url);
      if (answer.status !== 200) {
        contents.emitter.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', url, true);
        throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`);
      }
      contents.emitter.emit('did-finish-load', {});
      if (!state.destroyed) emitter.emit('ready-to-show', {});
    }

    record.proxy = strict(
      path,
      Object.assign(emitter, {
        id,
        webContents: contents.proxy,
        loadURL: (url: string) => load(url),
        show() {
          const shown = !state.visible;
          state.visible = true;
          focused = record;
          if (shown) emitter.emit('show');
        },
        hide() {
          if (!state.visible) return;
          state.visible = false;
          if (focused === record) focused = undefined;
          emitter.emit('hide');
        },
        isVisible: () => state.visible,
        isFocused: () => focused === record,
        focus() {
          focused = record;
        },
        maximize() {
          state.maximized = true;
        },
        isMaximized: () => state.maximized,
        isMinimized: () => state.minimized,
        restore() {
          state.minimized = false;
        },
        getNormalBounds: () => ({ ...state.bounds }),
        isDestroyed: () => state.destroyed,
        close: () => void record.close(),
        /** Closes at once, without the close event (Electron's `destroy`). */
        destroy() {
          if (!state.destroyed) destroy();
        },
      }),
      journal,
    );
    windows.push(record);
    // Electron emits both while the constructor runs, before it returns the window.
    appImpl.emit('web-contents-created', electronEvent('app event', journal).proxy, contents.proxy);
    appImpl.emit('browser-window-created', electronEvent('app event', journal).proxy, record.proxy);
    return record.proxy;
  }

  const BrowserWindow = strictClass(
    'BrowserWindow',
    createWindow,
    {
      getAllWindows: () => windows.map((window) => window.proxy),
      getFocusedWindow: () => focused?.proxy ?? null,
    },
    journal,
  );

  function windowFor(id: number | undefined): WindowRecord {
    const window = id === undefined ? windows[0] : windows.find((w) => w.id === id);
    if (!window) throw new Error(`There is no window ${id ?? '(none is open)'}.`);
    return window;
  }

  /**
   * The event a message from `sender` arrives with in main: its window's contents, the frame it
   * came from (a subframe at its own URL, or the top frame at `sender.url` for the while), and
   * `restore` to put the window's URL back afterwards.
   */
  function ipcEventFrom(name: string, sender: SenderSpec): { event: unknown; restore(): void } {
    const window = windowFor(sender.window);
    const contents = window.contents;
    let frame = contents.mainFrameProxy;
    const saved = contents.url;
    if (sender.frame === 'sub') {
      const url = sender.url ?? contents.url;
      frame = strict(`BrowserWindow#${window.id}.webContents.frames[0]`, { url }, journal);
    } else if (sender.url !== undefined) {
      contents.url = sender.url;
    }
    const event = strict(
      name,
      { type: 'frame', processId: 1, frameId: 1, sender: contents.proxy, senderFrame: frame },
      journal,
    );
    return { event, restore: () => (contents.url = saved) };
  }

  // ---------------------------------------------------------------------- Menu

  let applicationMenu: { template: MenuItemConstructorOptions[] } | undefined;
  const Menu = strictClass(
    'Menu',
    () => {
      throw new Error('The Electron double builds menus only from templates.');
    },
    {
      buildFromTemplate(template: MenuItemConstructorOptions[]) {
        checkMenuTemplate(template);
        return strict('Menu', { template, items: template }, journal);
      },
      setApplicationMenu(menu: { template: MenuItemConstructorOptions[] } | null) {
        applicationMenu = menu ?? undefined;
      },
    },
    journal,
  );

  // ---------------------------------------------------------------------- nativeImage, nativeTheme

  /** An image of a file; empty (as Electron's is) when the file is not there. */
  function imageFromPath(path: string) {
    const empty = !existsSync(path);
    return strict(
      `nativeImage(${path})`,
      {
        path,
        isEmpty: () => empty,
        getSize: () => (empty ? { width: 0, height: 0 } : { width: 32, height: 32 }),
      },
      journal,
    );
  }
  const nativeImage = strict(
    'nativeImage',
    { createFromPath: (path: string) => imageFromPath(path) },
    journal,
  );

  const nativeThemeImpl = Object.assign(new EventEmitter(), {
    get shouldUseDarkColors() {
      return config.darkTheme;
    },
  });
  const nativeTheme = strict('nativeTheme', nativeThemeImpl, journal);

  // ---------------------------------------------------------------------- Tray

  interface TrayRecord {
    emitter: EventEmitter;
    image: { path: string; isEmpty(): boolean };
    tooltip: string | undefined;
    menu: { template: MenuItemConstructorOptions[] } | undefined;
    destroyed: boolean;
  }
  let tray: TrayRecord | undefined;

  const Tray = strictClass(
    'Tray',
    (image: unknown) => {
      requireReady('Tray');
      const emitter = new EventEmitter();
      const record: TrayRecord = {
        emitter,
        image: image as TrayRecord['image'],
        tooltip: undefined,
        menu: undefined,
        destroyed: false,
      };
      tray = record;
      return strict(
        'Tray',
        Object.assign(emitter, {
          setToolTip(text: string) {
            record.tooltip = text;
          },
          setContextMenu(menu: TrayRecord['menu'] | null) {
            record.menu = menu ?? undefined;
          },
          setImage(next: unknown) {
            record.image = next as TrayRecord['image'];
          },
          destroy() {
            record.destroyed = true;
          },
          isDestroyed: () => record.destroyed,
        }),
        journal,
      );
    },
    {},
    journal,
  );

  // ---------------------------------------------------------------------- globalShortcut

  const shortcuts = new Map<string, () => void>();
  const globalShortcut = strict(
    'globalShortcut',
    {
      /** False when another app holds the keys (`takenShortcuts`), as Electron answers. */
      register(accelerator: string, callback: () => void) {
        requireReady('globalShortcut');
        if (config.takenShortcuts.includes(accelerator) || shortcuts.has(accelerator)) return false;
        shortcuts.set(accelerator, callback);
        return true;
      },
      unregister(accelerator: string) {
        shortcuts.delete(accelerator);
      },
      unregisterAll() {
        shortcuts.clear();
      },
      isRegistered: (accelerator: string) => shortcuts.has(accelerator),
    },
    journal,
  );

  // ---------------------------------------------------------------------- clipboard

  const clipboard = strict(
    'clipboard',
    {
      readText: async () => config.clipboardText,
      /** Linux's selection clipboard. */
      selection: strict(
        'clipboard.selection',
        { readText: async () => config.selectionText },
        journal,
      ),
    },
    journal,
  );

  // ---------------------------------------------------------------------- screen

  const screen = strict(
    'screen',
    {
      getAllDisplays() {
        requireReady("The 'screen' module");
        return config.displays.map((display, index) =>
          strict(`screen.getAllDisplays()[${index}]`, { id: index + 1, ...display }, journal),
        );
      },
    },
    journal,
  );

  // ---------------------------------------------------------------------- net

  const netRequests: { url: string; partition: string }[] = [];

  /**
   * `net.request`: a ClientRequest of Electron's over Node's http(s) (no proxy, no cache). As in
   * Electron, a redirect with `redirect: 'manual'` is a 'redirect' event the caller answers with
   * `followRedirect()` or `abort()`; the response is a readable stream with `statusCode` and
   * `headers`.
   */
  function netRequest(options: {
    url?: string;
    protocol?: string;
    hostname?: string;
    host?: string;
    port?: number | string;
    path?: string;
    method?: string;
    headers?: Record<string, string>;
    redirect?: 'follow' | 'error' | 'manual';
    session?: { partition?: string };
  }) {
    const url =
      options.url ??
      `${options.protocol ?? 'https:'}//${options.hostname ?? options.host}${options.port ? `:${options.port}` : ''}${options.path ?? '/'}`;
    netRequests.push({ url, partition: options.session?.partition ?? '' });
    const emitter = new EventEmitter();
    const headers: Record<string, string> = { ...options.headers };
    let node: ReturnType<typeof httpRequest> | undefined;
    let aborted = false;
    const send = (target: string, body?: string | Uint8Array) => {
      const requester = target.startsWith('https:') ? httpsRequest : httpRequest;
      node = requester(
        target,
        { method: options.method ?? 'GET', headers },
        (response: IncomingMessage) => {
          const status = response.statusCode ?? 0;
          const location = response.headers.location;
          if (
            status >= 300 &&
            status < 400 &&
            location !== undefined &&
            options.redirect !== 'follow'
          ) {
            response.resume();
            const next = new URL(location, target).href;
            redirectTo = next;
            emitter.emit('redirect', status, options.method ?? 'GET', next, response.headers);
            return;
          }
          emitter.emit('response', response);
        },
      );
      node.on('error', (error) => {
        if (!aborted) emitter.emit('error', error);
      });
      node.end(body);
    };
    let redirectTo: string | undefined;
    return strict(
      'net.request()',
      Object.assign(emitter, {
        setHeader(name: string, value: string) {
          headers[name] = value;
        },
        end(body?: string | Uint8Array) {
          send(url, body);
        },
        followRedirect() {
          if (redirectTo !== undefined) send(redirectTo);
        },
        abort() {
          aborted = true;
          node?.destroy();
          emitter.emit('abort');
        },
      }),
      journal,
    );
  }

  const net = strict(
    'net',
    {
      /** Chromium's network stack in Electron; Node's fetch here (no system proxy, no cache). */
      fetch: (input: string | Request, init?: RequestInit) => fetch(input, init),
      request: netRequest,
    },
    journal,
  );

  // ---------------------------------------------------------------------- shell

  const shell = strict(
    'shell',
    {
      /** Records the URL; nothing is opened. */
      openExternal: async (_url: string) => undefined,
      /** Records the path; nothing is opened, and the system has no complaint (''). */
      openPath: async (_path: string) => '',
      /** Records the path; no file manager is shown. */
      showItemInFolder: (_path: string) => undefined,
    },
    journal,
  );

  // ---------------------------------------------------------------------- dialog

  const messageBoxAnswers = [...(config.messageBoxAnswers ?? [])];
  const dialog = strict(
    'dialog',
    {
      /** The person clicks the next scripted button, or cancels (its `cancelId`). */
      async showMessageBox(first: unknown, second?: unknown) {
        const options = (second ?? first) as { cancelId?: number };
        return {
          response: messageBoxAnswers.shift() ?? options.cancelId ?? 0,
          checkboxChecked: false,
        };
      },
    },
    journal,
  );

  // ---------------------------------------------------------------------- the module

  const implemented: Record<string, unknown> = {
    app,
    BrowserWindow,
    clipboard,
    dialog,
    globalShortcut,
    ipcMain,
    Menu,
    nativeImage,
    nativeTheme,
    net,
    protocol,
    screen,
    session,
    shell,
    Tray,
  };
  const exports: Record<string, unknown> = {};
  for (const name of config.otherProcessNames) exports[name] = undefined;
  for (const name of config.exportNames) {
    exports[name] = implemented[name] ?? unimplemented(`electron.${name}`, journal);
  }
  for (const name of Object.keys(implemented)) {
    if (!(name in exports)) throw new Error(`electron.d.ts does not declare ${name}`);
  }
  const electron = strict('electron', exports, journal);

  // ---------------------------------------------------------------------- control

  const control: DoubleControl = {
    makeReady() {
      ready = true;
      appImpl.emit('ready', electronEvent('app ready event', journal).proxy, {});
      markReady();
    },
    protocolRequest,
    async send(channel, payload, sender) {
      const { event, restore } = ipcEventFrom(`ipcMain event (${channel})`, sender);
      const listeners = ipcMainImpl.listenerCount(channel);
      try {
        ipcMainImpl.emit(channel, event, payload);
        // The listener hands the message on without waiting: let it run before the URL goes back.
        await new Promise((resolve) => setTimeout(resolve, 0));
      } finally {
        restore();
      }
      return { listeners };
    },
    async invoke(channel, payload, sender) {
      const handler = ipcHandlers.get(channel);
      if (!handler) {
        return { ok: false, error: `No handler registered for '${channel}'` };
      }
      const { event, restore } = ipcEventFrom(`ipcMain invoke event (${channel})`, sender);
      try {
        return { ok: true, value: await handler(event, payload) };
      } catch (error) {
        return { ok: false, error: `Error invoking remote method '${channel}': ${String(error)}` };
      } finally {
        restore();
      }
    },
    navigate(id, url) {
      const contents = windowFor(id).contents;
      const navigation = electronEvent(`webContents will-navigate event`, journal, {
        url,
        isSameDocument: false,
        isMainFrame: true,
      });
      contents.emitter.emit('will-navigate', navigation.proxy, url);
      return { prevented: navigation.event.defaultPrevented };
    },
    openWindow(id, url) {
      const handler = windowFor(id).contents.windowOpenHandler;
      if (!handler) return 'no handler';
      return describe(
        handler(
          strict(
            'window open handler details',
            {
              url,
              frameName: '',
              features: '',
              disposition: 'foreground-tab',
              referrer: { url: '', policy: 'strict-origin-when-cross-origin' },
            },
            journal,
          ),
        ),
      );
    },
    async permission(id, permission) {
      const contents = windowFor(id).contents;
      const origin = contents.url ? new URL(contents.url).origin : '';
      const requested = permissionHandlers.request
        ? await new Promise<boolean>((resolve) =>
            permissionHandlers.request?.(contents.proxy, permission, resolve, {
              requestingUrl: contents.url,
              isMainFrame: true,
            }),
          )
        : 'no handler';
      const checked = permissionHandlers.check
        ? permissionHandlers.check(contents.proxy, permission, origin, {
            requestingUrl: contents.url,
            isMainFrame: true,
          })
        : 'no handler';
      return { requested, checked };
    },
    clickMenuItem(id) {
      const item = applicationMenu && findMenuItem(applicationMenu.template, id);
      if (!item?.click) throw new Error(`The application menu has no item ${id} to click.`);
      item.click(
        item as never,
        (focused?.proxy ?? undefined) as never,
        strict('menu click event', { triggeredByAccelerator: false }, journal) as never,
      );
    },
    closeWindow(id) {
      windowFor(id).close();
    },
    quit() {
      app.quit();
    },
    secondInstance(argv) {
      appImpl.emit(
        'second-instance',
        electronEvent('app second-instance event', journal).proxy,
        argv,
        config.paths['home'] ?? '/',
        undefined,
      );
    },
    openUrl(url) {
      const event = electronEvent('app open-url event', journal);
      appImpl.emit('open-url', event.proxy, url);
      return { prevented: event.event.defaultPrevented };
    },
    pressShortcut(accelerator) {
      const callback = shortcuts.get(accelerator);
      if (!callback) throw new Error(`No global shortcut ${accelerator} is registered.`);
      callback();
    },
    clickTray() {
      if (!tray || tray.destroyed) throw new Error('There is no tray icon to click.');
      tray.emitter.emit('click', electronEvent('tray click event', journal).proxy, {}, {});
    },
    clickTrayMenuItem(id) {
      const item = tray?.menu && findMenuItem(tray.menu.template, id);
      if (!item?.click) throw new Error(`The tray menu has no item ${id} to click.`);
      item.click(
        item as never,
        undefined as never,
        strict('menu click event', { triggeredByAccelerator: false }, journal) as never,
      );
    },
    state() {
      return {
        ready,
        sandboxEnabled,
        privilegedSchemes,
        protocolHandlers: [...protocolHandlers.keys()],
        ipcHandlers: [...ipcHandlers.keys()].sort(),
        ipcListeners: listenerCounts(ipcMainImpl),
        appListeners: listenerCounts(appImpl),
        applicationMenu: applicationMenu && describe(applicationMenu.template),
        protocolClients: [...protocolClients],
        loginItem,
        shortcuts: [...shortcuts.keys()],
        tray: tray && {
          image: { path: tray.image.path, empty: tray.image.isEmpty() },
          tooltip: tray.tooltip,
          menu: tray.menu && describe(tray.menu.template),
          destroyed: tray.destroyed,
        },
        proxies: Object.fromEntries([...proxies].map(([k, v]) => [k, describe(v)])),
        netRequests: [...netRequests],
        windows: windows.map((window) => ({
          id: window.id,
          webContentsId: window.contents.id,
          options: describe(window.options),
          url: window.contents.url,
          visible: window.state.visible,
          focused: focused === window,
          destroyed: window.state.destroyed,
          sent: window.contents.sent,
          hasWindowOpenHandler: window.contents.windowOpenHandler !== undefined,
          permissionHandlers: {
            request: permissionHandlers.request !== undefined,
            check: permissionHandlers.check !== undefined,
          },
          contentsListeners: listenerCounts(window.contents.emitter),
        })),
      };
    },
  };

  return { electron, control };
}
