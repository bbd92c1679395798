import { randomBytes } from 'node:crypto';
import { startDemoRelay, type DemoRelay } from '../../../electron/demo-relay/index';

/** A key no other spec uses, distinctive enough that any fragment of it is easy to find. */
export function newKey(): string {
  return `sk-e2e-${randomBytes(16).toString('hex')}`;
}

/** A demo relay for one spec file, with keys the spec knows, streaming without pacing. */
export function startRelay(keys: string[]): Promise<DemoRelay> {
  return startDemoRelay({ keys, tokensPerSecond: 0 });
}
