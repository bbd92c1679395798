/** What the app's shell and the quick ask window ask of main, and what they follow from it. */
import { loadSettings } from '../features/settings/settings-actions';
import { useSettingsStore } from '../features/settings/settings-store';
import { relayBridge, type ConnectLink } from '../lib/relay-bridge';

/** Whether the page runs inside Relay Desktop (false in a plain browser). */
export function runsInsideApp(): boolean {
  return relayBridge() !== undefined;
}

/** The app's version, as the preload gives it (undefined outside the app). */
export function appVersion(): string | undefined {
  return relayBridge()?.appVersion;
}

/**
 * Connect links (those opened before the window was up wait in main; later ones are announced)
 * and quick asks continued in this window. Returns the unsubscribe.
 */
export function watchAppLinks(handlers: {
  onLink(link: ConnectLink): void;
  onConversation(conversationId: string): void;
}): () => void {
  const bridge = relayBridge();
  if (!bridge) return () => undefined;
  const take = () =>
    bridge.takeConnectLink().then(
      (taken) => {
        if (taken) handlers.onLink(taken);
      },
      () => undefined,
    );
  void take();
  const stops = [
    bridge.onConnectLinkOpened(() => void take()),
    bridge.onOpenConversation(({ conversationId }) => handlers.onConversation(conversationId)),
  ];
  return () => stops.forEach((stop) => stop());
}

/**
 * The quick ask window's settings: read now and each time it is shown (they may have changed in
 * the main window while it was hidden), and followed while it is open (main sends every saved
 * change to both windows). Returns the unsubscribe.
 */
export function watchQuickWindowSettings(): () => void {
  const bridge = relayBridge();
  if (!bridge) return () => undefined;
  void loadSettings();
  const stops = [
    bridge.onQuickAskShown(() => void loadSettings()),
    bridge.onSettingsChanged((settings) => useSettingsStore.getState().settingsSaved(settings)),
  ];
  return () => stops.forEach((stop) => stop());
}
