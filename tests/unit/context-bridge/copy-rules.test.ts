/**
 * Electron's contextBridge copy rules, as the test harness applies them between two JavaScript
 * realms in Node (`tests/harness/context-bridge/vm-realms.ts`): every case of the type table
 * (`type-table.ts`), the same cases the e2e suite checks between the two worlds of a Chromium
 * page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TABLE_CASES,
  TABLE_PRELOAD,
  caseExpression,
  tableMain,
} from '../../harness/context-bridge/type-table';
import {
  bridgeRealms,
  bundleVmWorld,
  type RealmPair,
} from '../../harness/context-bridge/vm-realms';

let runtime: string;

beforeAll(async () => {
  runtime = await bundleVmWorld();
});

function realms(): RealmPair {
  const target: { pair?: RealmPair } = {};
  const main = tableMain((channel, payload) => target.pair?.deliver(channel, payload));
  target.pair = bridgeRealms({ runtime, preload: TABLE_PRELOAD, main });
  return target.pair;
}

describe('the context bridge between two realms', () => {
  it('loads the preload without an error, and the page sees only what it exposed', () => {
    const pair = realms();
    expect(pair.preloadErrors).toEqual([]);
    expect(
      pair.inPage<string>(
        'JSON.stringify(Object.keys(globalThis).filter((k) => ["api", "exposedTwice", "loneFunction", "require", "process", "ipcRenderer"].includes(k)))',
      ),
    ).toBe(JSON.stringify(['api', 'exposedTwice', 'loneFunction']));
  });

  it.each(TABLE_CASES)('$name', async ({ code, expected }) => {
    const pair = realms();
    const seen = await pair.inPage<Promise<string>>(caseExpression(code));
    expect(JSON.parse(seen)).toEqual(expected);
  });
});
