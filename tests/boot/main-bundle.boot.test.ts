/**
 * The shipped main bundle starts: `out/main/index.js`, as `npm run build` writes it, loaded in
 * Node with `electron` resolved to a recording double of Electron's main-process API
 * (`electron-double/`), then driven as Electron and the page would drive it.
 *
 * What it proves: every name the bundle takes from Electron exists in Electron's main process
 * (read from `electron.d.ts`); the bundle and every package it loads at start resolve and run
 * (libsql and the keyring's native modules included); the start order Electron requires (sandbox
 * and privileged scheme before ready, windows and protocol handlers after); the window's secure
 * preferences and a preload that exists; the renderer served over `app://` with its CSP and
 * nothing outside it; every route of the contract answered through `ipcMain.handle`, by the real
 * services, to the app's own window only; the page kept in the app; a clean quit.
 *
 * What it cannot: anything Chromium or Electron's own code does (the sandbox itself, rendering,
 * the preload in a real renderer, how Chromium parses the scheme, net.fetch), Node's version
 * inside Electron (the tests run under the Node that runs them), and Electron's real timing.
 * An API the double does not implement fails the test by name instead of passing unseen.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { DATABASE_FILE, openDatabase } from '../../electron/main/services/database';
import { LOG_FILE } from '../../electron/main/services/log-policy';
import { SETTINGS_FILE } from '../../electron/main/services/settings/settings';
import { WINDOW_STATE_FILE } from '../../electron/main/services/window-state';
import { CONTENT_SECURITY_POLICY } from '../../electron/main/windows/app-origin';
import type { RouteSpec } from '../../electron/shared/ipc/define';
import { EVENTS, ROUTES } from '../../electron/shared/ipc/contract';
import { PRELOAD_ROUTES } from '../../electron/shared/ipc/file-grants';
import { bootApp, BootedApp } from './boot-app';
import {
  mainProcessExports,
  moduleGraph,
  moduleUse,
  otherProcessExports,
  SANDBOXED_PRELOAD_MODULES,
} from './electron-api';

const { appRoot, runtime } = inject('boot');
const out = join(appRoot, 'out');
const main = join(out, 'main', 'index.js');
const exportNames = mainProcessExports();
const otherProcessNames = otherProcessExports();
const packageJson = JSON.parse(
  await readFile(join(import.meta.dirname, '../../package.json'), 'utf8'),
) as { version: string; productName: string };

/** Names a file graph takes from Electron that Electron's main process does not export. */
function foreignElectronNames(entry: string): string[] {
  const exported = new Set(exportNames);
  const problems: string[] = [];
  for (const file of moduleGraph(entry)) {
    const use = moduleUse(file);
    problems.push(...use.unreadable);
    for (const [name, places] of use.electronNames) {
      if (!exported.has(name)) problems.push(`${name} (${places.join(', ')})`);
    }
  }
  return problems;
}

function boot(
  home: string,
  extra: { argv?: string[]; switches?: string[]; preferredLanguages?: string[] } = {},
) {
  return bootApp({
    runtime,
    main,
    exportNames,
    otherProcessNames,
    home,
    appName: packageJson.productName,
    appVersion: packageJson.version,
    ...extra,
  });
}

describe('what the built bundles take from Electron', () => {
  it('main imports only names that Electron exports to the main process', () => {
    const names = new Set(moduleGraph(main).flatMap((f) => [...moduleUse(f).electronNames.keys()]));
    // It does use Electron (a parse that found nothing would pass for the wrong reason).
    expect([...names]).toEqual(expect.arrayContaining(['app', 'BrowserWindow', 'protocol']));
    expect(foreignElectronNames(main)).toEqual([]);
  });

  it('the chat import worker takes nothing from Electron, which worker threads do not have', () => {
    const worker = join(out, 'main', 'chat-import-worker.js');
    const specifiers = moduleGraph(worker).flatMap((f) => [...moduleUse(f).specifiers.keys()]);
    expect(specifiers.filter((s) => s.startsWith('electron'))).toEqual([]);
  });

  it('the preload requires only what a sandboxed preload can', () => {
    const use = moduleUse(join(out, 'preload', 'index.cjs'));
    expect(use.unreadable).toEqual([]);
    expect([...use.specifiers.keys()]).toEqual(['electron']);
    const names = [...use.electronNames.keys()].sort();
    expect(names).toEqual(['contextBridge', 'ipcRenderer', 'webUtils']);
    for (const name of names) expect(SANDBOXED_PRELOAD_MODULES).toContain(name);
  });
});

