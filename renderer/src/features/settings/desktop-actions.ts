/** Quick ask, the tray and opening at login: main applies a change first and says if it cannot. */
import { requireBridge, type DesktopChange, type DesktopStatus } from '../../lib/relay-bridge';
import { useSettingsStore } from './settings-store';

export function loadDesktopStatus(): Promise<DesktopStatus> {
  return requireBridge().getDesktopStatus();
}

/** Applies and saves; resolves with the system's status, rejects with main's reason. */
export async function changeDesktop(change: DesktopChange): Promise<DesktopStatus> {
  const { quickAsk, desktop, status } = await requireBridge().updateDesktop(change);
  const { settings } = useSettingsStore.getState();
  if (settings) useSettingsStore.getState().settingsSaved({ ...settings, quickAsk, desktop });
  return status;
}
