/**
 * Which of the app's windows an event of the contract goes to: the quick ask window gets its own
 * events and the ones about connections, retries and settings (it follows the language and the
 * theme); the main window gets everything else.
 */
import { EVENTS } from '../../shared/ipc/contract';

export type AppWindowName = 'main' | 'quick';

/** Events for the quick ask window alone. */
const QUICK_ONLY = new Set<string>([EVENTS.quickAskDelta.channel, EVENTS.quickAskShown.channel]);
/** Events both windows follow. */
const BOTH = new Set<string>([
  EVENTS.connectionsChanged.channel,
  EVENTS.retryScheduled.channel,
  EVENTS.settingsChanged.channel,
]);

export function eventWindows(channel: string): readonly AppWindowName[] {
  if (QUICK_ONLY.has(channel)) return ['quick'];
  if (BOTH.has(channel)) return ['main', 'quick'];
  return ['main'];
}
