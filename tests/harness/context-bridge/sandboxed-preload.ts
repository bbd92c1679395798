/**
 * What a sandboxed preload runs with in Electron, for the built preload (`out/preload/index.cjs`)
 * in the preload's realm: the script called as a function of `require`, `process`, `exports`,
 * `module`, `Buffer`, `global`, `setImmediate` and `clearImmediate` (Electron's
 * lib/sandboxed_renderer/preload.ts), and a `require` that gives only what a sandboxed preload
 * can have (lib/sandboxed_renderer/init.ts): `electron` (as `electron/renderer` and
 * `electron/common` too), `events`, `timers` and `url`; any other name throws
 * "module not found: <name>", as Electron's does.
 *
 * `require('electron')` holds the stand-ins of the renderer modules the sandbox gives:
 * `contextBridge` (over the copy rules of `world.ts`), `ipcRenderer` (an EventEmitter whose
 * `invoke` and `send` structured-clone their arguments, then hand them to the test's main side)
 * and `webUtils.getPathForFile`. `crashReporter`, `nativeImage` and `webFrame` throw when used:
 * the harness has none.
 *
 * Bundled into the preload's realm with `world.ts`.
 */
import { EventEmitter } from 'events';
import type { World } from './world';

/** The test's main side, as `ipcRenderer` reaches it (Electron's IPC). */
export interface IpcTransport {
  /** `ipcMain.handle`'s answer, as data of this realm, or the error main's handler threw. */
  invoke(channel: string, args: unknown[]): Promise<{ result?: unknown; error?: string }>;
  send(channel: string, args: unknown[]): void;
}

export interface PreloadHost {
  world: World;
  ipc: IpcTransport;
  /** The structured clone IPC applies to every payload (throws for what it refuses). */
  clone(value: unknown): unknown;
  /** `webUtils.getPathForFile`: the file's path on disk, or ''. */
  pathForFile(file: unknown): string;
  /** What the preload's `process` says of the machine. */
  process: { platform: string; arch: string };
  /** Where the preload's failure to load is said, as Electron says it. */
  reportError(message: string, error: unknown): void;
}

export type PreloadFunction = (
  require: (name: string) => unknown,
  process: unknown,
  exports: unknown,
  module: { exports: unknown },
  Buffer: unknown,
  global: unknown,
  setImmediate: unknown,
  clearImmediate: unknown,
) => void;

const NOT_CLONED = 'An object could not be cloned.';

/** The renderer's `ipcRenderer`, over the host's transport. */
class IpcRenderer extends EventEmitter {
  readonly #host: PreloadHost;

  constructor(host: PreloadHost) {
    super();
    this.#host = host;
  }

  #cloned(args: unknown[]): unknown[] {
    try {
      return this.#host.clone(args) as unknown[];
    } catch {
      throw new Error(NOT_CLONED);
    }
  }

  send(channel: string, ...args: unknown[]): void {
    this.#host.ipc.send(String(channel), this.#cloned(args));
  }

  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const { error, result } = await this.#host.ipc.invoke(String(channel), this.#cloned(args));
    if (error !== undefined) throw new Error(`Error invoking remote method '${channel}': ${error}`);
    return result;
  }

  sendSync(): never {
    throw new Error('ipcRenderer.sendSync is not available in the test harness.');
  }

  sendToHost(): never {
    throw new Error('ipcRenderer.sendToHost is not available in the test harness.');
  }

  postMessage(): never {
    throw new Error('ipcRenderer.postMessage is not available in the test harness.');
  }

  /** `webContents.send(channel, payload)` arriving: listeners get an event and the payload. */
  deliver(channel: string, args: unknown[]): void {
    this.emit(channel, { sender: this, ports: [] }, ...args);
  }
}

function unavailable(name: string): object {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`${name}.${String(property)} is not available in the test harness.`);
      },
    },
  );
}

export interface LoadedPreload {
  ipcRenderer: { deliver(channel: string, args: unknown[]): void };
}

/** Runs the preload as Electron runs a sandboxed one. */
export function runSandboxedPreload(
  host: PreloadHost,
  preload: PreloadFunction,
  path = 'preload/index.cjs',
): LoadedPreload {
  const ipcRenderer = new IpcRenderer(host);
  const contextBridge = {
    exposeInMainWorld(key: string, api: unknown) {
      host.world.expose(String(key), api);
    },
    exposeInIsolatedWorld(): never {
      throw new Error('contextBridge.exposeInIsolatedWorld is not available in the test harness.');
    },
    executeInMainWorld(): never {
      throw new Error('contextBridge.executeInMainWorld is not available in the test harness.');
    },
  };
  const webUtils = { getPathForFile: (file: unknown) => host.pathForFile(file) };
  const electron = {
    contextBridge,
    ipcRenderer,
    webUtils,
    get crashReporter() {
      return unavailable('crashReporter');
    },
    get nativeImage() {
      return unavailable('nativeImage');
    },
    get webFrame() {
      return unavailable('webFrame');
    },
  };
  const setImmediate = (callback: (...args: unknown[]) => void, ...args: unknown[]) =>
    setTimeout(callback, 0, ...args);
  const clearImmediate = (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle);
  const timers = {
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    setImmediate,
    clearImmediate,
  };
  const url = { URL, URLSearchParams };
  const events = Object.assign(EventEmitter, { EventEmitter });
  const modules = new Map<string, unknown>([
    ['electron', electron],
    ['electron/common', electron],
    ['electron/renderer', electron],
    ['events', events],
    ['node:events', events],
    ['timers', timers],
    ['node:timers', timers],
    ['url', url],
    ['node:url', url],
  ]);
  const require = (name: string): unknown => {
    if (modules.has(name)) return modules.get(name);
    throw new Error(`module not found: ${name}`);
  };
  const process = Object.assign(new EventEmitter(), {
    platform: host.process.platform,
    arch: host.process.arch,
    type: 'renderer',
    sandboxed: true,
    contextIsolated: true,
    env: {},
    versions: {},
  });
  const exports = {};
  try {
    preload(
      require,
      process,
      exports,
      { exports },
      undefined,
      globalThis,
      setImmediate,
      clearImmediate,
    );
  } catch (error) {
    host.reportError(`Unable to load preload script: ${path}`, error);
  }
  return { ipcRenderer };
}
