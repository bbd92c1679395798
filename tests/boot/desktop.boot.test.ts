/**
 * The built app on the desktop, against the recording Electron double: the relay-desktop://
 * scheme, the quick ask shortcut and its window (a second sandboxed window, trusted by the router
 * with the main one and no other), the tray and its menu, closing to the tray, links from a
 * second start and from macOS, the proxy on both sessions, opening at login on Linux, and an
 * AppImage updating itself from a feed electron-builder's code wrote, through electron-updater
 * and the double's `net.request`.
 *
 * What it cannot show: the real tray, shortcut and window manager (the double records and plays
 * them back), Chromium's proxy resolution (the double resolves the rules the app sets), and
 * installing an update (it replaces the running program).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../electron/main/windows/app-origin';
import { publishLinuxRelease, serveFeed, type FeedServer } from '../fakes/update-feed';
import { bootApp, type BootedApp, type BootOptions } from './boot-app';
import { mainProcessExports, otherProcessExports } from './electron-api';

const { appRoot, runtime } = inject('boot');
const main = join(appRoot, 'out', 'main', 'index.js');
const packageJson = JSON.parse(
  await readFile(join(import.meta.dirname, '../../package.json'), 'utf8'),
) as { version: string; productName: string };
const REPO_TRAY = join(import.meta.dirname, '../../resources/tray');

/** A home with `resources/` as an installed app has it: the tray images beside app.asar. */
async function installedHome(): Promise<{ home: string; resources: string }> {
  const home = await mkdtemp(join(tmpdir(), 'relay-desktop-boot-'));
  const resources = join(home, 'resources');
  await mkdir(resources, { recursive: true });
  await cp(REPO_TRAY, join(resources, 'tray'), { recursive: true });
  return { home, resources };
}

function boot(home: string, resources: string, extra: Partial<BootOptions> = {}) {
  return bootApp({
    runtime,
    main,
    exportNames: mainProcessExports(),
    otherProcessNames: otherProcessExports(),
    home,
    appName: packageJson.productName,
    appVersion: packageJson.version,
    resourcesPath: resources,
    ...extra,
  });
}

