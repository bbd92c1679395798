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
import type {
  BrowserWindowConstructorOptions,
  MenuItemConstructorOptions,
  Rectangle,
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
}

export interface WindowState {
  id: number;
  webContentsId: number;
  options: unknown;
  url: string | undefined;
  visible: boolean;
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
    request?: (...args: unknown[]) => void;
    check?: (...args: unknown[]) => boolean;
  } = {};
  const defaultSession = strict(
    'session.defaultSession',
    {
      setPermissionRequestHandler(handler: ((...args: unknown[]) => void) | null) {
        permissionHandlers.request = handler ?? undefined;
      },
      setPermissionCheckHandler(handler: ((...args: unknown[]) => boolean) | null) {
        permissionHandlers.check = handler ?? undefined;
      },
    },
    journal,
  );
  const session = strict('session', { defaultSession }, journal);

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
          state.visible = true;
          focused = record;
        },
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

  const net = strict(
    'net',
    {
      /** Chromium's network stack in Electron; Node's fetch here (no system proxy, no cache). */
      fetch: (input: string | Request, init?: RequestInit) => fetch(input, init),
    },
    journal,
  );

  // ---------------------------------------------------------------------- shell

  const shell = strict(
    'shell',
    {
      /** Records the URL; nothing is opened. */
      openExternal: async (_url: string) => undefined,
    },
    journal,
  );

  // ---------------------------------------------------------------------- the module

  const implemented: Record<string, unknown> = {
    app,
    BrowserWindow,
    ipcMain,
    Menu,
    net,
    protocol,
    screen,
    session,
    shell,
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
    async invoke(channel, payload, sender) {
      const handler = ipcHandlers.get(channel);
      if (!handler) {
        return { ok: false, error: `No handler registered for '${channel}'` };
      }
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
        `ipcMain invoke event (${channel})`,
        { type: 'frame', processId: 1, frameId: 1, sender: contents.proxy, senderFrame: frame },
        journal,
      );
      try {
        return { ok: true, value: await handler(event, payload) };
      } catch (error) {
        return { ok: false, error: `Error invoking remote method '${channel}': ${String(error)}` };
      } finally {
        contents.url = saved;
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
        windows: windows.map((window) => ({
          id: window.id,
          webContentsId: window.contents.id,
          options: describe(window.options),
          url: window.contents.url,
          visible: window.state.visible,
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
