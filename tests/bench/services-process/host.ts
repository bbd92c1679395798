/**
 * The benchmark's side of the services process: bundles `child.ts` for plain Node, starts it on a
 * user data folder, and wires a page to it as Electron wires the window to main: the built
 * preload, behind the context bridge (tests/harness/context-bridge), sends the page's calls to the
 * child's router, and the child's events come to the preload's listeners.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import type { IpcSender } from '../../../electron/main/ipc/router';
import { MAIN_BUNDLED_DEPENDENCIES } from '../../../electron/main/build-entries';
import type { IpcResult } from '../../../electron/shared/ipc/define';
import { compiledCatalogues } from '../../../scripts/vite-catalogues';
import { connectPage, type BridgeScripts } from '../../harness/context-bridge/chromium';
import type { ChildMessage, HostMessage, StartOptions } from './protocol';

/** The app's main window (Electron's webContents id), as the router trusts it. */
export const WEB_CONTENTS_ID = 1;

const ROOT = resolve(import.meta.dirname, '../../..');
/** Inside the repository, so that the bundle's packages resolve from its node_modules. */
const BUILD_DIR = join(ROOT, 'node_modules', '.cache', 'relay-bench');

/**
 * Bundles the services process into one ES module, as `npm run build` bundles main
 * (`out/main/index.js`): the app's `dependencies` stay imports, loaded from node_modules at run
 * time, but for those main bundles (`MAIN_BUNDLED_DEPENDENCIES`); the rest (development packages
 * such as Lingui's runtime) is bundled in, and main's catalogues are compiled. A chunk loaded with `import()` at first use is a file of its own
 * beside it. Returns the entry's path.
 */
export async function bundleServicesProcess(): Promise<string> {
  await mkdir(BUILD_DIR, { recursive: true });
  const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    configFile: false,
    logLevel: 'warn',
    plugins: [compiledCatalogues()],
    ssr: {
      noExternal: true,
      external: Object.keys(dependencies).filter((d) => !MAIN_BUNDLED_DEPENDENCIES.includes(d)),
    },
    build: {
      ssr: resolve(import.meta.dirname, 'child.ts'),
      outDir: BUILD_DIR,
      emptyOutDir: false,
      minify: false,
      target: 'node20',
      reportCompressedSize: false,
      rolldownOptions: { output: { format: 'es', entryFileNames: 'services-process.mjs' } },
    },
  });
  return join(BUILD_DIR, 'services-process.mjs');
}

/** Main's clock and the page's, on the same epoch. */
export const epochNow = () => performance.timeOrigin + performance.now();

export interface ServicesProcess {
  /** When it was started, on the epoch (`performance.timeOrigin + now()`). */
  startedAt: number;
  /** Its own time (ms since it started) when the services were ready. */
  ready: Promise<{ at: number }>;
  invoke(
    channel: string,
    payload: unknown,
    sender: IpcSender,
  ): Promise<{ result: IpcResult<unknown>; at: number }>;
  /**
   * Asks as `invoke` does, with the answer handed to `onAnswer` as soon as it is read, in the
   * order of everything the process sends (answers and events), as IPC keeps them in the app.
   */
  ask(
    channel: string,
    payload: unknown,
    sender: IpcSender,
    onAnswer: (result: IpcResult<unknown> | undefined) => void,
  ): void;
  /** Hands a one-way message to the process's router; nothing comes back. */
  send(channel: string, payload: unknown, sender: IpcSender): void;
  /** Each event the services send the page. */
  onEvent(listener: (channel: string, payload: unknown) => void): void;
  /** RSS and heap after forced collections (the process runs with --expose-gc). */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  /** Closes the services (as the app quits) and waits for the process to end. */
  stop(): Promise<void>;
}