/** The value of a route's answer from a window's top frame, or a failure naming its error. */
async function call<T>(app: BootedApp, channel: string, payload: unknown, window = 1): Promise<T> {
  const answer = await app.invoke(channel, payload, { frame: 'main', window });
  if (!answer.ok) throw new Error(answer.error);
  const result = answer.value as { ok: boolean; value?: T; error?: unknown };
  if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

function labels(menu: unknown): string[] {
  return (menu as { label?: string; type?: string }[]).map((item) => item.label ?? item.type ?? '');
}

describe('the app on the desktop', () => {
  let home: string;
  let resources: string;
  let app: BootedApp;

  beforeAll(async () => {
    ({ home, resources } = await installedHome());
    // The person says yes to the one question asked: the proxy set below.
    app = await boot(home, resources, { messageBoxAnswers: [1] });
    await app.ready();
    await app.waitForCall('BrowserWindow#1.show');
  });

  afterAll(async () => {
    await app?.kill();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('registers the link scheme, the quick ask shortcut and the tray, and applies the proxy', async () => {
    expect(app.callsTo('app.setAsDefaultProtocolClient').map((c) => c.args)).toEqual([
      ['relay-desktop'],
    ]);
    const state = await app.state();
    expect(state.shortcuts).toEqual(['CommandOrControl+Alt+Space']);
    expect(state.tray).toMatchObject({
      tooltip: 'Relay Desktop',
      image: { path: join(resources, 'tray', 'tray-light.png'), empty: false },
      destroyed: false,
    });
    expect(labels(state.tray?.menu)).toEqual([
      'New chat',
      'Quick ask (Ctrl+Alt+Space)',
      'Hide Relay Desktop',
      'separator',
      'No connection yet',
      'separator',
      'Quit Relay Desktop',
    ]);
    // The session net.fetch uses, and the one electron-updater downloads through.
    expect(state.proxies).toEqual({
      '': { mode: 'system' },
      'electron-updater': { mode: 'system' },
    });
    // Built without an update address: it says so rather than checking nothing.
    expect(await call(app, 'updates:status', undefined)).toMatchObject({
      state: 'unsupported',
      reason: expect.stringMatching(/without an update address/),
    });
  });

  it('opens the quick window with the shortcut: sandboxed, its own page, and trusted with the main window only', async () => {
    await app.pressShortcut('CommandOrControl+Alt+Space');
    await app.waitForCall('BrowserWindow#2.show');
    const [, created] = app.callsTo('new BrowserWindow');
    const options = created?.args[0] as { webPreferences: Record<string, unknown> } & Record<
      string,
      unknown
    >;
    expect(options).toMatchObject({
      frame: false,
      alwaysOnTop: true,
      skipTaskbar: true,
      show: false,
    });
    expect(options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools: false,
      preload: join(appRoot, 'out', 'preload', 'index.cjs'),
    });
    const windows = (await app.state()).windows;
    expect(windows.map((w) => [w.id, w.url, w.visible])).toEqual([
      [1, 'app://relay/index.html', true],
      [2, 'app://relay/quick.html', true],
    ]);
    // Told it was shown; the main window is not.
    expect(windows[1]?.sent.map((s) => s.channel)).toContain('quick-ask:shown');
    expect(windows[0]?.sent.map((s) => s.channel)).not.toContain('quick-ask:shown');

    const page = await app.request('app://relay/quick.html');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);

    // The router answers the quick window's page, and refuses its frames and other pages.
    expect(await call(app, 'quick-ask:state', undefined, 2)).toMatchObject({
      model: null,
      problem: expect.stringMatching(/Connect to a relay first/),
    });
    for (const sender of [
      { window: 2, frame: 'sub' as const, url: 'app://relay/quick.html' },
      { window: 2, frame: 'main' as const, url: 'https://evil.example/' },
    ]) {
      expect(await app.invoke('quick-ask:state', undefined, sender)).toMatchObject({
        ok: true,
        value: { ok: false, error: { kind: 'forbidden' } },
      });
    }
    // Its page reaches its own routes only: not the connections, files, proxy or backups.
    for (const [channel, payload] of [
      ['connections:list', undefined],
      ['chat:attachment-open', { id: 'x' }],
      ['network:set-proxy', { proxy: { mode: 'none' } }],
      ['backups:restore', { id: 'x' }],
      ['files:grant-dropped', { purpose: 'attach', paths: ['/etc/passwd'] }],
    ] as const) {
      expect(await app.invoke(channel, payload, { window: 2, frame: 'main' })).toMatchObject({
        ok: true,
        value: { ok: false, error: { kind: 'forbidden' } },
      });
    }
    // Hardened like the main window by web-contents-created.
    expect(await app.navigate('https://evil.example/', 2)).toEqual({ prevented: true });
    expect(await app.openWindow('file:///etc/passwd', 2)).toEqual({ action: 'deny' });
    expect(await app.permission('clipboard-read', 2)).toEqual({ requested: false, checked: false });

    // Esc (the page's hide route), then the shortcut again toggles it.
    await call(app, 'quick-ask:hide', undefined, 2);
    expect((await app.state()).windows[1]?.visible).toBe(false);
    await app.pressShortcut('CommandOrControl+Alt+Space');
    await expect.poll(async () => (await app.state()).windows[1]?.visible).toBe(true);
    await app.pressShortcut('CommandOrControl+Alt+Space');
    await expect.poll(async () => (await app.state()).windows[1]?.visible).toBe(false);
    // Still the same window: made once.
    expect(app.callsTo('new BrowserWindow')).toHaveLength(2);
  });

  it('hides and shows the main window from the tray, and sends New chat to its page', async () => {
    await app.clickTrayMenuItem('toggleWindow');
    let state = await app.state();
    expect(state.windows[0]?.visible).toBe(false);
    expect(labels(state.tray?.menu)).toContain('Show Relay Desktop');
    await app.clickTrayMenuItem('toggleWindow');
    await app.clickTrayMenuItem('newChat');
    state = await app.state();
    expect(state.windows[0]?.visible).toBe(true);
    expect(state.windows[0]?.sent).toContainEqual({
      channel: 'shell:command',
      args: [{ id: 'newChat' }],
    });
  });

  it('takes a link from a second start and from macOS, checked as if typed', async () => {
    await app.secondInstance([
      '/opt/Relay Desktop/relay-desktop',
      'relay-desktop://connect?name=Work&baseUrl=https%3A%2F%2Frelay.example.com&apiKey=sk-not-taken',
    ]);
    await app.waitForCall(
      'BrowserWindow#1.webContents.send',
      (sent) => sent.args[0] === 'desktop:link-opened',
    );
    const link = await call<{ ok: boolean; draft: unknown; notes: string[] }>(
      app,
      'desktop:take-link',
      undefined,
    );
    expect(link).toMatchObject({
      ok: true,
      draft: { name: 'Work', baseUrl: 'https://relay.example.com' },
    });
    expect(JSON.stringify(link)).not.toContain('sk-not-taken');
    expect(await call(app, 'desktop:take-link', undefined)).toBeNull();

    expect(await app.openUrl('relay-desktop://settings')).toEqual({ prevented: true });
    expect(await call(app, 'desktop:take-link', undefined)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/can only add a connection/),
    });
  });

  it('applies a proxy to both sessions and tests an address with resolveProxy', async () => {
    const proxy = {
      mode: 'manual',
      scheme: 'http',
      host: 'proxy.example.com',
      port: 3128,
      bypass: ['.corp.example.com'],
    };
    expect(await call(app, 'network:set-proxy', { proxy })).toEqual(proxy);
    // Asked first, in main's own message box, naming the proxy.
    const [asked] = app.callsTo('dialog.showMessageBox');
    expect(JSON.stringify(asked?.args)).toContain('http://proxy.example.com:3128');
    const applied = {
      mode: 'fixed_servers',
      proxyRules: 'http://proxy.example.com:3128',
      proxyBypassRules: '.corp.example.com,localhost,127.0.0.1,[::1]',
    };
    expect((await app.state()).proxies).toEqual({ '': applied, 'electron-updater': applied });
    expect(
      await call(app, 'network:test-proxy', { url: 'https://relay.example.com' }),
    ).toMatchObject({
      answer: 'PROXY proxy.example.com:3128',
      direct: false,
    });
    expect(
      await call(app, 'network:test-proxy', { url: 'https://git.corp.example.com' }),
    ).toMatchObject({
      answer: 'DIRECT',
      direct: true,
    });
  });

  it('opens at login on Linux with an XDG autostart entry, not the login items', async () => {
    const entry = join(home, '.config', 'autostart', 'relay-desktop.desktop');
    const on = await call<{ status: { openAtLogin: unknown } }>(app, 'desktop:update', {
      desktop: { openAtLogin: true },
    });
    expect(on.status.openAtLogin).toEqual({ enabled: true, detail: entry });
    const text = await readFile(entry, 'utf8');
    expect(text).toMatch(/^Exec=\S+ --hidden$/m);
    expect(text).toContain('Name=Relay Desktop\n');
    expect(app.callsTo('app.setLoginItemSettings')).toEqual([]);
    await call(app, 'desktop:update', { desktop: { openAtLogin: false } });
    expect(existsSync(entry)).toBe(false);
  });

  it('closes to the tray when set, and quits from the tray', async () => {
    await call(app, 'desktop:update', { desktop: { closeToTray: true } });
    await app.closeWindow(1);
    const state = await app.state();
    expect(state.windows[0]).toMatchObject({ id: 1, visible: false, destroyed: false });
    await app.clickTrayMenuItem('quit');
    expect(await app.exited).toEqual({ code: 0, signal: null });
    expect(app.callsTo('globalShortcut.unregister').map((c) => c.args)).toContainEqual([
      'CommandOrControl+Alt+Space',
    ]);
    expect(app.callsTo('Tray.destroy')).toHaveLength(1);
  });

  it('used only what the double implements, and nothing escaped the app', () => {
    expect(app.missing).toEqual([]);
    expect(app.uncaught).toEqual([]);
  });
});

