/**
 * The e2e harness: the shipped renderer in Chromium, with the built preload (`out/preload/
 * index.cjs`) run as Electron runs it, in an isolated world behind Electron's contextBridge copy
 * rules (tests/harness/context-bridge), its `ipcRenderer` talking to the real router and services
 * in this process. The page gets exactly what the installed app's page gets: `window.relay` as
 * the contextBridge delivers it, and nothing that could reach main around it.
 *
 * `startE2e()` (once per spec file) connects to the run's browser and serves the renderer;
 * `openApp()` (once per spec) gives a fresh user data folder, services, browser context and page,
 * and records every message that crosses the bridge in either direction.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from 'playwright-core';
import { inject } from 'vitest';
import { eventWindows } from '../../../electron/main/ipc/event-targets';
import { createRouter, trustedSender } from '../../../electron/main/ipc/router';
import { windowRoutes } from '../../../electron/main/ipc/window-routes';
import type { FetchLike } from '../../../electron/main/services/relay/relay-client';
import { ROUTES } from '../../../electron/shared/ipc/contract';
import { PRELOAD_ROUTES } from '../../../electron/shared/ipc/file-grants';
import type { DesktopShell, Dialogs } from '../../../electron/main/app-context';
import {
  createAppServices,
  type AppServices,
  type AppServicesOptions,
} from '../../../electron/main/app-services';
import { MemorySecretStore, type SecretStore } from '../../../electron/main/services/secret-store';
import type { IpcResult } from '../../../electron/shared/ipc/define';
import { startSourceImportWorker } from '../../fakes/source-workers';
import {
  connectPage,
  loadBridgeScripts,
  type BridgedPage,
} from '../../harness/context-bridge/chromium';
import type { PageWindow } from './page-types';
import { serveDirectory, type GalleryFile, type StaticServer } from './static-server';

/** The main window of the app under test (Electron's webContents id). */
export const WEB_CONTENTS_ID = 1;
/** The quick ask window, when a spec opens it. */
export const QUICK_WEB_CONTENTS_ID = 2;

/** Each page the harness connected, for helpers that have only the page (a page object). */
const bridged = new WeakMap<Page, BridgedPage>();

/** Sends one of main's events to `page`, as `webContents.send` does (`shell:command`, say). */
export function deliverEvent(page: Page, channel: string, payload: unknown): void {
  const connection = bridged.get(page);
  if (!connection) throw new Error('This page is not connected to the app.');
  connection.deliver(channel, payload);
}

/**
 * Drops files from disk on the element `selector` finds, as the file manager does: the preload's
 * `webUtils.getPathForFile` gives each one's path (see `BridgedPage.dropFiles`), which it hands
 * main for grants (`files:grant-dropped`); the page gets the grants.
 */
export function dropFilesFromDisk(
  page: Page,
  selector: string,
  files: Parameters<BridgedPage['dropFiles']>[1],
): Promise<void> {
  const connection = bridged.get(page);
  if (!connection) throw new Error('This page is not connected to the app.');
  return connection.dropFiles(selector, files);
}

/**
 * Stands between the page and the router for a spec: an answer of its own for a call (to fail
 * it), or undefined to let the router answer (at once, or once the promise settles: to hold it).
 */
export type CallGate = (
  channel: string,
  payload: unknown,
) => Promise<IpcResult<unknown> | undefined> | IpcResult<unknown> | undefined;

/**
 * What crossed the bridge: a call and its answer, a one-way message the page sent, or an event
 * main sent to the page.
 */
export type BridgeMessage =
  | { direction: 'invoke'; channel: string; payload: unknown; result: unknown }
  | { direction: 'send'; channel: string; payload: unknown }
  | { direction: 'event'; channel: string; payload: unknown };

