import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../../electron/main/services/database';
import {
  EMBEDDINGS_MIGRATIONS,
  RunStore,
} from '../../../../electron/main/services/embeddings/run-store';

async function openStore() {
  const db = await openDatabase({ path: ':memory:' });
  await migrate(db, 'embeddings', EMBEDDINGS_MIGRATIONS);
  const store = new RunStore(db);
  store.create({
    id: 'run',
    model: 'demo-embedding',
    createdAt: '2026-11-27T00:00:00.000Z',
    inputs: ['a', 'b', 'c', 'd', 'e'],
  });
  return store;
}

describe('embeddings run store', () => {
  it('counts each input once as its batch is saved, whatever order batches arrive in', async () => {
    const store = await openStore();
    expect(
      store.saveBatch(
        'run',
        [3, 4],
        [
          [1, 0],
          [0, 1],
        ],
        undefined,
      ),
    ).toBe(2);
    expect(
      store.saveBatch(
        'run',
        [0, 1],
        [
          [1, 1],
          [1, 2],
        ],
        undefined,
      ),
    ).toBe(4);
    expect(store.pendingIndexes('run')).toEqual([2]);
    expect(store.saveBatch('run', [2], [[2, 2]], 7)).toBe(5);
    expect(store.get('run')).toMatchObject({ done: 5, total: 5, dimensions: 2, promptTokens: 7 });
  });

  it('does not count an input twice when a batch that was already kept arrives again', async () => {
    const store = await openStore();
    store.saveBatch(
      'run',
      [0, 1],
      [
        [1, 0],
        [0, 1],
      ],
      undefined,
    );
    expect(
      store.saveBatch(
        'run',
        [1, 2],
        [
          [5, 5],
          [2, 2],
        ],
        undefined,
      ),
    ).toBe(3);
    // The vector kept first stays: the same model answered for the same text.
    const second = store.items('run', true, 1, 1)[0]!;
    expect(Array.from(second.vector!)).toEqual([0, 1]);
  });
});
