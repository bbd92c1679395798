/**
 * The built preload in a Chromium page, as Electron runs it: in an isolated world of its own,
 * with Electron's contextBridge copy rules between that world and the page's, and `ipcRenderer`
 * going to the test's main side over a DevTools binding of that world only.
 *
 * `connectPage(page, scripts, main)` (before the page is loaded) registers, on a DevTools session
 * of the page, the page world's half (`page-world.ts`) and then the preload's world
 * (`preload-world.ts` followed by the built `out/preload/index.cjs`) to run in every new document
 * before its own scripts, and a binding in the preload's world. A call the preload makes with
 * `ipcRenderer.invoke` reaches `main.handle` with the sender it came from (frame URL, top frame or
 * not); a one-way `send` reaches `main.on`; `deliver` is `webContents.send`. Both directions pass
 * a structured clone (`v8.serialize`), as IPC does, and answers and events reach the preload's
 * world in the one order they were produced (each by `Runtime.callFunctionOn`, on one session).
 *
 * What this cannot show, and what covers it, is listed in docs/design/harness.md.
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { CDPSession, Page } from 'playwright-core';
import type { IpcSender, Router } from '../../../electron/main/ipc/router';
import { createJsonWire, type Base64 } from './json-wire';
import type { DroppedFile, HostMessage, PreloadWorldConfig } from './protocol';

/** The two scripts a page gets, built once (`buildBridgeScripts`). */
export interface BridgeScripts {
  /** The page world's half: a function of the nonce. */
  page: string;
  /** The preload world: a function of its configuration and of the preload. */
  preloadWorld: string;
  /** The built preload's source. */
  preload: string;
}

/** Main's side of IPC, as `ipcMain` sees a page's messages. */
export interface MainSide {
  /** `ipcMain.handle`: the handler's answer (a rejection is the error `invoke` reports). */
  handle(channel: string, payload: unknown, sender: IpcSender): Promise<unknown>;
  /** `ipcMain.on`: a one-way message, nothing answered. */
  on(channel: string, payload: unknown, sender: IpcSender): void;
}

/**
 * Main's side in another process: each answer is handed over as it arrives (`reply`), so it
 * reaches the page in the one order of everything that process sends (answers and events).
 */
export interface RemoteMainSide {
  ask(channel: string, payload: unknown, sender: IpcSender, reply: (result: unknown) => void): void;
  on(channel: string, payload: unknown, sender: IpcSender): void;
}

/** One call the page made: its channel and payload, main's answer, and when it was asked. */
export interface RouterCall {
  channel: string;
  payload: unknown;
  result: unknown;
  /** `performance.now()` when the call reached main's side. */
  askedAt: number;
}

/** Main's side over the app's own router in this process (`createRouter`), as `ipcMain` does. */
export function routerSide(
  router: Pick<Router, 'dispatch' | 'receive'>,
  hooks: {
    onCall?: (call: RouterCall) => void;
    onSend?: (channel: string, payload: unknown) => void;
  } = {},
): MainSide {
  return {
    async handle(channel, payload, sender) {
      const askedAt = performance.now();
      const result = await router.dispatch(channel, payload, sender);
      hooks.onCall?.({ channel, payload, result, askedAt });
      return result;
    },
    on(channel, payload, sender) {
      hooks.onSend?.(channel, payload);
      void router.receive(channel, payload, sender);
    },
  };
}

export interface ConnectOptions {
  /** The window's `webContents.id`, named to main with every message. */
  webContentsId: number;
  /** Main's events come over this same-origin event stream instead (see bench-session.ts). */
  eventStream?: string;
}

export interface BridgedPage {
  /** `webContents.send(channel, payload)`: after every answer and event delivered before it. */
  deliver(channel: string, payload: unknown): void;
  /**
   * Drops files from disk on the element `selector` finds, as the file manager does: each File
   * is made in the preload's world with its path recorded, so the page's `pathForFile`
   * (Electron's `webUtils.getPathForFile`) finds it when the page hands it back. Its bytes are
   * read from `path` unless `content` is given.
   */
  dropFiles(
    selector: string,
    files: Array<{ path: string; name?: string; type?: string; content?: string | Buffer }>,
  ): Promise<void>;
  /** What the JSON hop's base64 of typed arrays cost, in the test process and in the page. */
  binaryCost(): Promise<{ encodeMs: number; decodeMs: number; bytes: number }>;
  detach(): Promise<void>;
}

