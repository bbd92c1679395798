/**
 * Quick ask's shortcut, the tray and opening at login: applied before they are saved, so what
 * the system refuses is said and the setting stays as it was; links wait for the page.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DesktopService } from '../../../../electron/main/services/desktop/desktop-service';
import {
  SETTINGS_FILE,
  SettingsService,
} from '../../../../electron/main/services/settings/settings';
import { RecordingDesktop } from '../../../fakes/recording-desktop';

let dir: string;
let settings: SettingsService;
let desktop: RecordingDesktop;
let linkEvents: number;

function service(platform = 'linux') {
  return new DesktopService({
    settings,
    platform,
    integration: desktop,
    onLinkOpened: () => linkEvents++,
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-desktop-'));
  settings = new SettingsService(dir);
  desktop = new RecordingDesktop();
  linkEvents = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('at start', () => {
  it('registers the default shortcut and shows the tray', async () => {
    const desktopService = service();
    await desktopService.start();
    expect(desktop.calls).toEqual(['shortcut:CommandOrControl+Alt+Space', 'tray:true']);
    expect(await desktopService.status()).toEqual({
      shortcut: {
        accelerator: 'CommandOrControl+Alt+Space',
        label: 'Ctrl+Alt+Space',
        registered: true,
      },
      tray: { shown: true },
      openAtLogin: { enabled: false },
    });
  });

  it('says when the system refuses the saved shortcut', async () => {
    desktop.taken.add('CommandOrControl+Alt+Space');
    const desktopService = service('darwin');
    await desktopService.start();
    expect((await desktopService.status()).shortcut).toEqual({
      accelerator: 'CommandOrControl+Alt+Space',
      label: '⌥⌘Space',
      registered: false,
      problem: {
        message:
          'The system refused ⌥⌘Space: another app or the system itself already uses it. Choose another shortcut.',
        messageId: 'desktop.shortcutRefused',
        values: { keys: '⌥⌘Space' },
      },
    });
  });
  it('says, by their keys, why the tray or opening at login could not be set up at start', async () => {
    desktop.trayFails = 'no status area';
    desktop.loginFails = true;
    await settings.update({ desktop: { showTray: true, closeToTray: false, openAtLogin: true } });
    const desktopService = service();
    await desktopService.start();
    const status = await desktopService.status();
    expect(status.tray).toEqual({
      shown: false,
      problem: {
        message: 'The tray icon could not be shown: no status area',
        messageId: 'desktop.trayFailed',
        values: { detail: 'no status area' },
      },
    });
    expect(status.openAtLogin.problem).toEqual({
      message: 'Opening at login could not be set up at start: EACCES: permission denied',
      messageId: 'desktop.openAtLoginAtStart',
      values: { detail: 'EACCES: permission denied' },
    });
  });
});

describe('a change', () => {
  it('registers a new shortcut first, then saves it in its canonical form', async () => {
    const desktopService = service();
    await desktopService.start();
    const result = await desktopService.update({ quickAsk: { shortcut: 'alt+ctrl+k' } });
    expect(result.quickAsk.shortcut).toBe('Control+Alt+K');
    expect(result.status.shortcut).toMatchObject({ label: 'Ctrl+Alt+K', registered: true });
    expect(desktop.calls.at(-1)).toBe('shortcut:Control+Alt+K');
    const saved = JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8'));
    expect(saved.quickAsk.shortcut).toBe('Control+Alt+K');
  });

  it('keeps the shortcut that worked when the system refuses the new one', async () => {
    const desktopService = service();
    await desktopService.start();
    desktop.taken.add('Control+Alt+T');
    await expect(
      desktopService.update({ quickAsk: { shortcut: 'Ctrl+Alt+T' } }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
      message:
        'The system refused Ctrl+Alt+T: another app or the system itself already uses it. Choose another shortcut.',
      messageId: 'desktop.shortcutRefused',
      values: { keys: 'Ctrl+Alt+T' },
    });
    // The old one registered again, and nothing saved.
    expect(desktop.calls.slice(-2)).toEqual([
      'shortcut:Control+Alt+T',
      'shortcut:CommandOrControl+Alt+Space',
    ]);
    expect((await settings.get()).quickAsk.shortcut).toBe('CommandOrControl+Alt+Space');
    expect((await desktopService.status()).shortcut.registered).toBe(true);
  });

  it('refuses a shortcut that cannot work before asking the system', async () => {
    const desktopService = service();
    await desktopService.start();
    const before = desktop.calls.length;
    await expect(desktopService.update({ quickAsk: { shortcut: 'Shift+A' } })).rejects.toThrow(
      /Use Ctrl, Alt/,
    );
    expect(desktop.calls.length).toBe(before);
  });

  it('unregisters the shortcut when quick ask is turned off', async () => {
    const desktopService = service();
    await desktopService.start();
    const result = await desktopService.update({ quickAsk: { enabled: false } });
    expect(desktop.calls.at(-1)).toBe('shortcut:none');
    expect(result.status.shortcut.registered).toBe(false);
  });

  it('turns opening at login on, saying where it is kept, and off', async () => {
    const desktopService = service();
    const on = await desktopService.update({ desktop: { openAtLogin: true } });
    expect(on.desktop.openAtLogin).toBe(true);
    expect(on.status.openAtLogin).toEqual({
      enabled: true,
      detail: '~/.config/autostart/relay-desktop.desktop',
    });
    const off = await desktopService.update({ desktop: { openAtLogin: false } });
    expect(off.desktop.openAtLogin).toBe(false);
    expect(desktop.calls.filter((c) => c.startsWith('login'))).toEqual([
      'login:true',
      'login:false',
    ]);
  });

  it('says why opening at login could not be set, and keeps it off', async () => {
    desktop.loginFails = true;
    await expect(service().update({ desktop: { openAtLogin: true } })).rejects.toThrow(
      'Opening at login could not be turned on: EACCES: permission denied',
    );
    expect((await settings.get()).desktop.openAtLogin).toBe(false);
  });

  it('removes and shows the tray, and saves closing to it', async () => {
    const desktopService = service();
    await desktopService.start();
    const off = await desktopService.update({ desktop: { showTray: false, closeToTray: true } });
    expect(desktop.calls.at(-1)).toBe('tray:false');
    expect(off.status.tray.shown).toBe(false);
    expect(off.desktop).toEqual({ showTray: false, closeToTray: true, openAtLogin: false });
  });
});

describe('links', () => {
  it('waits for the page to take a link, once', () => {
    const desktopService = service();
    desktopService.openLink('relay-desktop://connect?name=Work&baseUrl=https://relay.example.com');
    expect(linkEvents).toBe(1);
    expect(desktopService.takeLink()).toEqual({
      ok: true,
      draft: { name: 'Work', baseUrl: 'https://relay.example.com' },
      notes: [],
    });
    expect(desktopService.takeLink()).toBeNull();
  });

  it('keeps only the latest link', () => {
    const desktopService = service();
    desktopService.openLink('relay-desktop://connect?name=A&baseUrl=https://a.example');
    desktopService.openLink('relay-desktop://nothing');
    expect(desktopService.takeLink()).toMatchObject({ ok: false });
  });
});