describe('a start of the built app', () => {
  let home: string;
  let app: BootedApp;
  let userData: string;

  beforeAll(async () => {
    // A name Electron does not export would stop the real app at load: check before loading.
    const foreign = foreignElectronNames(main);
    if (foreign.length > 0) throw new Error(`Not exported by Electron: ${foreign.join('; ')}`);
    home = await mkdtemp(join(tmpdir(), 'relay-boot-'));
    userData = join(home, 'userData');
    await mkdir(userData, { recursive: true });
    // The person's own settings, which the app must read from its user data folder.
    await writeFile(
      join(userData, SETTINGS_FILE),
      JSON.stringify({
        theme: 'dark',
        chatDefaults: { temperature: 0.4, maxTokens: 512 },
        timeouts: { requestSeconds: 90, idleSeconds: 45 },
        allowPlaintextKeys: false,
        includePromptsInLogs: false,
      }),
    );
    app = await boot(home);
    await app.ready();
    await app.waitForCall('BrowserWindow#1.show');
  });

  afterAll(async () => {
    await app?.kill();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('turns the sandbox on and registers app:// as privileged before ready', async () => {
    const [sandbox, ...more] = app.callsTo('app.enableSandbox');
    expect(sandbox?.afterReady).toBe(false);
    expect(more).toEqual([]);
    const [schemes] = app.callsTo('protocol.registerSchemesAsPrivileged');
    expect(schemes?.afterReady).toBe(false);
    expect(schemes?.args).toEqual([
      [{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }],
    ]);
    expect((await app.state()).sandboxEnabled).toBe(true);
    // Nothing that needs a ready app was tried before it (the double throws as Electron does).
    expect(
      app.calls.filter((call) => call.path === 'new BrowserWindow' && !call.afterReady),
    ).toEqual([]);
  });

  it('opens one window, sandboxed and isolated, with a preload that exists', async () => {
    const created = app.callsTo('new BrowserWindow');
    expect(created).toHaveLength(1);
    const options = created[0]?.args[0] as {
      show: boolean;
      webPreferences: Record<string, unknown>;
    };
    expect(options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      plugins: false,
      disableBlinkFeatures: 'Auxclick',
      // A packaged build has no developer tools.
      devTools: false,
    });
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.webPreferences).not.toHaveProperty('partition');
    expect(options.webPreferences['preload']).toBe(join(out, 'preload', 'index.cjs'));
    expect(existsSync(options.webPreferences['preload'] as string)).toBe(true);
    // Hidden until the first paint, then shown.
    expect(options.show).toBe(false);
    const [window] = (await app.state()).windows;
    expect(window).toMatchObject({ url: 'app://relay/index.html', visible: true });
  });

  it('serves app://relay/index.html through its protocol handler, with the CSP header', async () => {
    const page = await app.request('app://relay/index.html');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.text).toBe(await readFile(join(out, 'renderer', 'index.html'), 'utf8'));

    // The page's own script comes the same way.
    const script = /<script[^>]*\ssrc="([^"]+)"/.exec(page.text)?.[1];
    expect(script).toMatch(/^\.?\/assets\/index-.*\.js$/);
    const scriptAnswer = await app.request(new URL(script ?? '', 'app://relay/index.html').href);
    expect(scriptAnswer.status).toBe(200);
    expect(scriptAnswer.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it.each([
    'app://relay/..%2fmain%2findex.js',
    'app://relay/%2e%2e%2fpreload%2findex.cjs',
    'app://relay/..%5cmain%5cindex.js',
    'app://relay/assets/..%2f..%2fmain%2findex.js',
    'app://relay/gallery/..%2f..%2fmain%2findex.js',
    'app://relay/%2e%2e/%2e%2e/package.json',
    'app://relay/index.html%00.png',
    'app://evil/index.html',
    'app://relay.evil/index.html',
    'app://relay:8080/index.html',
  ])('refuses %s', async (url) => {
    const answer = await app.request(url);
    expect(answer.status).toBe(404);
    expect(answer.text).toBe('Not found');
  });

  it('answers every route of the contract and the preload’s own channel, and no other', async () => {
    const state = await app.state();
    const routes: RouteSpec[] = Object.values(ROUTES);
    const channels = [...routes, ...Object.values(PRELOAD_ROUTES)]
      .filter((route) => !route.oneWay)
      .map((route) => route.channel)
      .sort();
    expect(state.ipcHandlers).toEqual(channels);
    // The one-way routes, each through one ipcMain.on listener; electron-log's own channel,
    // opened when it loads, is closed again.
    const oneWay = routes.filter((route) => route.oneWay).map((route) => route.channel);
    expect(oneWay.length).toBeGreaterThan(0);
    expect(state.ipcListeners).toEqual(Object.fromEntries(oneWay.map((channel) => [channel, 1])));
    const registered = app.callsTo('ipcMain.handle').map((call) => call.args[0] as string);
    expect(registered.filter((channel) => channels.includes(channel)).sort()).toEqual(channels);
  });

  it("answers the window's page from the real services and the user data folder", async () => {
    const settings = await app.invoke('settings:get', undefined);
    expect(settings).toEqual({
      ok: true,
      value: {
        ok: true,
        value: expect.objectContaining({
          theme: 'dark',
          chatDefaults: { temperature: 0.4, maxTokens: 512 },
          timeouts: { requestSeconds: 90, idleSeconds: 45 },
          // Not in a file written before the language setting: the system's language.
          language: 'system',
        }),
      },
    });
    const info = await app.invoke('app:info', undefined);
    expect(info).toEqual({
      ok: true,
      value: {
        ok: true,
        value: { version: packageJson.version, platform: process.platform, systemLocale: 'en' },
      },
    });
  });

  it('says so when no keychain works, and keeps keys in memory', async () => {
    const storage = await app.invoke('connections:key-storage', undefined);
    expect(storage).toMatchObject({
      ok: true,
      value: {
        ok: true,
        value: { backend: 'memory', secure: false, persistent: false, reason: expect.any(String) },
      },
    });
    const log = await readFile(join(userData, 'logs', LOG_FILE), 'utf8');
    expect(log).toMatch(/keys\.storage.*backend[^a-z]+memory/);
  });

  it("takes a one-way message from the window's page, and drops one from another frame, in the log", async () => {
    const logFile = join(userData, 'logs', LOG_FILE);
    const refusals = async () =>
      (await readFile(logFile, 'utf8'))
        .split('\n')
        .filter((l) => l.includes('ipc.one-way-refused'));
    const before = (await refusals()).length;
    expect(await app.send('chat:frame-ready', undefined)).toEqual({ listeners: 1 });
    await app.send('chat:frame-ready', { frame: 'not a field' });
    await app.send('chat:frame-ready', undefined, { frame: 'sub', url: 'app://relay/index.html' });
    await app.send('chat:frame-ready', undefined, { frame: 'main', url: 'https://evil.example/' });
    await expect.poll(async () => (await refusals()).length).toBe(before + 3);
    const logged = (await refusals()).slice(before).join('\n');
    expect(logged).toMatch(/invalid_request/);
    expect(logged.match(/forbidden/g)).toHaveLength(2);
  });

  it("refuses a call from a frame that is not the window's own page", async () => {
    const change = { theme: 'light' };
    const fromFrame = await app.invoke('settings:update', change, {
      frame: 'sub',
      url: 'app://relay/index.html',
    });
    const fromElsewhere = await app.invoke('settings:update', change, {
      frame: 'main',
      url: 'https://evil.example/',
    });
    for (const answer of [fromFrame, fromElsewhere]) {
      expect(answer).toMatchObject({
        ok: true,
        value: { ok: false, error: { kind: 'forbidden' } },
      });
    }
    const settings = await app.invoke('settings:get', undefined);
    expect(settings).toMatchObject({ value: { value: { theme: 'dark' } } });
  });

  it('keeps the page in the app: no navigation, no new windows, no permissions', async () => {
    expect(await app.navigate('https://evil.example/')).toEqual({ prevented: true });
    expect(await app.openWindow('https://example.com/docs')).toEqual({ action: 'deny' });
    expect(app.callsTo('shell.openExternal').map((call) => call.args)).toEqual([
      ['https://example.com/docs'],
    ]);
    expect(await app.openWindow('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(app.callsTo('shell.openExternal')).toHaveLength(1);
    expect(await app.permission('notifications')).toEqual({ requested: false, checked: false });
  });

  it('sends a menu command to the page', async () => {
    await app.clickMenuItem('openSettings');
    const [window] = (await app.state()).windows;
    expect(window?.sent).toContainEqual({
      channel: EVENTS.shellCommand.channel,
      args: [{ id: 'openSettings' }],
    });
  });

  it('closing the window quits, with the window state saved and the database closed', async () => {
    const db = join(userData, DATABASE_FILE);
    // Open in WAL mode: recent writes are in the log beside the file until it is checkpointed.
    expect((await stat(`${db}-wal`)).size).toBeGreaterThan(0);
    expect(existsSync(join(userData, WINDOW_STATE_FILE))).toBe(false);

    await app.closeWindow();
    expect(await app.exited).toEqual({ code: 0, signal: null });

    // Closed cleanly: the WAL is checkpointed into the file (gone or empty), so the file alone,
    // copied without it, holds the app's tables and its recorded migrations.
    const wal = await stat(`${db}-wal`).catch(() => undefined);
    expect.soft(wal?.size ?? 0).toBe(0);
    const alone = join(home, 'alone.db');
    await copyFile(db, alone);
    const copy = await openDatabase({ path: alone });
    try {
      expect.soft(copy.all('SELECT domain FROM schema_migrations').length).toBeGreaterThan(0);
    } finally {
      copy.close();
    }
    const windowState = join(userData, WINDOW_STATE_FILE);
    expect
      .soft(existsSync(windowState) && JSON.parse(await readFile(windowState, 'utf8')))
      .toEqual({
        bounds: { x: 0, y: 0, width: 1200, height: 800 },
        maximized: false,
      });
    const log = await readFile(join(userData, 'logs', LOG_FILE), 'utf8');
    expect(log).toContain('app.quit');
  });

  it('used only what the double implements, and nothing escaped the app', () => {
    expect(app.missing).toEqual([]);
    expect(app.uncaught).toEqual([]);
  });
});

describe('the language at first start', () => {
  let home: string;
  let app: BootedApp;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'relay-boot-'));
    app = await boot(home, { preferredLanguages: ['de-AT', 'en-US'] });
    await app.ready();
    await app.waitForCall('BrowserWindow#1.show');
  });

  afterAll(async () => {
    await app?.kill();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('is the first of the system’s preferred languages the app speaks, resolved in main', async () => {
    const info = await app.invoke('app:info', undefined);
    expect(info).toEqual({
      ok: true,
      value: { ok: true, value: expect.objectContaining({ systemLocale: 'de' }) },
    });
    expect(app.callsTo('app.getPreferredSystemLanguages')).toHaveLength(1);
    // The settings still say "system": the choice follows the system until one is made.
    const settings = await app.invoke('settings:get', undefined);
    expect(settings).toEqual({
      ok: true,
      value: { ok: true, value: expect.objectContaining({ language: 'system' }) },
    });
  });

  it('builds the application menu in that language, and again when Settings changes it', async () => {
    type Item = { label?: string; role?: string; submenu?: Item[] };
    const menu = async () => (await app.state()).applicationMenu as Item[];
    const fileMenu = (items: Item[]) => items[0]!.submenu!.map((item) => item.label ?? '-');
    // Linux: the menus carry their access keys; role items are labelled in the app's words too.
    expect((await menu()).map((item) => item.label)).toEqual([
      '&Datei',
      '&Bearbeiten',
      '&Ansicht',
      '&Fenster',
      '&Hilfe',
    ]);
    expect(fileMenu(await menu())).toEqual([
      'Neuer Chat',
      'Neuer Chat aus einem Prompt …',
      '-',
      'Einstellungen',
      '-',
      'Beenden',
    ]);
    const edit = (await menu())[1]!.submenu!;
    expect(edit.find((item) => item.role === 'copy')?.label).toBe('Kopieren');

    const changed = await app.invoke('settings:update', { language: 'fr' });
    expect(changed).toMatchObject({ ok: true, value: { ok: true } });
    await vi.waitFor(async () => expect((await menu())[0]!.label).toBe('&Fichier'));
    expect(fileMenu(await menu())[0]).toBe('Nouvelle discussion');
    const tray = (await app.state()).tray?.menu as Item[] | undefined;
    if (tray) expect(tray[0]!.label).toBe('Nouvelle discussion');

    await app.invoke('settings:update', { language: 'system' });
    await vi.waitFor(async () => expect((await menu())[0]!.label).toBe('&Datei'));
  });
});