export interface AppUnderTest {
  page: Page;
  context: BrowserContext;
  /** Every bridge message so far, in order. */
  messages: BridgeMessage[];
  /** Uncaught errors in the page. */
  pageErrors: Error[];
  /** Content-Security-Policy violations in the page: "<directive> <blocked URI>". */
  cspViolations: string[];
  services: AppServices;
  /** What main put on the system clipboard, in order (the app's clipboard is Electron's). */
  clipboard: string[];
  /** Saves a screenshot to test-results/e2e/<name>.png. */
  screenshot(name: string): Promise<string>;
  /**
   * Opens the quick ask window's page (`quick.html`) beside the main one, as a second trusted
   * window; events go to each page as the app sends them to each window.
   */
  openQuickWindow(options?: { width?: number; height?: number }): Promise<Page>;
  /** Sends an event of the contract as main's window code does (`quick-ask:shown`, links). */
  emit(channel: string, payload: unknown): void;
  /** Puts a gate between the page's calls and the router (undefined to take it away). */
  gateCalls(gate: CallGate | undefined): void;
  close(): Promise<void>;
}

export interface OpenAppOptions {
  colorScheme?: 'light' | 'dark';
  /** Where keys go; by default an in-memory store that reports itself as the OS keychain. */
  secretStore?: SecretStore;
  /** The fetch main uses to reach relays; Node's by default. */
  fetch?: FetchLike;
  /** Scripted file dialogs; without them every "save as" or "open" counts as cancelled. */
  dialogs?: Dialogs;
  /** A user data folder to open again (a restart); it is kept when the app closes. */
  userDataDir?: string;
  /** The backups' clock, file system or computer name. */
  backupSeams?: AppServicesOptions['backupSeams'];
  /** Sync's timing and a new storage's key cost (a cheap one for tests). */
  syncSeams?: AppServicesOptions['syncSeams'];
  /**
   * Runs once main's services are up, before the page loads: what a person did in an earlier
   * session (a connection saved, conversations written) is there when the page first asks.
   */
  beforeLoad?(services: AppServices): void | Promise<void>;
  /**
   * The screen the page's own storage remembers from an earlier session, where the page opens
   * (the app keeps it under `relay.screen`); a fresh browser context remembers none.
   */
  lastScreen?: string;
  /**
   * The platform pieces a spec stands in for: an updater, the desktop integration and shell
   * (`desktop`: show in folder, open a file), the proxy stack.
   */
  platform?: Pick<
    AppServicesOptions,
    | 'desktop'
    | 'updater'
    | 'updatesUnsupported'
    | 'desktopIntegration'
    | 'proxyStack'
    | 'windows'
    | 'readClipboard'
  >;
}

export interface E2eSession {
  browser: Browser;
  origin: string;
  openApp(options?: OpenAppOptions): Promise<AppUnderTest>;
  close(): Promise<void>;
}

/**
 * What the app's window does (`hardenWebContents`: permission request and check handlers that
 * refuse everything), done to the page in Chromium: every permission the page could ask for is
 * set to denied for its origin, so `navigator.clipboard.writeText` fails here as it does in the app.
 */
const REFUSED_PERMISSIONS = [
  { name: 'clipboard-read' },
  { name: 'clipboard-write', allowWithoutSanitization: false },
  { name: 'clipboard-write', allowWithoutSanitization: true },
  { name: 'notifications' },
  { name: 'geolocation' },
  { name: 'camera' },
  { name: 'microphone' },
  { name: 'midi', sysex: true },
  { name: 'persistent-storage' },
  { name: 'local-fonts' },
  { name: 'window-management' },
];

/**
 * Sets every permission in `REFUSED_PERMISSIONS` to denied for the page's origin. Chromium keeps
 * such overrides only while the DevTools session that set them is attached: the session is
 * returned, to detach when the app closes.
 */
