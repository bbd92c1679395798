/**
 * The built preload between two JavaScript realms in Node, with Electron's contextBridge copy
 * rules between them: what the boot tests use (they run the built main bundle in Node, with no
 * browser) and the copy rules' own unit tests.
 *
 * `bridgeRealms` makes two `vm` contexts, the page's and the preload's, evaluates the same copy
 * rules (`world.ts`, through `vm-world.ts`) in each, and runs the preload in the second as a
 * sandboxed preload. Every message between the realms passes `v8.serialize`, as Electron's copies
 * pass V8's serializer, and is made again with the receiving realm's constructors. The page's
 * realm then holds what Electron's contextBridge would give the page: `window.relay` made of its
 * own objects, frozen, with proxies for the preload's functions.
 *
 * The realms have the ECMAScript built-ins of their own and the few host functions a page has
 * (timers, `URL`, `console`, `structuredClone`); no DOM, so nothing crosses by reference here.
 */
import { readFile } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';
import vm from 'node:vm';
import type { PreloadFunction } from './sandboxed-preload';
import type { RealmIpc, startWorld } from './vm-world';
import type { Envelope, Message, Reply } from './world';

type RealmWorld = ReturnType<typeof startWorld>;

const clone = (value: unknown): unknown => deserialize(serialize(value));

/** Bundles `vm-world.ts` into one script, evaluated in each realm. */
export async function bundleVmWorld(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [new URL('./vm-world.ts', import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    globalName: '__relayVmWorld',
    platform: 'neutral',
    mainFields: ['browser', 'module', 'main'],
    target: 'node20',
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error('vm-world.ts did not bundle');
  return code;
}

/** A realm with what a page's global has besides the language: timers, URL, console. */
function newRealm(name: string): vm.Context {
  const context = vm.createContext({}, { name });
  const host = {
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    queueMicrotask,
    URL,
    URLSearchParams,
    console,
  };
  for (const [key, value] of Object.entries(host)) {
    Object.defineProperty(context, key, { value, writable: true, configurable: true });
  }
  vm.runInContext('globalThis.window = globalThis; globalThis.self = globalThis;', context);
  return context;
}

/** Evaluates the copy rules in `context`, linked to the other realm by `send`. */
function startIn(
  context: vm.Context,
  runtime: string,
  send: (message: Envelope<Message>) => Envelope<Reply | undefined>,
): RealmWorld {
  const exports = vm.runInContext(
    `(() => {\n${runtime}\nreturn __relayVmWorld;\n})()`,
    context,
  ) as {
    startWorld: typeof startWorld;
  };
  return exports.startWorld({ send, clone });
}

export interface RealmPair {
  /** The page's realm: its global is the page's `window`. */
  page: vm.Context;
  /** The preload's realm. */
  preload: vm.Context;
  /** Runs `code` in the page's realm. */
  inPage<T = unknown>(code: string): T;
  /** `webContents.send(channel, payload)`: to the preload's `ipcRenderer` listeners. */
  deliver(channel: string, payload: unknown): void;
  /** What the preload threw while it loaded (Electron logs "Unable to load preload script"). */
  preloadErrors: unknown[];
}

export interface RealmOptions {
  /** `bundleVmWorld()`'s script. */
  runtime: string;
  /** The preload's source (`out/preload/index.cjs`), or a function of its own for unit tests. */
  preload: string;
  /** Main's side: `ipcMain.handle`'s answer (rejects with the error it reports) and `ipcMain.on`. */
  main: {
    handle(channel: string, payload: unknown): Promise<unknown>;
    on(channel: string, payload: unknown): void;
  };
  platform?: string;
}

/** Two realms with the preload run in the second and its API exposed in the first. */
export function bridgeRealms(options: RealmOptions): RealmPair {
  const page = newRealm('page');
  const preload = newRealm('preload');
  const worlds: { page?: RealmWorld; preload?: RealmWorld } = {};
  const across =
    (to: 'page' | 'preload') =>
    ({ body, refs }: Envelope<Message>): Envelope<Reply | undefined> => {
      const answer = worlds[to]!.receive({ body: clone(body) as Message, refs });
      return { body: clone(answer.body) as Reply | undefined, refs: answer.refs };
    };
  worlds.page = startIn(page, options.runtime, across('preload'));
  worlds.preload = startIn(preload, options.runtime, across('page'));

  const preloadFunction = vm.runInContext(
    `(function (require, process, exports, module, Buffer, global, setImmediate, clearImmediate) {\n${options.preload}\n})`,
    preload,
    { filename: 'preload/index.cjs', lineOffset: -1 },
  ) as PreloadFunction;
  const ipc: RealmIpc = {
    async invoke(channel, args) {
      try {
        const [payload] = clone(args) as unknown[];
        const result = await options.main.handle(channel, payload);
        return { result: clone(result) };
      } catch (error) {
        return { error: String(error) };
      }
    },
    send(channel, args) {
      options.main.on(channel, (clone(args) as unknown[])[0]);
    },
  };
  const loaded = worlds.preload.runPreload(preloadFunction, ipc, options.platform ?? 'linux');
  return {
    page,
    preload,
    inPage: <T>(code: string) => vm.runInContext(code, page) as T,
    deliver(channel, payload) {
      loaded.deliver(channel, clone([payload]) as unknown[]);
    },
    preloadErrors: loaded.errors,
  };
}

/** The built preload's source. */
export function readPreload(file: string): Promise<string> {
  return readFile(file, 'utf8');
}
