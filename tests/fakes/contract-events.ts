/**
 * Events as the page receives them: every event main sends must be one of the contract's, with a
 * payload its schema takes. Tests that record events check each one here.
 */
import { EVENTS } from '../../electron/shared/ipc/contract';
import type { SendEvent } from '../../electron/shared/ipc/define';

const BY_CHANNEL = new Map(Object.values(EVENTS).map((spec) => [spec.channel, spec]));

/** Why an event does not fit the contract, or undefined when it does. */
export function eventMisfit(channel: string, payload: unknown): string | undefined {
  const spec = BY_CHANNEL.get(channel);
  if (!spec) return `${channel}: not an event of the contract`;
  const parsed = spec.payload.safeParse(payload);
  return parsed.success ? undefined : `${channel}: ${parsed.error.message}`;
}

/** A `send` for `createAppServices` that refuses an event the contract does not allow, then records it. */
export function checkedEvents(record: SendEvent): SendEvent {
  return (channel, payload) => {
    const misfit = eventMisfit(channel, payload);
    if (misfit !== undefined)
      throw new Error(`Main sent an event that breaks the contract: ${misfit}`);
    record(channel, payload);
  };
}
