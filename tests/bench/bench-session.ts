/**
 * What the benchmarks that drive the real chat screen share: the demo relay, one Chromium, the
 * renderer and the preload built once (the preload run behind the context bridge, as the e2e
 * suite runs it: tests/harness/context-bridge), the real services on a fresh user data folder
 * with a connection to the relay, the page server and the router. `withBenchSession` sets them up, hands
 * them to the benchmark, and closes every one of them however the run ends (a run that fails
 * must not leave a browser, a relay or the services holding the process open).
 *
 * Main's events reach the page one of two ways. Without `eventStream` they go nowhere (a bench
 * that only opens conversations needs none). With it, over a same-origin event stream, standing in
 * for Electron's IPC: a local socket, in order, with no reply awaited (page.evaluate over the
 * DevTools protocol, as the e2e harness delivers events, queues each behind the last one's round
 * trip: its p95 was 28 ms here, a cost of the test driver that the app does not have). The
 * stream is read in the preload's world, which hands each event to the preload's `ipcRenderer`
 * listeners as IPC would. Events emitted while no page is open are dropped, and those emitted
 * before the open page's stream connects are queued for it. Once the page is loaded, each
 * `chat:delta` is also handed to `globalThis.__benchOnEvent` (when the bench set one, in its own
 * init script), through the page's own `window.relay.onChatDelta`, after the app's listener.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startDemoRelay } from '../../electron/demo-relay/index';
import type { DemoRelay, DemoRelayOptions } from '../../electron/demo-relay/options';
import {
  createAppServices,
  type AppServices,
  type AppServicesOptions,
} from '../../electron/main/app-services';
import { createRouter, trustedSender, type IpcSender } from '../../electron/main/ipc/router';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/browser';
import { buildPreloadScripts, buildRenderer } from '../e2e/harness/build-renderer';
import { serveDirectory } from '../e2e/harness/static-server';
import { connectPage, routerSide, type RouterCall } from '../harness/context-bridge/chromium';

/** The app's main window (Electron's webContents id), as the router trusts it. */
const WEB_CONTENTS_ID = 1;

/** Where the page's event stream is served. */
const EVENTS_PATH = '/__bench/events';

export interface BenchSessionOptions {
  /** Names the temporary folder (user data, the built renderer). */
  name: string;
  /** The relay's key, given to the connection the services use. */
  key: string;
  /** The demo relay's options besides its keys. */
  relay?: Omit<DemoRelayOptions, 'keys'>;
  /** The services' fetch (a tapped one, to see each SSE chunk as main reads it). */
  fetch?: FetchLike;
  /** Told of every event main emits, as it emits it (before it is sent to the page). */
  onEmit?: (channel: string, payload: unknown) => void;
  /** Main's events go to the open page over a same-origin event stream (see above). */
  eventStream?: boolean;
  /** Starts the document worker as the app does; without it, documents are read in process. */
  startDocumentWorker?: AppServicesOptions['startDocumentWorker'];
  /** Where MCP servers are started (a timing one); the machine's own if absent. */
  processHost?: AppServicesOptions['processHost'];
  /** Main's dialogs; without them every one counts as cancelled. */
  dialogs?: AppServicesOptions['dialogs'];
}

export interface BenchPage {
  context: BrowserContext;
  page: Page;
  /** Closes the page's context; main's events stop going to it. */
  close(): Promise<void>;
}

export interface BenchSession {
  relay: DemoRelay;
  browser: Browser;
  services: AppServices;
  router: ReturnType<typeof createRouter<typeof ROUTES>>;
  origin: string;
  /** The app's main window as a sender, for calls made to the router from Node. */
  sender: IpcSender;
  /**
   * A fresh page on the app (a new browser context): the built preload behind the context bridge
   * with the router as main, `initScript` (the bench's own page-side set-up), and the app loaded.
   * `onAnswer` is told of each call the page made, once main answered it.
   */
  openPage(options: {
    viewport: { width: number; height: number };
    onAnswer?: (call: RouterCall) => void;
    /** Told of each one-way message the page sent main (no answer goes back for it). */
    onSend?: (channel: string) => void;
    initScript?: () => void;
  }): Promise<BenchPage>;
}

