/**
 * Starts a built app's main bundle in a child Node process with Electron replaced by the double
 * (`electron-double/`), and drives it the way Electron and a page would: ready, protocol
 * requests, IPC calls from a chosen frame, navigation, window.open, permissions, menu clicks,
 * closing the window, quitting.
 *
 * The child runs plain Node (the version running the tests, not Electron's), without a D-Bus
 * session (so the keychain probe fails and the app says it keeps keys in memory), with HOME and
 * the XDG folders in a temp folder, and with every path Electron would give pointing there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type {
  DoubleState,
  InvokeAnswer,
  ProtocolAnswer,
  SenderSpec,
} from './electron-double/electron-double';
import {
  BOOT_CONFIG_ENV,
  type BootConfig,
  type ChildMessage,
  type Command,
} from './electron-double/messages';
import type { MissingApi, RecordedCall } from './electron-double/strict';

const ROOT = resolve(import.meta.dirname, '../..');
export const RUNTIME_ENTRY = join(ROOT, 'tests/boot/electron-double/runtime.ts');

/** Bundles the child's entry (the double and its runtime) into one ES module for plain Node. */
export async function bundleRuntime(outfile: string): Promise<string> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [RUNTIME_ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

export interface BootOptions {
  /** The bundled runtime (`bundleRuntime`). */
  runtime: string;
  /** `<app>/out/main/index.js`. */
  main: string;
  /** Every export of Electron's main process (`mainProcessExports()`). */
  exportNames: readonly string[];
  /** What only Electron's other processes export (`otherProcessExports()`). */
  otherProcessNames: readonly string[];
  /** A temp folder: the user data folder is `<home>/userData`, Pictures `<home>/Pictures`. */
  home: string;
  appName: string;
  appVersion: string;
  /** `app.isPackaged`; true, as the app ships, unless said otherwise. */
  packaged?: boolean;
  /** Arguments after the executable. */
  argv?: string[];
  /** Switches Chromium parsed (`app.commandLine.hasSwitch`). */
  switches?: string[];
  /** Added to the child's environment. */
  env?: Record<string, string>;
  /** `process.resourcesPath`; `<home>/resources` unless said otherwise. */
  resourcesPath?: string;
  /** Global shortcuts another app holds. */
  takenShortcuts?: string[];
  /** What `session.resolveProxy` answers in 'system' mode. */
  systemProxy?: string;
  clipboardText?: string;
  selectionText?: string;
  /** `app.getPreferredSystemLanguages()`; `['en-US']` unless said otherwise. */
  preferredLanguages?: string[];
  /** The buttons clicked in main's message boxes, in order; none left: cancelled. */
  messageBoxAnswers?: number[];
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class BootedApp {
  readonly calls: RecordedCall[] = [];
  readonly missing: MissingApi[] = [];
  /** Errors that escaped the app (uncaught exceptions, unhandled rejections). */
  readonly uncaught: string[] = [];
  readonly userDataDir: string;
  readonly picturesDir: string;
  /** Resolves when the bundle has loaded; rejects with the error if it did not. */
  readonly loaded: Promise<void>;
  readonly exited: Promise<Exit>;
  #output = '';
  #nextId = 1;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  readonly #events = new EventEmitter();
  readonly #child: ChildProcess;
  #exit: Exit | undefined;

  constructor(options: BootOptions) {
    this.userDataDir = join(options.home, 'userData');
    this.picturesDir = join(options.home, 'Pictures');
    const config: BootConfig = {
      main: options.main,
      argv: [join(options.home, 'relay-desktop'), ...(options.argv ?? [])],
      double: {
        exportNames: options.exportNames,
        otherProcessNames: options.otherProcessNames,
        appName: options.appName,
        appVersion: options.appVersion,
        isPackaged: options.packaged ?? true,
        paths: {
          home: options.home,
          appData: join(options.home, '.config'),
          userData: this.userDataDir,
          pictures: this.picturesDir,
          temp: join(options.home, 'tmp'),
        },
        switches: options.switches ?? [],
        singleInstanceLock: true,
        resourcesPath: options.resourcesPath ?? join(options.home, 'resources'),
        takenShortcuts: options.takenShortcuts ?? [],
        systemProxy: options.systemProxy ?? 'DIRECT',
        darkTheme: false,
        preferredLanguages: options.preferredLanguages ?? ['en-US'],
        locale: options.preferredLanguages?.[0] ?? 'en-US',
        clipboardText: options.clipboardText ?? '',
        selectionText: options.selectionText ?? '',
        messageBoxAnswers: options.messageBoxAnswers ?? [],
        displays: [
          {
            bounds: { x: 0, y: 0, width: 1920, height: 1080 },
            workArea: { x: 0, y: 0, width: 1920, height: 1050 },
          },
        ],
      },
    };
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value === undefined) continue;
      // No session bus (the keychain falls back to memory), no injected options or dev server.
      if (/^(DBUS_|NODE_OPTIONS$|NODE_PATH$|ELECTRON_|VITEST|XDG_)/.test(name)) continue;
      env[name] = value;
    }
    Object.assign(env, {
      HOME: options.home,
      XDG_CONFIG_HOME: join(options.home, '.config'),
      XDG_DATA_HOME: join(options.home, '.local/share'),
      XDG_RUNTIME_DIR: join(options.home, 'run'),
      [BOOT_CONFIG_ENV]: JSON.stringify(config),
      ...options.env,
    });
    this.#child = fork(options.runtime, [], {
      env,
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.#child.stdout?.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    this.#child.stderr?.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    this.exited = new Promise((resolveExit) => {
      // 'close' rather than 'exit': the process has ended and its output has all been read.
      this.#child.on('close', (code, signal) => {
        this.#exit = { code, signal };
        for (const { reject } of this.#pending.values()) {
          reject(new Error(`The app exited (${code ?? signal}) before it answered.`));
        }
        this.#pending.clear();
        this.#events.emit('exit');
        resolveExit({ code, signal });
      });
    });
    this.loaded = new Promise((resolveLoad, rejectLoad) => {
      this.#events.once('loaded', () => resolveLoad());
      this.#events.once('load-failed', (error: string) =>
        rejectLoad(new Error(`The main bundle did not load:\n${error}`)),
      );
      this.#events.once('exit', () =>
        rejectLoad(new Error(`The app exited while loading:\n${this.output}`)),
      );
    });
    // Awaited by whoever needs it; a start that ends while loading is not an unhandled error.
    this.loaded.catch(() => undefined);
    this.#child.on('message', (message: ChildMessage) => this.#receive(message));
  }

  /** What the app printed (stdout and stderr). */
  get output(): string {
    return this.#output;
  }

  #receive(message: ChildMessage): void {
    switch (message.type) {
      case 'call':
        this.calls.push(message.call);
        this.#events.emit('call', message.call);
        return;
      case 'missing':
        this.missing.push(message.miss);
        return;
      case 'uncaught':
        this.uncaught.push(message.error);
        return;
      case 'loaded':
        this.#events.emit('loaded');
        return;
      case 'load-failed':
        this.#events.emit('load-failed', message.error);
        return;
      case 'reply': {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.ok) pending?.resolve(message.value);
        else pending?.reject(new Error(message.error));
        return;
      }
    }
  }

  #send<T>(command: Command): Promise<T> {
    if (this.#exit) return Promise.reject(new Error('The app has exited.'));
    const id = this.#nextId++;
    return new Promise<T>((resolveReply, rejectReply) => {
      this.#pending.set(id, {
        resolve: (value) => resolveReply(value as T),
        reject: rejectReply,
      });
      this.#child.send({ ...command, id });
    });
  }

  /** The calls made so far to `path` (`app.enableSandbox`, `new BrowserWindow`, …). */
  callsTo(path: string): RecordedCall[] {
    return this.calls.filter((call) => call.path === path);
  }

  /** Resolves with the first call to `path` that `matches` (already made or still to come). */
  waitForCall(
    path: string,
    matches: (call: RecordedCall) => boolean = () => true,
    timeoutMs = 15_000,
  ): Promise<RecordedCall> {
    const wanted = (call: RecordedCall) => call.path === path && matches(call);
    const made = this.calls.find(wanted);
    if (made) return Promise.resolve(made);
    return new Promise((resolveCall, rejectCall) => {
      const timer = setTimeout(() => {
        this.#events.off('call', onCall);
        rejectCall(new Error(`No such call to ${path} within ${timeoutMs} ms.\n${this.output}`));
      }, timeoutMs);
      const onCall = (call: RecordedCall) => {
        if (!wanted(call)) return;
        clearTimeout(timer);
        this.#events.off('call', onCall);
        resolveCall(call);
      };
      this.#events.on('call', onCall);
    });
  }

  ready(): Promise<void> {
    return this.#send({ command: 'ready' });
  }

  async request(url: string): Promise<ProtocolAnswer & { text: string }> {
    const answer = await this.#send<ProtocolAnswer>({ command: 'request', url });
    return { ...answer, text: Buffer.from(answer.body).toString('utf8') };
  }

  invoke(channel: string, payload: unknown, sender: SenderSpec = { frame: 'main' }) {
    return this.#send<InvokeAnswer>({ command: 'invoke', channel, payload, sender });
  }

  /** `ipcRenderer.send` from the page: a one-way route, with no answer; how many listened. */
  send(channel: string, payload: unknown, sender: SenderSpec = { frame: 'main' }) {
    return this.#send<{ listeners: number }>({ command: 'send', channel, payload, sender });
  }

  navigate(url: string, window?: number) {
    return this.#send<{ prevented: boolean }>({ command: 'navigate', url, window });
  }

  openWindow(url: string, window?: number) {
    return this.#send<unknown>({ command: 'open-window', url, window });
  }

  permission(permission: string, window?: number) {
    return this.#send<{ requested: boolean | string; checked: boolean | string }>({
      command: 'permission',
      permission,
      window,
    });
  }

  clickMenuItem(menuId: string): Promise<void> {
    return this.#send({ command: 'click-menu', menuId });
  }

  closeWindow(window?: number): Promise<void> {
    return this.#send({ command: 'close-window', window });
  }

  quit(): Promise<void> {
    return this.#send({ command: 'quit' });
  }

  /** Another start of the app, with these arguments after the executable. */
  secondInstance(argv: string[]): Promise<void> {
    return this.#send({ command: 'second-instance', argv });
  }

  openUrl(url: string): Promise<{ prevented: boolean }> {
    return this.#send({ command: 'open-url', url });
  }

  pressShortcut(accelerator: string): Promise<void> {
    return this.#send({ command: 'press-shortcut', accelerator });
  }

  clickTray(): Promise<void> {
    return this.#send({ command: 'click-tray' });
  }

  clickTrayMenuItem(menuId: string): Promise<void> {
    return this.#send({ command: 'click-tray-menu', menuId });
  }

  state(): Promise<DoubleState> {
    return this.#send({ command: 'state' });
  }

  /** Ends the child if it is still running. */
  async kill(): Promise<void> {
    if (this.#exit) return;
    this.#child.kill('SIGKILL');
    await this.exited;
  }
}

/** Starts the app and waits for its bundle to load (before `ready`, as Electron loads it). */
export async function bootApp(options: BootOptions): Promise<BootedApp> {
  await mkdir(join(options.home, 'run'), { recursive: true, mode: 0o700 });
  const app = new BootedApp(options);
  await app.loaded;
  return app;
}
