/** What the usage screen asks of main. */
import { requireBridge, type UsageReport } from '../../lib/relay-bridge';
import { runAction, type Outcome } from '../../lib/run-action';

/** The period shown: the last 30 days, today included. */
export const USAGE_DAYS = 30;

/** Tokens and cost per model and per day over the period. */
export function loadUsage(): Promise<Outcome<UsageReport>> {
  return runAction(() => requireBridge().getUsage({ days: USAGE_DAYS }));
}

/** Calls `changed` when another computer changed the prices (sync): the costs are read again. */
export function watchPrices(changed: () => void): () => void {
  return requireBridge().onPricesChanged(() => changed());
}
