import type { MenuItemConstructorOptions } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SHORTCUT_COMMANDS,
  menuAccelerator,
  type ShortcutCommand,
} from '../../../electron/shared/shortcuts';
import { EVENTS } from '../../../electron/shared/ipc/contract';
import { appMenuTemplate, type AppMenuOptions } from '../../../electron/main/windows/app-menu';

type Item = MenuItemConstructorOptions;

function build(platform: string, overrides: Partial<AppMenuOptions> = {}) {
  const runCommand = vi.fn<(id: ShortcutCommand) => void>();
  const openLogsFolder = vi.fn<() => void>();
  const template = appMenuTemplate({
    platform,
    appName: 'Relay Desktop',
    isPackaged: true,
    runCommand,
    openLogsFolder,
    ...overrides,
  });
  return { template, runCommand, openLogsFolder };
}

function submenu(item: Item | undefined): Item[] {
  return Array.isArray(item?.submenu) ? (item.submenu as Item[]) : [];
}

/** Every item of the template, menus and their items, depth first. */
function allItems(template: Item[]): Item[] {
  return template.flatMap((item) => [item, ...allItems(submenu(item))]);
}

function menu(template: Item[], label: string): Item {
  const found = template.find((item) => item.label?.replace('&', '') === label);
  if (!found) throw new Error(`No ${label} menu in ${template.map((m) => m.label).join(', ')}`);
  return found;
}

function click(item: Item | undefined) {
  (item?.click as (() => void) | undefined)?.();
}

const roles = (items: Item[]) => items.map((item) => item.role).filter(Boolean);

describe('the application menu on macOS', () => {
  const { template, runCommand } = build('darwin');

  it('starts with the app menu: About, Settings…, Services, Hide, Quit', () => {
    expect(template.map((m) => m.label)).toEqual([
      'Relay Desktop',
      'File',
      'Edit',
      'View',
      'Window',
      'Help',
    ]);
    const app = submenu(template[0]);
    expect(roles(app)).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    const settings = app.find((item) => item.id === 'openSettings');
    expect(settings).toMatchObject({
      label: 'Settings…',
      accelerator: 'CommandOrControl+,',
      registerAccelerator: false,
    });
    click(settings);
    expect(runCommand).toHaveBeenLastCalledWith('openSettings');
  });

  it('closes the window from File, and keeps Settings and About out of the other menus', () => {
    expect(roles(submenu(menu(template, 'File')))).toEqual(['close']);
    const others = template.slice(1).flatMap((m) => allItems(submenu(m)));
    expect(others.filter((item) => item.id === 'openSettings' || item.role === 'about')).toEqual(
      [],
    );
    expect(roles(submenu(menu(template, 'Edit')))).toContain('pasteAndMatchStyle');
  });
});

describe.each(['win32', 'linux'])('the application menu on %s', (platform) => {
  const { template, runCommand } = build(platform);

  it('has no app menu; File holds New chat, Settings and Quit, Help holds About', () => {
    expect(template.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    const file = submenu(menu(template, 'File'));
    expect(file.map((item) => item.id ?? item.role ?? item.type)).toEqual([
      'newChat',
      'newChatFromPrompt',
      'separator',
      'openSettings',
      'separator',
      'quit',
    ]);
    expect(file.find((item) => item.id === 'openSettings')).toMatchObject({
      label: 'Settings',
      accelerator: 'CommandOrControl+,',
    });
    expect(roles(submenu(menu(template, 'Help')))).toEqual(['about']);
    expect(
      allItems(template).some((item) => item.role === 'hide' || item.role === 'services'),
    ).toBe(false);
    click(file[0]);
    expect(runCommand).toHaveBeenLastCalledWith('newChat');
  });
});

describe.each(['darwin', 'win32', 'linux'])('on %s, every command item', (platform) => {
  const { template, runCommand, openLogsFolder } = build(platform);
  const items = allItems(template);
  const commandItems = items.filter((item) =>
    (SHORTCUT_COMMANDS as readonly string[]).includes(item.id ?? ''),
  );
  // The specs share one menu: each starts with no click counted, whichever ran before it.
  beforeEach(() => {
    runCommand.mockClear();
    openLogsFolder.mockClear();
  });

  it('is in the menu once: every command of the shortcut table has an item', () => {
    const ids = commandItems.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...SHORTCUT_COMMANDS].sort());
  });

  it('shows the table’s keys for this platform and leaves the key to the renderer', () => {
    const table = platform === 'darwin' ? 'mac' : platform === 'win32' ? 'windows' : 'linux';
    for (const item of commandItems) {
      expect(item.accelerator, item.id).toBe(menuAccelerator(item.id ?? '', table));
      expect(item.registerAccelerator, item.id).toBe(false);
    }
    // No two items claim the same keys.
    const keys = items.map((item) => item.accelerator).filter(Boolean);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('asks the renderer to run its own command when chosen', () => {
    for (const item of commandItems) {
      click(item);
      expect(runCommand).toHaveBeenLastCalledWith(item.id);
      // What main then sends the renderer is a valid event of the contract.
      expect(EVENTS.shellCommand.payload.parse({ id: item.id })).toEqual({ id: item.id });
    }
    expect(runCommand).toHaveBeenCalledTimes(commandItems.length);
    expect(openLogsFolder).not.toHaveBeenCalled();
  });

  it('has Help → Keyboard shortcuts and Help → Open logs folder', () => {
    const help = submenu(menu(template, 'Help'));
    const shortcuts = help.find((item) => item.label === 'Keyboard shortcuts');
    expect(shortcuts?.accelerator).toBe('CommandOrControl+/');
    click(shortcuts);
    expect(runCommand).toHaveBeenLastCalledWith('showShortcuts');
    const logs = help.find((item) => item.label === 'Open logs folder');
    click(logs);
    expect(openLogsFolder).toHaveBeenCalledTimes(1);
  });

  it('has the standard Edit, View and Window roles', () => {
    expect(roles(submenu(menu(template, 'Edit')))).toEqual(
      expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
    );
    expect(roles(submenu(menu(template, 'View')))).toEqual([
      'resetZoom',
      'zoomIn',
      'zoomOut',
      'togglefullscreen',
    ]);
    expect(menu(template, 'Window').role).toBe('windowMenu');
  });
});

describe('developer items', () => {
  it('are in the View menu only while developing, never in a packaged app', () => {
    const viewRoles = (isPackaged: boolean) =>
      roles(submenu(menu(build('linux', { isPackaged }).template, 'View')));
    expect(viewRoles(false)).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
    expect(viewRoles(true)).not.toContain('toggleDevTools');
    expect(viewRoles(true)).not.toContain('reload');
  });
});
