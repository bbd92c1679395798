/**
 * The Electron double itself: what it refuses, so that the boot test of the app can fail. Each
 * case loads a few lines of main-process code, written here, the way the app's bundle is loaded.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { bootApp, BootedApp } from './boot-app';
import { mainProcessExports, otherProcessExports } from './electron-api';

const { runtime } = inject('boot');
let home: string;
let app: BootedApp | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'relay-double-'));
});

afterEach(async () => {
  await app?.kill();
  app = undefined;
  await rm(home, { recursive: true, force: true });
});

/** Starts `source` as the main bundle (an ES module). */
async function start(
  source: string,
  { load = true, ...extra }: { load?: boolean } & Partial<Parameters<typeof bootApp>[0]> = {},
): Promise<BootedApp> {
  const main = join(home, 'main.mjs');
  await writeFile(main, source);
  const options = {
    runtime,
    main,
    exportNames: mainProcessExports(),
    otherProcessNames: otherProcessExports(),
    home,
    appName: 'Double',
    appVersion: '1.0.0',
    ...extra,
  };
  app = load ? await bootApp(options) : new BootedApp(options);
  return app;
}

/** Lines the main code printed with console.log, parsed (poll: its output comes on its own pipe). */
function printed(booted: BootedApp): unknown[] {
  return booted.output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as unknown);
}

describe('the Electron double', () => {
  it('gives import and require the same module, and what Electron gives main', async () => {
    const booted = await start(`
      import electron, { app, BrowserWindow } from 'electron';
      import { createRequire } from 'node:module';
      const required = createRequire(import.meta.url)('electron');
      console.log(JSON.stringify({
        sameModule: required === electron,
        sameApp: required.app === app && required.BrowserWindow === BrowserWindow,
        rendererOnly: required.ipcRenderer,
        name: app.name,
      }));
    `);
    await expect
      .poll(() => printed(booted))
      .toEqual([{ sameModule: true, sameApp: true, name: 'Double' }]);
    expect(booted.missing).toEqual([]);
  });

  it('throws on, and records, every API it does not implement, naming its path', async () => {
    const booted = await start(`
      import { app, TouchBar, powerSaveBlocker } from 'electron';
      import { createRequire } from 'node:module';
      const electron = createRequire(import.meta.url)('electron');
      const tries = {
        method: () => app.setJumpList([]),
        swallowed: () => { try { app.setBadgeCount(1); } catch {} return 'swallowed'; },
        module: () => powerSaveBlocker.start('prevent-app-suspension'),
        class: () => new TouchBar({ items: [] }),
        notElectron: () => electron.notAnElectronExport,
      };
      for (const [name, run] of Object.entries(tries)) {
        try { console.log(JSON.stringify({ [name]: run() })); }
        catch (error) { console.log(JSON.stringify({ [name]: error.message.split(' (')[0] })); }
      }
    `);
    await expect
      .poll(() => printed(booted))
      .toEqual([
        { method: 'The Electron double does not implement app.setJumpList' },
        { swallowed: 'swallowed' },
        { module: 'The Electron double does not implement electron.powerSaveBlocker.start' },
        { class: 'The Electron double does not implement new electron.TouchBar' },
        { notElectron: 'The Electron double does not implement electron.notAnElectronExport' },
      ]);
    // Caught or not, every miss is on record, and the boot tests fail on any.
    expect(booted.missing.map((miss) => miss.path)).toEqual([
      'app.setJumpList',
      'app.setBadgeCount',
      'electron.powerSaveBlocker.start',
      'new electron.TouchBar',
      'electron.notAnElectronExport',
    ]);
  });

  it('fails to load a bundle that imports a name Electron does not export, as Electron does', async () => {
    const booted = await start(`import { app, quickAsk } from 'electron';`, { load: false });
    await expect(booted.loaded).rejects.toThrow(/does not provide an export named 'quickAsk'/);
  });

  it('refuses what Electron refuses once the app is ready, and windows before it', async () => {
    const booted = await start(`
      import { app, BrowserWindow, protocol } from 'electron';
      const attempt = (name, run) => {
        try { run(); console.log(JSON.stringify({ [name]: 'ok' })); }
        catch (error) { console.log(JSON.stringify({ [name]: error.message })); }
      };
      attempt('windowBeforeReady', () => new BrowserWindow({ show: false }));
      app.whenReady().then(() => {
        attempt('sandboxAfterReady', () => app.enableSandbox());
        attempt('schemeAfterReady', () => protocol.registerSchemesAsPrivileged([]));
        attempt('windowAfterReady', () => new BrowserWindow({ show: false }));
      });
    `);
    await booted.ready();
    await booted.waitForCall('new BrowserWindow', (call) => call.afterReady);
    await expect
      .poll(() => printed(booted))
      .toEqual([
        { windowBeforeReady: 'BrowserWindow cannot be used before the app is ready.' },
        { sandboxAfterReady: 'app.enableSandbox() can only be called before app is ready' },
        {
          schemeAfterReady:
            'protocol.registerSchemesAsPrivileged should be called before app is ready',
        },
        { windowAfterReady: 'ok' },
      ]);
  });

  it('refuses a second handler for one channel, as ipcMain does', async () => {
    const booted = await start(`
      import { ipcMain } from 'electron';
      ipcMain.handle('twice', () => 1);
      try { ipcMain.handle('twice', () => 2); } catch (error) { console.log(JSON.stringify({ error: error.message })); }
    `);
    await expect
      .poll(() => printed(booted))
      .toEqual([{ error: "Attempted to register a second handler for 'twice'" }]);
  });
});

