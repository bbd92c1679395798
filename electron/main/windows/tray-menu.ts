/**
 * The tray icon's menu, as a template: plain data, tested without Electron; `platform/tray.ts`
 * passes it to `Menu.buildFromTemplate`.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { nativeText } from '../services/words';

export interface TrayConnection {
  id: string;
  name: string;
  active: boolean;
  isDemo: boolean;
}

export interface TrayMenuOptions {
  /** Whether the main window is showing (the item then hides it). */
  windowVisible: boolean;
  /** The quick ask shortcut as this system shows it, when it is registered. */
  quickAskKeys?: string | undefined;
  connections: readonly TrayConnection[];
  newChat(): void;
  quickAsk(): void;
  toggleWindow(): void;
  selectConnection(id: string): void;
  quit(): void;
}

/** Menus stay short: past this many connections, the rest are in the app's Connections screen. */
export const TRAY_CONNECTIONS = 10;

/** The tray's menu in main's language now: it is built again at every change, a language's too. */
export function trayMenuTemplate(options: TrayMenuOptions): MenuItemConstructorOptions[] {
  const active = options.connections.find((c) => c.active);
  const label = (c: TrayConnection) =>
    c.isDemo ? nativeText('tray.demoConnection', { name: c.name }) : c.name;
  const shown = options.connections.slice(0, TRAY_CONNECTIONS);
  const connection: MenuItemConstructorOptions =
    options.connections.length === 0
      ? { id: 'connection', label: nativeText('tray.noConnection'), enabled: false }
      : {
          id: 'connection',
          label: active
            ? nativeText('tray.connection', { name: label(active) })
            : nativeText('tray.connectionNone'),
          submenu: shown.map((c) => ({
            id: `connection:${c.id}`,
            label: label(c),
            type: 'radio',
            checked: c.active,
            click: () => options.selectConnection(c.id),
          })),
        };
  return [
    { id: 'newChat', label: nativeText('tray.newChat'), click: () => options.newChat() },
    {
      id: 'quickAsk',
      label: options.quickAskKeys
        ? nativeText('tray.quickAskKeys', { keys: options.quickAskKeys })
        : nativeText('tray.quickAsk'),
      click: () => options.quickAsk(),
    },
    {
      id: 'toggleWindow',
      label: options.windowVisible ? nativeText('tray.hideWindow') : nativeText('tray.showWindow'),
      click: () => options.toggleWindow(),
    },
    { type: 'separator' },
    connection,
    { type: 'separator' },
    { id: 'quit', label: nativeText('tray.quit'), click: () => options.quit() },
  ];
}
