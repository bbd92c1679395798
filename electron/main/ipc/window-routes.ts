/**
 * Which routes each of the app's windows may call. The main window is the app: every route. The
 * quick ask window asks one question and shows the reply (model output, rendered), so it gets
 * what that needs and nothing else: a script that got into its page cannot reach connections,
 * files, the proxy, backups or the settings it does not read.
 */
import type { Routes } from '../../shared/ipc/contract';
import type { IpcSender } from './router';

/** The routes of the quick ask window's page (`renderer/src/quick-main.tsx`). */
export const QUICK_WINDOW_ROUTES: ReadonlySet<keyof Routes> = new Set<keyof Routes>([
  // Its own.
  'getQuickAsk',
  'askQuick',
  'stopQuickAsk',
  'continueQuickAsk',
  'hideQuickAsk',
  // The language and theme it follows, and copying a reply or a code block.
  'getAppInfo',
  'getSettings',
  'copyText',
]);

/**
 * The rule the router applies after its sender check: a sender in one of the quick ask
 * window's contents may call its routes only; any other trusted sender (the main window) all.
 */
export function windowRoutes(
  quickWindowIds: () => readonly number[],
): (sender: IpcSender, route: string) => boolean {
  return (sender, route) =>
    !quickWindowIds().includes(sender.webContentsId) ||
    QUICK_WINDOW_ROUTES.has(route as keyof Routes);
}
