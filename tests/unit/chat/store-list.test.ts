/**
 * The conversation list in pages: keyset pages along one index, in the list's order to the last
 * tie, adding up to the whole list whatever the page size.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ChatStore } from '../../../electron/main/services/chat/store';
import { openDatabase, type Db } from '../../../electron/main/services/database';

let dir: string;
let db: Db;
let store: ChatStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-chat-list-'));
  db = await openDatabase({ path: join(dir, 'chat.db') });
  store = await ChatStore.open(db);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

it('pages through the list in its order, ties and pins included, to exactly the whole list', () => {
  for (let i = 0; i < 57; i++) {
    // Many share a time (imports do), so the id decides between them.
    const at = new Date(Date.parse('2026-01-01T00:00:00Z') + (i % 9) * 60_000).toISOString();
    store.create({ title: `c${i}`, createdAt: at, updatedAt: at, pinned: i % 11 === 0 });
  }
  const whole = store.list();
  expect(whole).toHaveLength(57);
  expect(whole.slice(0, 6).every((c) => c.pinned)).toBe(true);
  for (const size of [1, 5, 10, 56, 57, 100]) {
    const paged = [];
    let after;
    for (;;) {
      const page = store.list({ limit: size, ...(after ? { after } : {}) });
      paged.push(...page);
      const last = page.at(-1);
      if (page.length < size || !last) break;
      after = { pinned: last.pinned, updatedAt: last.updatedAt, id: last.id };
    }
    expect(paged.map((c) => c.id)).toEqual(whole.map((c) => c.id));
  }
});

it('reads a page along the index, without sorting the whole table', () => {
  const plan = db
    .all<{ detail: string }>(
      `EXPLAIN QUERY PLAN SELECT id FROM chat_conversations c WHERE c.deleted_at IS NULL
        AND (c.pinned, c.updated_at, c.id) < (?, ?, ?)
        ORDER BY c.pinned DESC, c.updated_at DESC, c.id DESC LIMIT 200`,
      [0, '2026-01-01', 'x'],
    )
    .map((row) => row.detail)
    .join('\n');
  expect(plan).toContain('chat_conversations_by_activity');
  expect(plan).not.toContain('TEMP B-TREE');
});

/** The whole list read in pages of `size`, each after the last of the page before. */
function pagedIds(size: number): string[] {
  const ids: string[] = [];
  let after;
  for (;;) {
    const page = store.list({ limit: size, ...(after ? { after } : {}) });
    ids.push(...page.map((c) => c.id));
    const last = page.at(-1);
    if (page.length < size || !last) return ids;
    after = { pinned: last.pinned, updatedAt: last.updatedAt, id: last.id };
  }
}

it('pins and unpins: the conversation moves to the pinned part and back, its activity kept', () => {
  const made = Array.from({ length: 12 }, (_, i) => {
    const at = new Date(Date.parse('2026-02-01T00:00:00Z') + i * 60_000).toISOString();
    return store.create({ title: `c${i}`, createdAt: at, updatedAt: at });
  });
  const oldest = made[0]!;
  const pinned = store.update(oldest.id, { pinned: true });
  expect(pinned).toMatchObject({ id: oldest.id, pinned: true, updatedAt: oldest.updatedAt });
  store.update(made[5]!.id, { pinned: true });
  const whole = store.list();
  // Pinned first, newest activity first among them; then the rest, newest first.
  expect(whole.map((c) => c.title)).toEqual([
    'c5',
    'c0',
    ...made
      .map((c) => c.title)
      .filter((t) => t !== 'c0' && t !== 'c5')
      .reverse(),
  ]);
  for (const size of [1, 2, 3, 7]) expect(pagedIds(size)).toEqual(whole.map((c) => c.id));

  expect(store.update(oldest.id, { pinned: false })).toMatchObject({ pinned: false });
  expect(store.list().map((c) => c.title)).toEqual([
    'c5',
    ...made
      .map((c) => c.title)
      .filter((t) => t !== 'c5')
      .reverse(),
  ]);
  // A pin survives a reopening of the store (it is in the row, not in memory).
  expect(new ChatStore(db).get(made[5]!.id)?.pinned).toBe(true);
});

it('does not pin a deleted or unknown conversation', () => {
  const gone = store.create({ title: 'gone' });
  expect(store.softDelete(gone.id)).toBe(true);
  expect(store.update(gone.id, { pinned: true })).toBeUndefined();
  expect(store.update('no-such-id', { pinned: true })).toBeUndefined();
  // Restored, it comes back unpinned, as it was.
  expect(store.restore(gone.id)).toMatchObject({ pinned: false });
});
