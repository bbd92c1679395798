/**
 * The desktop around the app: the quick ask global shortcut, the tray icon and its menu, the
 * login item, and the clipboard quick ask may read. What to do is decided in services
 * (`desktop-service.ts`, `tray-menu.ts`, `autostart.ts`); this file only hands it to Electron.
 */
import { join } from 'node:path';
import { app, clipboard, globalShortcut, Menu, nativeImage, nativeTheme, Tray } from 'electron';
import { autostartFolder, setAutostart, type AutostartEntry } from '../services/desktop/autostart';
import type { DesktopIntegration } from '../services/desktop/desktop-service';
import type { ClipboardText } from '../services/quick-ask/quick-ask-service';
import { trayMenuTemplate, type TrayMenuOptions } from '../windows/tray-menu';

export interface DesktopShellOptions {
  /** The folder of the tray images (`resources/tray`). */
  trayIconDir: string;
  /** The quick ask shortcut was pressed. */
  onShortcut(): void;
  /** The tray icon was clicked (Windows and some Linux panels; macOS opens the menu). */
  onTrayClick(): void;
  /** What the tray menu shows and does, read each time it is built. */
  trayMenu(): TrayMenuOptions;
  /** The autostart entry on Linux. */
  autostartEntry(): AutostartEntry;
  /** Arguments a login start gets on Windows. */
  loginArgs: readonly string[];
}

export interface DesktopShell extends DesktopIntegration {
  /** Whether the tray icon is there (closing to the tray needs it). */
  readonly trayShown: boolean;
  /** Builds the tray menu again (the window was shown or hidden, connections changed). */
  refreshTray(): void;
  /** Unregisters the shortcut and removes the tray icon (quitting). */
  dispose(): void;
}

/** The tray image for this system and theme: a template image on macOS, which follows the menu bar. */
function trayImage(dir: string): Electron.NativeImage {
  if (process.platform === 'darwin') {
    // `…Template.png` (and its @2x beside it) is taken as a template image by name.
    return nativeImage.createFromPath(join(dir, 'trayTemplate.png'));
  }
  const variant = nativeTheme.shouldUseDarkColors ? 'tray-dark.png' : 'tray-light.png';
  return nativeImage.createFromPath(join(dir, variant));
}

export function createDesktopShell(options: DesktopShellOptions): DesktopShell {
  let shortcut: string | undefined;
  let tray: Tray | undefined;

  const onThemeChanged = () => tray?.setImage(trayImage(options.trayIconDir));

  function refreshTray(): void {
    if (!tray || tray.isDestroyed()) return;
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(options.trayMenu())));
  }

  return {
    get trayShown() {
      return tray !== undefined && !tray.isDestroyed();
    },

    setShortcut(accelerator) {
      if (shortcut !== undefined) globalShortcut.unregister(shortcut);
      shortcut = undefined;
      if (accelerator === undefined) return true;
      let registered: boolean;
      try {
        registered = globalShortcut.register(accelerator, () => options.onShortcut());
      } catch {
        // An accelerator Electron cannot parse: refused like one another app holds.
        registered = false;
      }
      if (registered) shortcut = accelerator;
      return registered;
    },

    setTray(shown) {
      if (!shown) {
        tray?.destroy();
        tray = undefined;
        nativeTheme.off('updated', onThemeChanged);
        return undefined;
      }
      if (tray && !tray.isDestroyed()) return undefined;
      try {
        tray = new Tray(trayImage(options.trayIconDir));
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      tray.setToolTip(app.name);
      tray.on('click', () => options.onTrayClick());
      nativeTheme.on('updated', onThemeChanged);
      refreshTray();
      return undefined;
    },

    async setOpenAtLogin(enabled) {
      if (process.platform === 'linux') {
        const folder = autostartFolder(process.env, app.getPath('home'));
        await setAutostart(folder, enabled ? options.autostartEntry() : undefined);
        return { detail: join(folder, 'relay-desktop.desktop') };
      }
      app.setLoginItemSettings({ openAtLogin: enabled, args: [...options.loginArgs] });
      return {
        detail:
          process.platform === 'darwin'
            ? 'System Settings → General → Login Items'
            : 'Settings → Apps → Startup',
      };
    },

    refreshTray,

    dispose() {
      if (shortcut !== undefined) globalShortcut.unregister(shortcut);
      shortcut = undefined;
      tray?.destroy();
      tray = undefined;
      nativeTheme.off('updated', onThemeChanged);
    },
  };
}

/**
 * What quick ask may offer as context: on Linux the current selection (the primary selection,
 * the text last highlighted anywhere), else the clipboard; elsewhere the clipboard.
 */
export async function readClipboardText(): Promise<ClipboardText | undefined> {
  if (process.platform === 'linux') {
    const selection = await clipboard.selection.readText();
    if (selection.trim() !== '') return { text: selection, source: 'selection' };
  }
  const text = await clipboard.readText();
  return text.trim() === '' ? undefined : { text, source: 'clipboard' };
}
