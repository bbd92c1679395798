/**
 * The tray icon's menu, as a template: plain data, tested without Electron; `platform/tray.ts`
 * passes it to `Menu.buildFromTemplate`.
 */
import type { MenuItemConstructorOptions } from 'electron';

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

export function trayMenuTemplate(options: TrayMenuOptions): MenuItemConstructorOptions[] {
  const active = options.connections.find((c) => c.active);
  const label = (c: TrayConnection) => (c.isDemo ? `${c.name} (demo)` : c.name);
  const shown = options.connections.slice(0, TRAY_CONNECTIONS);
  const connection: MenuItemConstructorOptions =
    options.connections.length === 0
      ? { id: 'connection', label: 'No connection yet', enabled: false }
      : {
          id: 'connection',
          label: active ? `Connection: ${label(active)}` : 'Connection: none in use',
          submenu: shown.map((c) => ({
            id: `connection:${c.id}`,
            label: label(c),
            type: 'radio',
            checked: c.active,
            click: () => options.selectConnection(c.id),
          })),
        };
  return [
    { id: 'newChat', label: 'New chat', click: () => options.newChat() },
    {
      id: 'quickAsk',
      label: options.quickAskKeys ? `Quick ask (${options.quickAskKeys})` : 'Quick ask',
      click: () => options.quickAsk(),
    },
    {
      id: 'toggleWindow',
      label: options.windowVisible ? 'Hide Relay Desktop' : 'Show Relay Desktop',
      click: () => options.toggleWindow(),
    },
    { type: 'separator' },
    connection,
    { type: 'separator' },
    { id: 'quit', label: 'Quit Relay Desktop', click: () => options.quit() },
  ];
}