describe('quitting from the menu while a reply streams from the demo relay', () => {
  let home: string;
  let app: BootedApp;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'relay-boot-'));
    app = await boot(home);
    await app.ready();
    await app.waitForCall('BrowserWindow#1.show');
  });

  afterAll(async () => {
    await app?.kill();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** The value of a route's answer, or a failure naming its error. */
  async function call<T>(channel: string, payload: unknown): Promise<T> {
    const answer = await app.invoke(channel, payload);
    if (!answer.ok) throw new Error(answer.error);
    const result = answer.value as { ok: boolean; value?: T; error?: unknown };
    if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`);
    return result.value as T;
  }

  it('keeps the reply so far as interrupted, and closes the database', async () => {
    await call('connections:start-demo', undefined);
    const conversation = await call<{ id: string }>('chat:create', { model: 'demo-chat' });
    const { replyId } = await call<{ replyId: string }>('chat:send', {
      conversationId: conversation.id,
      text: 'Tell me about lighthouses, their keepers and their lenses.',
    });
    // Part of the reply has reached the page.
    await app.waitForCall(
      'BrowserWindow#1.webContents.send',
      (sent) => sent.args[0] === 'chat:delta',
    );

    await app.quit();
    expect(await app.exited).toEqual({ code: 0, signal: null });

    const db = join(home, 'userData', DATABASE_FILE);
    const wal = await stat(`${db}-wal`).catch(() => undefined);
    expect(wal?.size ?? 0).toBe(0);
    const alone = join(home, 'alone.db');
    await copyFile(db, alone);
    const copy = await openDatabase({ path: alone });
    try {
      const reply = copy.one<{ status: string; content: string }>(
        'SELECT status, content FROM chat_messages WHERE id = ?',
        [replyId],
      );
      expect(reply?.status).toBe('interrupted');
      expect(reply?.content.length).toBeGreaterThan(0);
    } finally {
      copy.close();
    }
    // The window was open when the quit began: its place is saved too.
    expect(existsSync(join(home, 'userData', WINDOW_STATE_FILE))).toBe(true);
    expect(app.missing).toEqual([]);
    expect(app.uncaught).toEqual([]);
  });
});

describe('a packaged start with remote debugging', () => {
  it('refuses to start, before it registers or opens anything', async () => {
    const home = await mkdtemp(join(tmpdir(), 'relay-boot-'));
    try {
      const app = new BootedApp({
        runtime,
        main,
        exportNames,
        otherProcessNames,
        home,
        appName: packageJson.productName,
        appVersion: packageJson.version,
        argv: ['--remote-debugging-port=9222'],
      });
      expect(await app.exited).toEqual({ code: 1, signal: null });
      expect(app.output).toContain('does not start with remote debugging turned on');
      expect(app.callsTo('app.exit').map((call) => call.args)).toEqual([[1]]);
      for (const path of [
        'app.enableSandbox',
        'protocol.registerSchemesAsPrivileged',
        'app.requestSingleInstanceLock',
        'app.whenReady',
      ]) {
        expect(app.callsTo(path)).toEqual([]);
      }
      expect(app.missing).toEqual([]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
