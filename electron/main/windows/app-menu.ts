/**
 * The application menu, as a template: plain data built from the shortcut table, so it is tested
 * without Electron and `index.ts` only passes it to `Menu.buildFromTemplate`.
 *
 * Items that run an app command show the command's keys from `shared/shortcuts.ts` with
 * `registerAccelerator: false`: the renderer already handles those keys in the window, so a key
 * never fires twice; choosing the item asks the renderer to run the same command.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { NativeMessageKey } from '../../shared/messages/keys';
import { menuAccelerator, shortcutPlatform, type ShortcutCommand } from '../../shared/shortcuts';
import { nativeText } from '../services/words';

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

/**
 * The application menu in main's language now (`services/words.ts`); `index.ts` builds it again
 * when the language changes.
 */
export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const platform = shortcutPlatform(options.platform);
  const mac = platform === 'mac';
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  const appName = options.appName;

  /**
   * A menu's title: with its access key (`&File`, `ファイル(&F)`) on Windows and Linux, without on
   * macOS, which has none.
   */
  const title = (key: NativeMessageKey) =>
    mac
      ? nativeText(key)
          .replace(/\s*\(&\w\)/, '')
          .replace(/&/g, '')
      : nativeText(key);

  /** A menu item for a command of the table: its label and keys, shown but not registered. */
  function command(id: ShortcutCommand, label: NativeMessageKey): MenuItemConstructorOptions {
    const accelerator = menuAccelerator(id, platform);
    return {
      id,
      label: nativeText(label),
      ...(accelerator ? { accelerator, registerAccelerator: false } : {}),
      click: () => options.runCommand(id),
    };
  }

  /** A standard item Electron runs itself, labelled in the app's language. */
  const role = (
    name: NonNullable<MenuItemConstructorOptions['role']>,
    label: NativeMessageKey,
  ): MenuItemConstructorOptions => ({ role: name, label: nativeText(label, { appName }) });

  const settings = command('openSettings', mac ? 'menu.settings.mac' : 'menu.settings');

  const appMenu: MenuItemConstructorOptions = {
    label: options.appName,
    submenu: [
      role('about', 'menu.about'),
      separator,
      settings,
      separator,
      role('services', 'menu.services'),
      separator,
      role('hide', 'menu.hide'),
      role('hideOthers', 'menu.hideOthers'),
      role('unhide', 'menu.unhide'),
      separator,
      role('quit', 'menu.quit.mac'),
    ],
  };

  const fileMenu: MenuItemConstructorOptions = {
    label: title('menu.file'),
    submenu: mac
      ? [
          command('newChat', 'menu.newChat'),
          command('newChatFromPrompt', 'menu.newChatFromPrompt'),
          separator,
          role('close', 'menu.closeWindow'),
        ]
      : [
          command('newChat', 'menu.newChat'),
          command('newChatFromPrompt', 'menu.newChatFromPrompt'),
          separator,
          settings,
          separator,
          role('quit', platform === 'windows' ? 'menu.exit' : 'menu.quit'),
        ],
  };

  const editMenu: MenuItemConstructorOptions = {
    label: title('menu.edit'),
    submenu: [
      role('undo', 'menu.undo'),
      role('redo', 'menu.redo'),
      separator,
      role('cut', 'menu.cut'),
      role('copy', 'menu.copy'),
      role('paste', 'menu.paste'),
      ...(mac ? [role('pasteAndMatchStyle', 'menu.pasteAndMatchStyle')] : []),
      role('delete', 'menu.delete'),
      role('selectAll', 'menu.selectAll'),
      separator,
      command('searchConversations', 'menu.searchConversations'),
      command('stopGenerating', 'menu.stopGenerating'),
    ],
  };

  const viewMenu: MenuItemConstructorOptions = {
    label: title('menu.view'),
    submenu: [
      command('showChat', 'menu.showChat'),
      command('showPrompts', 'menu.showPrompts'),
      command('showKnowledge', 'menu.showKnowledge'),
      command('showModels', 'menu.showModels'),
      command('showEmbeddings', 'menu.showEmbeddings'),
      command('showImages', 'menu.showImages'),
      command('showTools', 'menu.showTools'),
      command('showUsage', 'menu.showUsage'),
      command('showConnections', 'menu.showConnections'),
      separator,
      command('toggleConversations', 'menu.toggleConversations'),
      command('focusNotice', 'menu.focusNotice'),
      separator,
      role('resetZoom', 'menu.resetZoom'),
      role('zoomIn', 'menu.zoomIn'),
      role('zoomOut', 'menu.zoomOut'),
      separator,
      role('togglefullscreen', 'menu.toggleFullScreen'),
      ...(options.isPackaged
        ? []
        : [
            separator,
            role('reload', 'menu.reload'),
            role('toggleDevTools', 'menu.toggleDevTools'),
          ]),
    ],
  };

  const windowMenu: MenuItemConstructorOptions = {
    label: title('menu.window'),
    role: 'windowMenu',
    // Given in full so its items speak the app's language (Electron's own are in English).
    submenu: mac
      ? [
          role('minimize', 'menu.minimize'),
          role('zoom', 'menu.zoom'),
          separator,
          role('front', 'menu.front'),
        ]
      : [role('minimize', 'menu.minimize'), role('close', 'menu.closeWindow')],
  };

  const helpMenu: MenuItemConstructorOptions = {
    label: title('menu.help'),
    role: 'help',
    submenu: [
      command('showShortcuts', 'menu.showShortcuts'),
      {
        id: 'openLogsFolder',
        label: nativeText('menu.openLogsFolder'),
        click: () => options.openLogsFolder(),
      },
      ...(mac ? [] : [separator, role('about', 'menu.about')]),
    ],
  };

  return mac
    ? [appMenu, fileMenu, editMenu, viewMenu, windowMenu, helpMenu]
    : [fileMenu, editMenu, viewMenu, windowMenu, helpMenu];
}
