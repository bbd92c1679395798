/**
 * The Electron double itself: what it refuses, so that the boot test of the app can fail. Each
 * case loads a few lines of main-process code, written here, the way the app's bundle is loaded.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
async function start(source: string, { load = true } = {}): Promise<BootedApp> {
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
      import { app, Tray, globalShortcut } from 'electron';
      import { createRequire } from 'node:module';
      const electron = createRequire(import.meta.url)('electron');
      const tries = {
        method: () => app.setAsDefaultProtocolClient('relay'),
        swallowed: () => { try { app.setBadgeCount(1); } catch {} return 'swallowed'; },
        module: () => globalShortcut.register('Ctrl+K', () => {}),
        class: () => new Tray('icon.png'),
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
        { method: 'The Electron double does not implement app.setAsDefaultProtocolClient' },
        { swallowed: 'swallowed' },
        { module: 'The Electron double does not implement electron.globalShortcut.register' },
        { class: 'The Electron double does not implement new electron.Tray' },
        { notElectron: 'The Electron double does not implement electron.notAnElectronExport' },
      ]);
    // Caught or not, every miss is on record, and the boot tests fail on any.
    expect(booted.missing.map((miss) => miss.path)).toEqual([
      'app.setAsDefaultProtocolClient',
      'app.setBadgeCount',
      'electron.globalShortcut.register',
      'new electron.Tray',
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
