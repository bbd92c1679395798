/**
 * How the app fits the desktop: the quick ask shortcut, the tray, closing to the tray, opening at
 * login, and the `relay-desktop://connect` links waiting for the page.
 *
 * A change is applied before it is saved: a shortcut the system refuses, or a login item that
 * cannot be written, is refused with an `AppError` that says so, and the setting stays as it was.
 * The system's side is a `DesktopIntegration` (Electron's globalShortcut, Tray and login items in
 * the app, a recording stand-in in tests).
 */
import type {
  ConnectLink,
  DesktopSettings,
  DesktopStatus,
} from '../../../shared/ipc/routes/desktop';
import type { QuickAskSettings } from '../../../shared/ipc/routes/quick-ask';
import { setFields, type Changes } from '../changes';
import type { SettingsService } from '../settings/settings';
import { AppError } from '../app-error';
import type { LogFields } from '../log-policy';
import { acceleratorLabel, readAccelerator } from './accelerator';
import { readConnectLink } from './connect-link';
import { messageFields, said, type Said } from '../words';

export interface DesktopIntegration {
  /**
   * Registers `accelerator` as the quick ask shortcut in place of the previous one (undefined:
   * none). False when the system refuses it (another app holds it, or it cannot be a global key).
   */
  setShortcut(accelerator: string | undefined): boolean;
  /** Shows or removes the tray icon; the system's reason when it cannot be shown. */
  setTray(shown: boolean): string | undefined;
  /** Adds or removes the app from the login items; resolves with where that is kept. */
  setOpenAtLogin(enabled: boolean): Promise<{ detail?: string }>;
}

export interface DesktopServiceOptions {
  settings: SettingsService;
  /** `process.platform`, for how keys are shown. */
  platform: string;
  integration?: DesktopIntegration;
  /** Tells the page a link is waiting. */
  onLinkOpened?: () => void;
  log?: (event: string, fields: LogFields) => void;
}

export class DesktopService {
  readonly #options: DesktopServiceOptions;
  #shortcut: { accelerator: string; registered: boolean; problem?: Said } | undefined;
  #tray: { shown: boolean; problem?: Said } = { shown: false };
  #login: { detail?: string; problem?: Said } = {};
  #link: ConnectLink | undefined;

  constructor(options: DesktopServiceOptions) {
    this.#options = options;
  }