export async function withBenchSession<T>(
  options: BenchSessionOptions,
  run: (session: BenchSession) => Promise<T>,
): Promise<T> {
  // Each piece is closed in the reverse order of its set-up, whatever happened.
  const closing: Array<() => Promise<unknown>> = [];
  try {
    const work = await mkdtemp(join(tmpdir(), `relay-bench-${options.name}-`));
    closing.push(() => rm(work, { recursive: true, force: true }));
    const relay = await startDemoRelay({ ...options.relay, keys: [options.key] });
    closing.push(() => relay.close());
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    closing.push(() => browser.close());
    // BENCH_RENDERER_DIR: a renderer built beforehand (to compare two builds run after run).
    const prebuilt = process.env.BENCH_RENDERER_DIR;
    const rendererDir = prebuilt ?? join(work, 'renderer');
    const [, scripts] = await Promise.all([
      prebuilt ? Promise.resolve() : buildRenderer(rendererDir),
      buildPreloadScripts(join(work, 'preload')),
    ]);

    const events: { open: boolean; client?: ServerResponse | undefined; queued: string[] } = {
      open: false,
      queued: [],
    };
    const services = await createAppServices({
      userDataDir: join(work, 'user'),
      secretStore: new MemorySecretStore(),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.startDocumentWorker ? { startDocumentWorker: options.startDocumentWorker } : {}),
      ...(options.processHost ? { processHost: options.processHost } : {}),
      ...(options.dialogs ? { dialogs: options.dialogs } : {}),
      emit: (channel, payload) => {
        options.onEmit?.(channel, payload);
        if (!options.eventStream || !events.open) return;
        const frame = `data: ${JSON.stringify([channel, payload])}\n\n`;
        if (events.client) events.client.write(frame);
        else events.queued.push(frame);
      },
    });
    closing.push(() => services.close());
    await services.connections.create({
      name: 'Bench',
      baseUrl: relay.url,
      apiKey: options.key,
    });

    const server = await serveDirectory(rendererDir, undefined, (req, res) => {
      if (!options.eventStream || req.url !== EVENTS_PATH) return false;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.socket?.setNoDelay(true);
      res.write(': open\n\n');
      events.client = res;
      for (const frame of events.queued.splice(0)) res.write(frame);
      req.on('close', () => {
        if (events.client === res) events.client = undefined;
      });
      return true;
    });
    closing.push(() => server.close());
    const router = createRouter(ROUTES, services.handlers, {
      isTrustedSender: trustedSender([server.origin], () => [WEB_CONTENTS_ID]),
    });

    const session: BenchSession = {
      relay,
      browser,
      services,
      router,
      origin: server.origin,
      sender: { url: `${server.origin}/`, isMainFrame: true, webContentsId: WEB_CONTENTS_ID },
      async openPage({ viewport, onAnswer, onSend, initScript }) {
        const context = await browser.newContext({ viewport });
        let closed = false;
        const close = async () => {
          if (closed) return;
          closed = true;
          events.open = false;
          events.queued = [];
          await context.close();
        };
        closing.push(close);
        const page = await context.newPage();
        await connectPage(
          page,
          scripts,
          routerSide(router, {
            ...(onAnswer ? { onCall: onAnswer } : {}),
            ...(onSend ? { onSend: (channel: string) => onSend(channel) } : {}),
          }),
          {
            webContentsId: WEB_CONTENTS_ID,
            ...(options.eventStream ? { eventStream: EVENTS_PATH } : {}),
          },
        );
        if (initScript) await page.addInitScript(initScript);
        events.queued = [];
        events.open = true;
        await page.goto(server.origin);
        await page.evaluate(() => {
          const page = globalThis as unknown as StreamGlobals;
          page.relay?.onChatDelta((payload) => page.__benchOnEvent?.('chat:delta', payload));
        });
        return { context, page, close };
      },
    };
    return await run(session);
  } finally {
    for (const close of closing.reverse()) await close().catch(() => undefined);
  }
}

/** The page globals the session uses (the bench compiles without the DOM library). */
interface StreamGlobals {
  relay?: { onChatDelta(listener: (payload: unknown) => void): () => void };
  __benchOnEvent?: (channel: string, payload: unknown) => void;
}