const nodeBase64: Base64 = {
  encode: (bytes) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
};

/** The JSON hop on the test's side, shared by every page: its `cost.encode` is the test's. */
const wire = createJsonWire(nodeBase64);

/** What IPC does to a value: a structured clone (throws for what it refuses). */
export function ipcClone<T>(value: T): T {
  return deserialize(serialize(value)) as T;
}

async function bundle(entry: string, globalName: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName,
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error(`${entry} did not bundle`);
  return code;
}

/** Builds the two worlds' scripts around the built preload at `preloadFile`. */
export async function buildBridgeScripts(preloadFile: string): Promise<BridgeScripts> {
  const [page, preloadWorld, preload] = await Promise.all([
    bundle(new URL('./page-world.ts', import.meta.url).pathname, '__relayPageWorld'),
    bundle(new URL('./preload-world.ts', import.meta.url).pathname, '__relayPreloadWorld'),
    readFile(preloadFile, 'utf8'),
  ]);
  return { page, preloadWorld, preload };
}

/** The same scripts around another preload (the copy rules' own tests run a preload of theirs). */
export function withPreload(scripts: BridgeScripts, preload: string): BridgeScripts {
  return { ...scripts, preload };
}

/** Keeps the built scripts in a file, for the processes of a test run to share. */
export async function saveBridgeScripts(scripts: BridgeScripts, file: string): Promise<string> {
  await writeFile(file, JSON.stringify(scripts));
  return file;
}

export async function loadBridgeScripts(file: string): Promise<BridgeScripts> {
  return JSON.parse(await readFile(file, 'utf8')) as BridgeScripts;
}

/** A frame of the page: its URL, and its parent (none for the top frame). */
interface FrameInfo {
  url: string;
  parentId?: string | undefined;
}