  /** Applies the saved settings at start: the shortcut, the tray, the login item. */
  async start(): Promise<void> {
    const { quickAsk, desktop } = await this.#options.settings.get();
    this.#applyShortcut(quickAsk);
    this.#applyTray(desktop.showTray);
    if (desktop.openAtLogin) {
      // Written again at each start: the program may have moved (an AppImage, an update).
      await this.#applyLogin(true).catch((error: unknown) => {
        this.#login = {
          problem: said('desktop.openAtLoginAtStart', { detail: errorText(error) }),
        };
      });
    }
  }

  async status(): Promise<DesktopStatus> {
    const { quickAsk, desktop } = await this.#options.settings.get();
    const shortcut = this.#shortcut ?? { accelerator: quickAsk.shortcut, registered: false };
    return {
      shortcut: {
        accelerator: quickAsk.shortcut,
        label: acceleratorLabel(quickAsk.shortcut, this.#options.platform),
        registered: quickAsk.enabled && shortcut.registered,
        ...(quickAsk.enabled && shortcut.problem
          ? { problem: messageFields(shortcut.problem) }
          : {}),
      },
      tray: {
        shown: this.#tray.shown,
        ...(this.#tray.problem ? { problem: messageFields(this.#tray.problem) } : {}),
      },
      openAtLogin: {
        enabled: desktop.openAtLogin,
        ...(this.#login.detail ? { detail: this.#login.detail } : {}),
        ...(this.#login.problem ? { problem: messageFields(this.#login.problem) } : {}),
      },
    };
  }

  /** Applies and saves a change; refused changes leave everything as it was. */
  async update(changes: {
    quickAsk?: Changes<QuickAskSettings> | undefined;
    desktop?: Changes<DesktopSettings> | undefined;
  }): Promise<{ quickAsk: QuickAskSettings; desktop: DesktopSettings; status: DesktopStatus }> {
    const before = await this.#options.settings.get();
    const quickAsk = { ...before.quickAsk, ...setFields(changes.quickAsk ?? {}) };
    const desktop = { ...before.desktop, ...setFields(changes.desktop ?? {}) };

    if (changes.quickAsk?.shortcut !== undefined) {
      const read = readAccelerator(changes.quickAsk.shortcut);
      if (!read.ok) throw new AppError('invalid_request', read.problem);
      quickAsk.shortcut = read.accelerator;
    }
    const shortcutChanged =
      quickAsk.shortcut !== before.quickAsk.shortcut ||
      quickAsk.enabled !== before.quickAsk.enabled;
    if (shortcutChanged && quickAsk.enabled) {
      const integration = this.#options.integration;
      if (integration && !integration.setShortcut(quickAsk.shortcut)) {
        // Put the one that worked back.
        this.#applyShortcut(before.quickAsk);
        throw new AppError(
          'invalid_request',
          refusedShortcutSaid(quickAsk.shortcut, this.#options.platform),
        );
      }
      this.#shortcut = { accelerator: quickAsk.shortcut, registered: true };
    } else if (shortcutChanged) {
      this.#options.integration?.setShortcut(undefined);
      this.#shortcut = { accelerator: quickAsk.shortcut, registered: false };
    }

    if (desktop.openAtLogin !== before.desktop.openAtLogin) {
      try {
        await this.#applyLogin(desktop.openAtLogin);
      } catch (error) {
        if (shortcutChanged) this.#applyShortcut(before.quickAsk);
        throw new AppError(
          'invalid_request',
          said('desktop.openAtLoginFailed', {
            on: desktop.openAtLogin ? 'on' : 'off',
            detail: errorText(error),
          }),
        );
      }
    }
    if (desktop.showTray !== before.desktop.showTray) this.#applyTray(desktop.showTray);

    const saved = await this.#options.settings.update({ quickAsk, desktop });
    this.#options.log?.('desktop.settings', {
      quickAsk: saved.quickAsk.enabled,
      shortcut: saved.quickAsk.shortcut,
      tray: saved.desktop.showTray,
      closeToTray: saved.desktop.closeToTray,
      openAtLogin: saved.desktop.openAtLogin,
    });
    return { quickAsk: saved.quickAsk, desktop: saved.desktop, status: await this.status() };
  }

  /** A `relay-desktop://` link arrived (command line, second instance, `open-url`). */
  openLink(link: string): void {
    this.#link = readConnectLink(link);
    this.#options.log?.('desktop.link', { ok: this.#link.ok });
    this.#options.onLinkOpened?.();
  }

  /** The waiting link, once: the page takes it when it starts and when told one arrived. */
  takeLink(): ConnectLink | null {
    const link = this.#link ?? null;
    this.#link = undefined;
    return link;
  }

  #applyShortcut(quickAsk: QuickAskSettings): void {
    const integration = this.#options.integration;
    if (!quickAsk.enabled) {
      integration?.setShortcut(undefined);
      this.#shortcut = { accelerator: quickAsk.shortcut, registered: false };
      return;
    }
    const read = readAccelerator(quickAsk.shortcut);
    if (!read.ok) {
      integration?.setShortcut(undefined);
      this.#shortcut = { accelerator: quickAsk.shortcut, registered: false, problem: read.problem };
      return;
    }
    const registered = integration ? integration.setShortcut(read.accelerator) : true;
    this.#shortcut = registered
      ? { accelerator: read.accelerator, registered }
      : {
          accelerator: read.accelerator,
          registered,
          problem: refusedShortcutSaid(read.accelerator, this.#options.platform),
        };
  }

  #applyTray(shown: boolean): void {
    const refused = this.#options.integration?.setTray(shown);
    this.#tray =
      refused === undefined
        ? { shown }
        : { shown: false, problem: said('desktop.trayFailed', { detail: refused }) };
  }

  async #applyLogin(enabled: boolean): Promise<void> {
    const result = (await this.#options.integration?.setOpenAtLogin(enabled)) ?? {};
    this.#login = result.detail === undefined ? {} : { detail: result.detail };
  }
}

function refusedShortcutSaid(accelerator: string, platform: string): Said {
  return said('desktop.shortcutRefused', { keys: acceleratorLabel(accelerator, platform) });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