async function refuseEveryPermission(
  browser: Browser,
  context: BrowserContext,
  page: Page,
  origin: string,
): Promise<CDPSession> {
  const pageSession = await context.newCDPSession(page);
  const { targetInfo } = await pageSession.send('Target.getTargetInfo');
  await pageSession.detach();
  const session = await browser.newBrowserCDPSession();
  for (const permission of REFUSED_PERMISSIONS) {
    await session.send('Browser.setPermission', {
      permission,
      setting: 'denied',
      origin,
      ...(targetInfo.browserContextId ? { browserContextId: targetInfo.browserContextId } : {}),
    });
  }
  return session;
}

const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-results/e2e');

export async function startE2e(): Promise<E2eSession> {
  const { wsEndpoint, rendererDir, bridgeScripts, appVersion } = inject('e2e');
  const browser = await chromium.connect(wsEndpoint);
  const scripts = await loadBridgeScripts(bridgeScripts);
  // The gallery of the app opened last: its images are served as the app protocol serves them.
  let gallery: GalleryFile | undefined;
  const server: StaticServer = await serveDirectory(rendererDir, () => gallery);
  const open = new Set<AppUnderTest>();

  async function openApp(options: OpenAppOptions = {}): Promise<AppUnderTest> {
    const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'relay-e2e-user-')));
    const messages: BridgeMessage[] = [];
    const pageErrors: Error[] = [];
    const cspViolations: string[] = [];
    // Events can be emitted while services start, before there is a page to deliver them to.
    const target: { page?: Page; quick?: Page } = {};
    // How each window gets main's events, in one order with its answers.
    const deliverTo: { main?: BridgedPage; quick?: BridgedPage } = {};
    let gate: CallGate | undefined;

    const emit = (channel: string, payload: unknown) => {
      messages.push({ direction: 'event', channel, payload });
      for (const name of eventWindows(channel)) deliverTo[name]?.deliver(channel, payload);
    };
    const clipboard: string[] = [];
    const desktop: DesktopShell = {
      showInFolder: () => undefined,
      moveToTrash: () =>
        Promise.reject(new Error('Moving files to the trash is not available here.')),
      copyText: (text) => void clipboard.push(text),
    };
    const services = await createAppServices({
      desktop,
      userDataDir,
      knowledgeSamplesDir: join(import.meta.dirname, '../../../resources/knowledge-samples'),
      secretStore:
        options.secretStore ??
        new MemorySecretStore({
          secure: true,
          persistent: true,
          backend: 'keychain',
          reason: undefined,
        }),
      emit,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.dialogs ? { dialogs: options.dialogs } : {}),
      startImportWorker: startSourceImportWorker,
      reloadWindow: () => void target.page?.reload().catch(() => undefined),
      ...(options.backupSeams ? { backupSeams: options.backupSeams } : {}),
      ...(options.syncSeams ? { syncSeams: options.syncSeams } : {}),
      version: appVersion,
      platform: process.platform,
      ...options.platform,
    });
    // As index.ts does once the window's router is up: the saved shortcut, tray and login item.
    await services.desktop.start();
    try {
      await options.beforeLoad?.(services);
    } catch (error) {
      await services.close();
      throw error;
    }
    gallery = (pathname) => services.gallery.servedFile(pathname);
    const router = createRouter(ROUTES, services.handlers, {
      isTrustedSender: trustedSender([server.origin], () =>
        target.quick ? [WEB_CONTENTS_ID, QUICK_WEB_CONTENTS_ID] : [WEB_CONTENTS_ID],
      ),
      // As index.ts: the quick ask window reaches its own routes only.
      mayCall: windowRoutes(() => (target.quick ? [QUICK_WEB_CONTENTS_ID] : [])),
      onInternalError: (channel, error) => console.error(`e2e: ${channel} failed`, error),
      // A one-way message main refused has no answer to fail on: it fails the spec's page check.
      onRefused: (channel, error) =>
        pageErrors.push(new Error(`${channel} was refused by the router: ${error.message}`)),
    });
    // The preload's own channel (grants for a drop): the main window alone, as index.ts.
    const preloadRouter = createRouter(PRELOAD_ROUTES, services.preloadHandlers, {
      isTrustedSender: trustedSender([server.origin], () => [WEB_CONTENTS_ID]),
      onInternalError: (channel, error) => console.error(`e2e: ${channel} failed`, error),
    });
    const dispatch: typeof router.dispatch = (channel, payload, sender) =>
      channel === PRELOAD_ROUTES.grantDroppedFiles.channel
        ? preloadRouter.dispatch(channel, payload, sender)
        : router.dispatch(channel, payload, sender);

    const context = await browser.newContext({
      viewport: { width: 1180, height: 780 },
      colorScheme: options.colorScheme ?? 'light',
      // The page's own storage as an earlier session left it.
      ...(options.lastScreen === undefined
        ? {}
        : {
            storageState: {
              cookies: [],
              origins: [
                {
                  origin: server.origin,
                  localStorage: [{ name: 'relay.screen', value: options.lastScreen }],
                },
              ],
            },
          }),
    });
    const page = await context.newPage();
    const permissions = await refuseEveryPermission(browser, context, page, server.origin);
    target.page = page;

    /** What the app's preload and window do, for a page of one of its two windows. */
    async function preparePage(window: Page, webContentsId: number): Promise<BridgedPage> {
      window.on('pageerror', (error) => pageErrors.push(error));
      // Every CSP violation in the page, reported through a binding of its own.
      await window.exposeBinding('__relayCspViolation', (_source, report: unknown) => {
        cspViolations.push(String(report));
      });
      await window.addInitScript(() => {
        const global = globalThis as unknown as PageWindow & {
          __relayCspViolation(report: string): Promise<void>;
        };
        global.document.addEventListener('securitypolicyviolation', (event) => {
          void global.__relayCspViolation(`${event.effectiveDirective} ${event.blockedURI}`);
        });
      });
      const connection = await connectPage(
        window,
        scripts,
        {
          async handle(channel, payload, sender) {
            const gated = await gate?.(channel, payload);
            const result = await (gated ??
              dispatch(channel, payload, sender).catch((error: unknown) => ({
                ok: false as const,
                error: {
                  kind: 'internal' as const,
                  message: error instanceof Error ? error.message : String(error),
                },
              })));
            messages.push({ direction: 'invoke', channel, payload, result });
            return result;
          },
          on(channel, payload, sender) {
            messages.push({ direction: 'send', channel, payload });
            void router.receive(channel, payload, sender);
          },
        },
        { webContentsId },
      );
      bridged.set(window, connection);
      return connection;
    }

    deliverTo.main = await preparePage(page, WEB_CONTENTS_ID);
    await page.goto(server.origin);

    const app: AppUnderTest = {
      page,
      context,
      messages,
      pageErrors,
      cspViolations,
      services,
      clipboard,
      async screenshot(name) {
        await mkdir(SCREENSHOTS, { recursive: true });
        const path = join(SCREENSHOTS, `${name}.png`);
        await app.page.screenshot({ path });
        return path;
      },
      emit,
      gateCalls(next) {
        gate = next;
      },
      async openQuickWindow({ width = 640, height = 440 } = {}) {
        const quick = await context.newPage();
        await quick.setViewportSize({ width, height });
        deliverTo.quick = await preparePage(quick, QUICK_WEB_CONTENTS_ID);
        target.quick = quick;
        await quick.goto(`${server.origin}/quick.html`);
        return quick;
      },
      async close() {
        open.delete(app);
        await permissions.detach().catch(() => undefined);
        await Promise.all([deliverTo.main?.detach(), deliverTo.quick?.detach()]);
        await context.close();
        await services.close();
        if (options.userDataDir === undefined)
          await rm(userDataDir, { recursive: true, force: true });
      },
    };
    open.add(app);
    return app;
  }

  return {
    browser,
    origin: server.origin,
    openApp,
    async close() {
      await Promise.all([...open].map((app) => app.close()));
      await server.close();
      await browser.close();
    },
  };
}
