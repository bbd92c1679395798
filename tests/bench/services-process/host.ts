/**
 * The benchmark's side of the services process: bundles `child.ts` for plain Node, starts it on a
 * user data folder, and wires a page to it as the preload wires the window to main (the page's
 * calls go to the child's router, the child's events come to the page).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import type { IpcSender } from '../../../electron/main/ipc/router';
import type { IpcResult } from '../../../electron/shared/ipc/define';
import { encodeBinary } from '../../e2e/harness/binary-transport';
import { WEB_CONTENTS_ID } from '../../e2e/harness/expose-router';
import type { ChildMessage, HostMessage, StartOptions } from './protocol';

const ROOT = resolve(import.meta.dirname, '../../..');
/** Inside the repository, so that the bundle's packages resolve from its node_modules. */
const BUILD_DIR = join(ROOT, 'node_modules', '.cache', 'relay-bench');

/** Bundles the services process into one ES module (packages stay imports); returns its path. */
export async function bundleServicesProcess(): Promise<string> {
  await mkdir(BUILD_DIR, { recursive: true });
  await build({
    configFile: false,
    logLevel: 'warn',
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
  /** Each event the services send the page. */
  onEvent(listener: (channel: string, payload: unknown) => void): void;
  /** RSS and heap after forced collections (the process runs with --expose-gc). */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  /** Closes the services (as the app quits) and waits for the process to end. */
  stop(): Promise<void>;
}

export function startServicesProcess(bundle: string, options: StartOptions): ServicesProcess {
  const startedAt = epochNow();
  const child: ChildProcess = fork(bundle, [JSON.stringify(options)], {
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
  child.on('exit', (code, signal) => {
    const error = new Error(`The services process ended (${signal ?? code})`);
    readyReject(error);
    for (const reject of waiting.values()) reject({ type: 'ready', at: Number.NaN });
    waiting.clear();
  });
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
  function request(message: HostMessage): Promise<ChildMessage> {
    return new Promise((resolve) => {
      waiting.set(message.id, resolve);
      child.send(message);
    });
  }
  return {
    startedAt,
    ready,
    async invoke(channel, payload, sender) {
      const answer = await request({ type: 'invoke', id: nextId++, channel, payload, sender });
      if (answer.type !== 'answer') throw new Error(`No answer to ${channel}: the process ended`);
      return { result: answer.result, at: answer.at };
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
 * Wires `page` to the services process as the preload does in the app: `__relayInvoke` (the page
 * bridge's transport) asks the child's router, with the sender the call came from, and the
 * child's events are delivered to the page's listeners. Call before the page is loaded.
 */
export async function connectPage(page: Page, services: ServicesProcess): Promise<void> {
  await page.exposeBinding('__relayInvoke', async (source, channel: unknown, payload: unknown) => {
    const { result } = await services.invoke(String(channel), payload, {
      url: source.frame.url(),
      isMainFrame: source.frame === source.page.mainFrame(),
      webContentsId: WEB_CONTENTS_ID,
    });
    return encodeBinary(result);
  });
  services.onEvent((channel, payload) => {
    page
      .evaluate(
        ([c, p]) =>
          (
            globalThis as unknown as { __relayDeliver?: (c: string, p: unknown) => void }
          ).__relayDeliver?.(c, p),
        [channel, payload] as const,
      )
      .catch(() => undefined);
  });
}
