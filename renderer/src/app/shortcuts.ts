/**
 * The app's keyboard shortcuts in the window: one keydown listener that turns key presses into
 * commands of the shared table, and the same commands when the application menu asks for them.
 */
import { useEffect, useRef } from 'react';
import {
  matchShortcut,
  shortcutPlatform,
  type ShortcutCommand,
  type ShortcutPlatform,
} from '../../../electron/shared/shortcuts';
import { relayBridge } from '../lib/relay-bridge';

/** The platform the window runs on, from the browser's own report (no Node in the renderer). */
export function currentPlatform(): ShortcutPlatform {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return shortcutPlatform(nav.userAgentData?.platform || nav.platform);
}

const NOT_TYPING = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** Where a printable key types text rather than asks for a command. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NOT_TYPING.has(target.type);
}

/**
 * Runs `run` for every shortcut pressed in the window and every command the menu sends.
 *
 * While a modal dialog is open, keys belong to it: Escape closes it rather than stopping a reply,
 * and nothing changes behind it. Only the shortcut sheet's own key still works there, to close it.
 */
export function useShortcutCommands(
  run: (command: ShortcutCommand, source: 'keyboard' | 'menu') => void,
) {
  const latest = useRef(run);
  useEffect(() => {
    latest.current = run;
  });

  useEffect(() => {
    const platform = currentPlatform();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const command = matchShortcut(event, platform, { inTextField: isTextField(event.target) });
      if (!command) return;
      const modal = document.querySelector('dialog[open]');
      if (modal && !(command === 'showShortcuts' && modal.matches('.shortcut-sheet'))) return;
      // Handled here, so the menu's accelerator for the same key does not run it a second time.
      event.preventDefault();
      latest.current(command, 'keyboard');
    };
    window.addEventListener('keydown', onKeyDown);
    const stopListening = relayBridge()?.onShellCommand(({ id }) => latest.current(id, 'menu'));
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      stopListening?.();
    };
  }, []);
}

/**
 * Focuses the first element matching `selector` once it is on the page (a screen that was just
 * switched to renders it a moment later); gives up after `timeoutMs`.
 */
export function focusWhenShown(selector: string, timeoutMs = 3000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve) => {
    const attempt = () => {
      const element = document.querySelector<HTMLElement>(selector);
      if (element) {
        element.focus();
        resolve(true);
      } else if (performance.now() > deadline) {
        resolve(false);
      } else {
        requestAnimationFrame(attempt);
      }
    };
    // After the frame in which the new screen takes focus for itself.
    requestAnimationFrame(attempt);
  });
}