export function startServicesProcess(bundle: string, options: StartOptions): ServicesProcess {
  const startedAt = epochNow();
  // Options that hold long scripted replies are too big for a command line (E2BIG): they go
  // through a file, whose path is the argument instead.
  let argument = JSON.stringify(options);
  let optionsFile: string | undefined;
  if (argument.length > 64 * 1024) {
    optionsFile = join(tmpdir(), `relay-bench-start-${process.pid}-${Date.now()}.json`);
    writeFileSync(optionsFile, argument);
    argument = optionsFile;
  }
  const child: ChildProcess = fork(bundle, [argument], {
    execArgv: ['--expose-gc'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const waiting = new Map<number, (message: ChildMessage) => void>();
  const listeners: Array<(channel: string, payload: unknown) => void> = [];
  let readyResolve: (value: { at: number }) => void = () => undefined;
  let readyReject: (error: Error) => void = () => undefined;
  const ready = new Promise<{ at: number }>((resolve, reject) => {
    readyResolve = resolve;
    readyReject = reject;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  /** Set once the benchmark lets go or the process is gone: nothing more is sent. */
  let closed = false;
  /** Every call still waiting is told the process ended (a `ready` message stands for that). */
  const endWaiting = () => {
    for (const done of waiting.values()) done({ type: 'ready', at: Number.NaN });
    waiting.clear();
  };
  child.on('exit', (code, signal) => {
    closed = true;
    if (optionsFile !== undefined) rmSync(optionsFile, { force: true });
    const error = new Error(`The services process ended (${signal ?? code})`);
    readyReject(error);
    endWaiting();
  });
  // A send the channel refused (closed, or EPIPE from a process that died meanwhile) is
  // reported to its callback in `post`; this only keeps any other channel error from
  // crashing the benchmark, as the 'exit' above settles what was waiting.
  child.on('error', () => undefined);
  child.on('message', (raw) => {
    const message = raw as ChildMessage;
    if (message.type === 'ready') readyResolve({ at: message.at });
    else if (message.type === 'event')
      for (const l of listeners) l(message.channel, message.payload);
    else {
      const done = waiting.get(message.id);
      waiting.delete(message.id);
      done?.(message);
    }
  });
  /**
   * Sends `message` unless the process is gone or being stopped. A page can still be asking
   * while the app quits, and a process killed mid-run closes the channel between two sends:
   * such a message is dropped, and a call waiting for its answer is told the process ended,
   * instead of the channel's error (ERR_IPC_CHANNEL_CLOSED, EPIPE) ending the benchmark.
   */
  function post(message: HostMessage): void {
    const id = 'id' in message ? message.id : undefined;
    const fail = () => {
      if (id === undefined) return;
      const done = waiting.get(id);
      waiting.delete(id);
      done?.({ type: 'ready', at: Number.NaN });
    };
    if (closed || !child.connected) return fail();
    child.send(message, (error) => {
      if (error) fail();
    });
  }
  function request(message: Exclude<HostMessage, { type: 'send' }>): Promise<ChildMessage> {
    return new Promise((resolve) => {
      waiting.set(message.id, resolve);
      post(message);
    });
  }
  return {
    startedAt,
    ready,
    ask(channel, payload, sender, onAnswer) {
      const id = nextId++;
      waiting.set(id, (message) =>
        onAnswer(message.type === 'answer' ? message.result : undefined),
      );
      post({ type: 'invoke', id, channel, payload, sender });
    },
    async invoke(channel, payload, sender) {
      const answer = await request({ type: 'invoke', id: nextId++, channel, payload, sender });
      if (answer.type !== 'answer') throw new Error(`No answer to ${channel}: the process ended`);
      return { result: answer.result, at: answer.at };
    },
    send(channel, payload, sender) {
      post({ type: 'send', channel, payload, sender });
    },
    onEvent(listener) {
      listeners.push(listener);
    },
    async memory() {
      const answer = await request({ type: 'memory', id: nextId++ });
      if (answer.type !== 'memory') throw new Error('The services process ended');
      if (!answer.collected) throw new Error('The services process runs without --expose-gc');
      return { rss: answer.rss, heapUsed: answer.heapUsed };
    },
    async stop() {
      // From here on the page's calls are answered "ended" at once, none sent.
      closed = true;
      endWaiting();
      if (child.exitCode === null && child.signalCode === null) {
        if (child.connected) child.disconnect();
        const timer = setTimeout(() => child.kill(), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Wires `page` to the services process as Electron wires the window to main (call before the
 * page is loaded): the built preload behind the context bridge, its `ipcRenderer` asking the
 * child's router with the sender the call came from, one-way messages to the child's router,
 * and the child's events to the preload's listeners. Answers and events reach the page in the
 * order the child sent them, as IPC keeps a window's answers and events in one order.
 */
export async function connectServicesPage(
  page: Page,
  scripts: BridgeScripts,
  services: ServicesProcess,
): Promise<void> {
  const bridged = await connectPage(
    page,
    scripts,
    {
      ask(channel, payload, sender, reply) {
        services.ask(channel, payload, sender, (result) =>
          reply(
            result ?? {
              ok: false,
              error: { kind: 'internal', message: 'The services process ended' },
            },
          ),
        );
      },
      on: (channel, payload, sender) => services.send(channel, payload, sender),
    },
    { webContentsId: WEB_CONTENTS_ID },
  );
  services.onEvent((channel, payload) => bridged.deliver(channel, payload));
}