describe('the desktop pieces of the double', () => {
  it('makes a tray and global shortcuts only once ready, refuses keys another app holds, and clicks', async () => {
    const booted = await start(
      `
      import { app, globalShortcut, Menu, nativeImage, Tray } from 'electron';
      const log = (value) => console.log(JSON.stringify(value));
      try { new Tray(nativeImage.createFromPath('x.png')); } catch (error) { log({ trayBeforeReady: error.message }); }
      try { globalShortcut.register('Alt+K', () => {}); } catch (error) { log({ shortcutBeforeReady: error.message }); }
      app.whenReady().then(() => {
        log({
          taken: globalShortcut.register('Control+Alt+T', () => {}),
          free: globalShortcut.register('Control+Alt+K', () => log({ pressed: 'Control+Alt+K' })),
          twice: globalShortcut.register('Control+Alt+K', () => {}),
        });
        const image = nativeImage.createFromPath(${JSON.stringify(join(import.meta.dirname, '../../resources/icon.png'))});
        const missing = nativeImage.createFromPath('/nowhere/tray.png');
        log({ empty: image.isEmpty(), missingEmpty: missing.isEmpty() });
        const tray = new Tray(image);
        tray.setToolTip('Double');
        tray.on('click', () => log({ trayClicked: true }));
        tray.setContextMenu(Menu.buildFromTemplate([{ id: 'hello', label: 'Hello', click: () => log({ menu: 'hello' }) }]));
      });
    `,
      { takenShortcuts: ['Control+Alt+T'] },
    );
    await booted.ready();
    await booted.waitForCall('Tray.setContextMenu');
    await booted.pressShortcut('Control+Alt+K');
    await booted.clickTray();
    await booted.clickTrayMenuItem('hello');
    await expect
      .poll(() => printed(booted))
      .toEqual([
        { trayBeforeReady: 'Tray cannot be used before the app is ready.' },
        { shortcutBeforeReady: 'globalShortcut cannot be used before the app is ready.' },
        { taken: false, free: true, twice: false },
        { empty: false, missingEmpty: true },
        { pressed: 'Control+Alt+K' },
        { trayClicked: true },
        { menu: 'hello' },
      ]);
    const state = await booted.state();
    expect(state.shortcuts).toEqual(['Control+Alt+K']);
    expect(state.tray).toMatchObject({
      tooltip: 'Double',
      image: { empty: false },
      destroyed: false,
    });
    expect(booted.missing).toEqual([]);
  });

  it("answers resolveProxy as the session's proxy says, per partition", async () => {
    const booted = await start(
      `
      import { app, session } from 'electron';
      app.whenReady().then(async () => {
        const updater = session.fromPartition('updater', { cache: false });
        const answers = {};
        answers.system = await session.defaultSession.resolveProxy('https://relay.example.com/');
        await session.defaultSession.setProxy({
          mode: 'fixed_servers',
          proxyRules: 'socks5://proxy.example.com:1080',
          proxyBypassRules: '<local>,.corp.example.com',
        });
        answers.proxied = await session.defaultSession.resolveProxy('https://relay.example.com/');
        answers.bypassed = await session.defaultSession.resolveProxy('https://a.corp.example.com/');
        answers.local = await session.defaultSession.resolveProxy('http://intranet/');
        answers.loopback = await session.defaultSession.resolveProxy('http://127.0.0.1:8080/');
        answers.otherSession = await updater.resolveProxy('https://relay.example.com/');
        answers.samePartition = session.fromPartition('updater') === updater;
        console.log(JSON.stringify(answers));
      });
    `,
      { systemProxy: 'PROXY system.example.com:3128' },
    );
    await booted.ready();
    await expect
      .poll(() => printed(booted))
      .toEqual([
        {
          system: 'PROXY system.example.com:3128',
          proxied: 'SOCKS5 proxy.example.com:1080',
          bypassed: 'DIRECT',
          local: 'DIRECT',
          loopback: 'DIRECT',
          otherSession: 'PROXY system.example.com:3128',
          samePartition: true,
        },
      ]);
  });

  it("makes net.request's requests, with redirects left to the caller", async () => {
    const server = createServer((req, res) => {
      if (req.url === '/moved') res.writeHead(302, { location: '/here' }).end();
      else res.writeHead(200, { 'x-seen': req.headers['x-test'] ?? '' }).end(`at ${req.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const booted = await start(`
        import { app, net } from 'electron';
        const get = (path) => new Promise((resolve) => {
          const request = net.request({ url: '${base}' + path, redirect: 'manual', headers: { 'x-test': 'yes' } });
          request.on('redirect', (status, method, url) => { resolve({ redirect: status, to: url.slice(-5) }); request.abort(); });
          request.on('response', (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode, body, seen: response.headers['x-seen'] }));
          });
          request.end();
        });
        app.whenReady().then(async () =>
          console.log(JSON.stringify({ answers: [await get('/hello'), await get('/moved')] })),
        );
      `);
      await booted.ready();
      await expect
        .poll(() => printed(booted))
        .toEqual([
          {
            answers: [
              { status: 200, body: 'at /hello', seen: 'yes' },
              { redirect: 302, to: '/here' },
            ],
          },
        ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('records the link scheme and delivers second-instance and open-url', async () => {
    const booted = await start(`
      import { app } from 'electron';
      app.setAsDefaultProtocolClient('relay-desktop');
      app.on('second-instance', (_event, argv) => console.log(JSON.stringify({ argv })));
      app.on('open-url', (event, url) => { event.preventDefault(); console.log(JSON.stringify({ url })); });
      console.log(JSON.stringify({ registered: app.isDefaultProtocolClient('relay-desktop') }));
    `);
    await booted.secondInstance(['/opt/relay-desktop', 'relay-desktop://connect?x=1']);
    expect(await booted.openUrl('relay-desktop://connect?y=2')).toEqual({ prevented: true });
    await expect
      .poll(() => printed(booted))
      .toEqual([
        { registered: true },
        { argv: ['/opt/relay-desktop', 'relay-desktop://connect?x=1'] },
        { url: 'relay-desktop://connect?y=2' },
      ]);
    expect((await booted.state()).protocolClients).toEqual(['relay-desktop']);
  });
});