export async function connectPage(
  page: Page,
  scripts: BridgeScripts,
  main: MainSide | RemoteMainSide,
  options: ConnectOptions,
): Promise<BridgedPage> {
  const nonce = randomBytes(12).toString('hex');
  const worldName = `relay-preload-${nonce}`;
  const config: PreloadWorldConfig = {
    nonce,
    binding: `__relayIpc_${nonce}`,
    host: `__relayHost_${nonce}`,
    platform: process.platform,
    eventStream: options.eventStream,
  };
  const session: CDPSession = await page.context().newCDPSession(page);
  const frames = new Map<string, FrameInfo>();
  /** The preload world's context in each frame, and the frame of each. */
  const contexts = new Map<number, string>();
  let mainFrameId: string | undefined;
  let detached = false;

  const rememberFrame = (frame: {
    id: string;
    url: string;
    urlFragment?: string;
    parentId?: string;
  }) => {
    frames.set(frame.id, { url: frame.url + (frame.urlFragment ?? ''), parentId: frame.parentId });
    if (!frame.parentId) mainFrameId = frame.id;
  };
  session.on('Page.frameNavigated', ({ frame }) => rememberFrame(frame));
  session.on('Page.navigatedWithinDocument', ({ frameId, url }) => {
    const frame = frames.get(frameId);
    if (frame) frame.url = url;
  });
  session.on('Runtime.executionContextCreated', ({ context }) => {
    const aux = context.auxData as { frameId?: string } | undefined;
    if (context.name === worldName && aux?.frameId) contexts.set(context.id, aux.frameId);
  });
  session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
    contexts.delete(executionContextId);
  });
  session.on('Runtime.executionContextsCleared', () => contexts.clear());

  /** Sends a message into the preload's world of `contextId`, in order with all the others. */
  function post(contextId: number, message: HostMessage): void {
    if (detached) return;
    session
      .send('Runtime.callFunctionOn', {
        functionDeclaration: `function (message) { globalThis[${JSON.stringify(config.host)}].receive(message); }`,
        executionContextId: contextId,
        arguments: [{ value: wire.encode(message) }],
      })
      .catch(() => undefined);
  }

  /** The preload world of the top frame now, where main's events go. */
  function mainContext(): number | undefined {
    for (const [id, frameId] of contexts) if (frameId === mainFrameId) return id;
    return undefined;
  }

  function senderOf(contextId: number): IpcSender {
    const frameId = contexts.get(contextId);
    const frame = frameId === undefined ? undefined : frames.get(frameId);
    return {
      url: frame?.url ?? '',
      isMainFrame: frameId !== undefined && frameId === mainFrameId,
      webContentsId: options.webContentsId,
    };
  }

  session.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
    if (name !== config.binding) return;
    const message = wire.decode(JSON.parse(payload)) as
      | { type: 'invoke'; id: number; channel: string; args: unknown[] }
      | { type: 'send'; channel: string; args: unknown[] };
    const sender = senderOf(executionContextId);
    const args = ipcClone(message.args);
    if (message.type === 'send') {
      main.on(message.channel, args[0], sender);
      return;
    }
    const answer = (reply: { result: unknown } | { error: string }) =>
      post(executionContextId, { type: 'answer', id: message.id, ...reply });
    const cloned = (result: unknown) => {
      try {
        return { result: ipcClone(result) };
      } catch (error) {
        return { error: String(error) };
      }
    };
    if ('ask' in main) {
      main.ask(message.channel, args[0], sender, (result) => answer(cloned(result)));
      return;
    }
    main.handle(message.channel, args[0], sender).then(
      (result) => answer(cloned(result)),
      (error: unknown) => answer({ error: String(error) }),
    );
  });

  await session.send('Page.enable');
  const { frameTree } = await session.send('Page.getFrameTree');
  rememberFrame(frameTree.frame);
  await session.send('Runtime.enable');
  await session.send('Runtime.addBinding', {
    name: config.binding,
    executionContextName: worldName,
  });
  // The page's half first: it listens before the preload exposes anything.
  await session.send('Page.addScriptToEvaluateOnNewDocument', {
    source: `(() => { ${scripts.page}\n__relayPageWorld.startPageWorld(${JSON.stringify(nonce)}); })();`,
  });
  await session.send('Page.addScriptToEvaluateOnNewDocument', {
    worldName,
    source:
      `(() => { ${scripts.preloadWorld}\n` +
      `__relayPreloadWorld.startPreloadWorld(${JSON.stringify(config)}, ` +
      `function (require, process, exports, module, Buffer, global, setImmediate, clearImmediate) {\n` +
      `${scripts.preload}\n}); })();`,
  });

  async function evaluateInPreload<T>(expression: string): Promise<T> {
    const contextId = mainContext();
    if (contextId === undefined)
      throw new Error('The page has no preload world (not loaded yet?).');
    const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
      expression,
      contextId,
      returnByValue: true,
      awaitPromise: true,
    });
    if (exceptionDetails) {
      throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    }
    return result.value as T;
  }

  return {
    deliver(channel, payload) {
      const contextId = mainContext();
      if (contextId === undefined) return;
      post(contextId, { type: 'event', channel, args: [ipcClone(payload)] });
    },
    async dropFiles(selector, files) {
      const dropped: DroppedFile[] = await Promise.all(
        files.map(async (file) => ({
          name: file.name ?? basename(file.path),
          type: file.type ?? '',
          base64: Buffer.from(file.content ?? (await readFile(file.path))).toString('base64'),
          path: file.path,
        })),
      );
      await evaluateInPreload(
        `globalThis[${JSON.stringify(config.host)}].dropFiles(${JSON.stringify(selector)}, ${JSON.stringify(dropped)})`,
      );
    },
    async binaryCost() {
      const inPage = await evaluateInPreload<{ ms: number; bytes: number }>(
        `globalThis[${JSON.stringify(config.host)}].binaryCost()`,
      ).catch(() => ({ ms: 0, bytes: 0 }));
      return { encodeMs: wire.cost.encode.ms, decodeMs: inPage.ms, bytes: wire.cost.encode.bytes };
    },
    async detach() {
      detached = true;
      await session.detach().catch(() => undefined);
    },
  };
}
