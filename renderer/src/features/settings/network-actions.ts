/** The proxy: checked, saved and applied by main; and which proxy an address would use. */
import { requireBridge, type ProxySettings, type ProxyTestResult } from '../../lib/relay-bridge';
import { useSettingsStore } from './settings-store';

export async function saveProxy(proxy: ProxySettings): Promise<ProxySettings> {
  const saved = await requireBridge().setProxy({ proxy });
  const { settings } = useSettingsStore.getState();
  if (settings) useSettingsStore.getState().settingsSaved({ ...settings, proxy: saved });
  return saved;
}

export function testProxy(url: string): Promise<ProxyTestResult> {
  return requireBridge().testProxy({ url });
}

/** Whether a proxy password is kept in the keychain (main never sends the password itself). */
export async function proxyPasswordKept(): Promise<boolean> {
  return (await requireBridge().proxyPasswordStatus(null)).set;
}

/** Keeps the proxy's password in the keychain; answers whether one is kept. */
export async function saveProxyPassword(password: string): Promise<boolean> {
  return (await requireBridge().setProxyPassword({ password })).set;
}
