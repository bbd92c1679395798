/**
 * Stand-ins for the desktop and the network stack, which only Electron has: they record what the
 * app asked for, and refuse what the test says the system would refuse.
 */
import type { DesktopIntegration } from '../../electron/main/services/desktop/desktop-service';
import type { ProxyStack } from '../../electron/main/services/network/network-service';
import type { SessionProxyConfig } from '../../electron/main/services/network/proxy';

export class RecordingDesktop implements DesktopIntegration {
  readonly calls: string[] = [];
  /** Accelerators another app holds: registering them fails, as `globalShortcut.register` does. */
  readonly taken = new Set<string>();
  loginFails = false;
  /** The system's reason for refusing the tray icon, as `new Tray` throws it; none: it shows. */
  trayFails: string | undefined;

  setShortcut(accelerator: string | undefined): boolean {
    this.calls.push(`shortcut:${accelerator ?? 'none'}`);
    return accelerator === undefined || !this.taken.has(accelerator);
  }

  setTray(shown: boolean): string | undefined {
    this.calls.push(`tray:${shown}`);
    return shown ? this.trayFails : undefined;
  }

  async setOpenAtLogin(enabled: boolean): Promise<{ detail?: string }> {
    this.calls.push(`login:${enabled}`);
    if (this.loginFails) throw new Error('EACCES: permission denied');
    return { detail: '~/.config/autostart/relay-desktop.desktop' };
  }
}

/**
 * Records each proxy given to it and answers `resolveProxy` as Chromium would for a manual
 * proxy: directly for this computer, through the proxy otherwise.
 */
export class RecordingProxyStack implements ProxyStack {
  readonly applied: SessionProxyConfig[] = [];

  async setProxy(config: SessionProxyConfig): Promise<void> {
    this.applied.push(config);
  }

  async resolveProxy(url: string): Promise<string> {
    const config = this.applied.at(-1);
    if (config?.mode !== 'fixed_servers') return 'DIRECT';
    const host = new URL(url).hostname;
    const bypass = config.proxyBypassRules.split(',');
    if (bypass.includes(host) || bypass.includes(`[${host}]`)) return 'DIRECT';
    const proxy = new URL(config.proxyRules);
    const kind =
      proxy.protocol === 'socks5:' ? 'SOCKS5' : proxy.protocol === 'https:' ? 'HTTPS' : 'PROXY';
    return `${kind} ${proxy.host}`;
  }
}