describe('a shortcut another app holds', () => {
  it('is said in the status, and quick ask stays reachable from the tray', async () => {
    const { home, resources } = await installedHome();
    const app = await boot(home, resources, { takenShortcuts: ['CommandOrControl+Alt+Space'] });
    try {
      await app.ready();
      await app.waitForCall('BrowserWindow#1.show');
      expect(await call(app, 'desktop:status', undefined)).toMatchObject({
        shortcut: {
          registered: false,
          problem: {
            message: expect.stringMatching(/^The system refused Ctrl\+Alt\+Space/),
            messageId: 'desktop.shortcutRefused',
            values: { keys: 'Ctrl+Alt+Space' },
          },
        },
      });
      await app.clickTrayMenuItem('quickAsk');
      await app.waitForCall('BrowserWindow#2.show');
      expect(app.missing).toEqual([]);
      expect(app.uncaught).toEqual([]);
    } finally {
      await app.kill();
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('an AppImage with an update address', () => {
  let feed: FeedServer;
  let feedDir: string;
  let home: string;
  let app: BootedApp | undefined;

  beforeAll(async () => {
    let resources: string;
    ({ home, resources } = await installedHome());
    feedDir = join(home, 'feed');
    feed = await serveFeed(() => feedDir);
    const { appUpdateYml } = await publishLinuxRelease({
      dir: feedDir,
      url: feed.url,
      version: '9.0.0',
      artifactBytes: randomBytes(64 * 1024),
      releaseNotes: 'Everything is new.',
    });
    // As electron-builder writes it into the package (resources/app-update.yml).
    await writeFile(join(resources, 'app-update.yml'), appUpdateYml);
    const running = join(home, 'Relay-Desktop.AppImage');
    await writeFile(running, 'the running version');
    app = await boot(home, resources, { env: { APPIMAGE: running } });
    await app.ready();
    await app.waitForCall('BrowserWindow#1.show');
  });

  afterAll(async () => {
    await app?.kill();
    await feed?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('checks the feed through the updater session, downloads, verifies and offers the restart', async () => {
    const checked = await call<{ state: string }>(app!, 'updates:check', undefined);
    expect(['downloading', 'ready']).toContain(checked.state);
    await app!.waitForCall(
      'BrowserWindow#1.webContents.send',
      (sent) =>
        sent.args[0] === 'updates:status-changed' &&
        (sent.args[1] as { state?: string }).state === 'ready',
      30_000,
    );
    expect(await call(app!, 'updates:status', undefined)).toMatchObject({
      state: 'ready',
      release: { version: '9.0.0', notes: 'Everything is new.' },
    });
    const requests = (await app!.state()).netRequests;
    // electron-updater asks for the channel file with a cache-busting query.
    expect(requests[0]).toEqual({
      url: expect.stringMatching(new RegExp(`^${feed.url}latest-linux\\.yml(\\?|$)`)),
      partition: 'electron-updater',
    });
    expect(requests.every((r) => r.partition === 'electron-updater')).toBe(true);
    expect(feed.requests).toContain('/relay-desktop/Relay-Desktop-9.0.0.AppImage');
    expect(app!.missing).toEqual([]);
    expect(app!.uncaught).toEqual([]);
  });
});
