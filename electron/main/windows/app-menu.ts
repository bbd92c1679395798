/**
 * The application menu, as a template: plain data built from the shortcut table, so it is tested
 * without Electron and `index.ts` only passes it to `Menu.buildFromTemplate`.
 *
 * Items that run an app command show the command's keys from `shared/shortcuts.ts` with
 * `registerAccelerator: false`: the renderer already handles those keys in the window, so a key
 * never fires twice; choosing the item asks the renderer to run the same command.
 */
import type { MenuItemConstructorOptions } from 'electron';
import {
  menuAccelerator,
  shortcutById,
  shortcutPlatform,
  type ShortcutCommand,
} from '../../shared/shortcuts';

export interface AppMenuOptions {
  /** `process.platform`. */
  platform: string;
  /** The product name, for the macOS app menu. */
  appName: string;
  /** A packaged app has no reload or developer tools in its menu. */
  isPackaged: boolean;
  /** Asks the renderer to run a command of the shortcut table. */
  runCommand(id: ShortcutCommand): void;
  /** Opens the folder of the support log in the file manager. */
  openLogsFolder(): void;
}

export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const platform = shortcutPlatform(options.platform);
  const mac = platform === 'mac';
  const separator: MenuItemConstructorOptions = { type: 'separator' };

  /** A menu item for a command of the table: its label and keys, shown but not registered. */
  function command(id: ShortcutCommand, label?: string): MenuItemConstructorOptions {
    const accelerator = menuAccelerator(id, platform);
    return {
      id,
      label: label ?? shortcutById(id)?.label ?? id,
      ...(accelerator ? { accelerator, registerAccelerator: false } : {}),
      click: () => options.runCommand(id),
    };
  }

  const settings = command('openSettings', mac ? 'Settings…' : 'Settings');

  const appMenu: MenuItemConstructorOptions = {
    label: options.appName,
    submenu: [
      { role: 'about' },
      separator,
      settings,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };

  const fileMenu: MenuItemConstructorOptions = {
    label: mac ? 'File' : '&File',
    submenu: mac
      ? [
          command('newChat'),
          command('newChatFromPrompt', 'New chat from a prompt…'),
          separator,
          { role: 'close' },
        ]
      : [
          command('newChat'),
          command('newChatFromPrompt', 'New chat from a prompt…'),
          separator,
          settings,
          separator,
          { role: 'quit' },
        ],
  };

  const editMenu: MenuItemConstructorOptions = {
    label: mac ? 'Edit' : '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { role: 'selectAll' },
      separator,
      command('searchConversations', 'Search conversations…'),
      command('stopGenerating'),
    ],
  };

  const viewMenu: MenuItemConstructorOptions = {
    label: mac ? 'View' : '&View',
    submenu: [
      command('showChat', 'Chat'),
      command('showEmbeddings', 'Embeddings'),
      command('showImages', 'Images'),
      separator,
      command('toggleConversations', 'Conversation list'),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
      ...(options.isPackaged
        ? []
        : [separator, { role: 'reload' } as const, { role: 'toggleDevTools' } as const]),
    ],
  };

  const windowMenu: MenuItemConstructorOptions = {
    label: mac ? 'Window' : '&Window',
    role: 'windowMenu',
  };

  const helpMenu: MenuItemConstructorOptions = {
    label: mac ? 'Help' : '&Help',
    role: 'help',
    submenu: [
      command('showShortcuts'),
      { id: 'openLogsFolder', label: 'Open logs folder', click: () => options.openLogsFolder() },
      ...(mac ? [] : [separator, { role: 'about' } as const]),
    ],
  };

  return mac
    ? [appMenu, fileMenu, editMenu, viewMenu, windowMenu, helpMenu]
    : [fileMenu, editMenu, viewMenu, windowMenu, helpMenu];
}
