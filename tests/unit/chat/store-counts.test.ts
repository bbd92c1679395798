/**
 * Each conversation's message count and token sums are kept in its row (by triggers), not worked
 * out from every message at each listing: they must stay exactly what the messages say through
 * every write the app makes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ChatStore, type NewMessage } from '../../../electron/main/services/chat/store';
import { openDatabase, type Db } from '../../../electron/main/services/database';

let dir: string;
let db: Db;
let store: ChatStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-chat-counts-'));
  db = await openDatabase({ path: join(dir, 'chat.db') });
  store = await ChatStore.open(db);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

/** What the messages themselves say, counted the slow way. */
function countedFromMessages(id: string) {
  // Every message of every branch: each was written (and its reply paid for).
  const messages = store.allMessages(id);
  const sum = (pick: (u: NonNullable<(typeof messages)[number]['usage']>) => number | undefined) =>
    messages.reduce((total, m) => total + (m.usage ? (pick(m.usage) ?? 0) : 0), 0);
  return {
    messageCount: messages.length,
    usage: {
      promptTokens: sum((u) => u.promptTokens),
      completionTokens: sum((u) => u.completionTokens),
      totalTokens: sum((u) => u.totalTokens),
    },
  };
}

function kept(id: string) {
  const summary = store.get(id)!;
  const listed = store.list().find((c) => c.id === id)!;
  expect(listed).toEqual(summary);
  return { messageCount: summary.messageCount, usage: summary.usage };
}

const exchange = (n: number, tokens = 10): NewMessage[] =>
  Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? { role: 'user', content: `question ${i}`, status: 'complete' }
      : {
          role: 'assistant',
          content: `answer ${i}`,
          status: 'complete',
          usage: { promptTokens: tokens, completionTokens: 2 * tokens, totalTokens: 3 * tokens },
        },
  );

it('keeps counts and sums in step through appends, replies, edits, deletions and restores', () => {
  const a = store.create({ title: 'a' }).id;
  const b = store.create({ title: 'b' }).id;
  expect(kept(a)).toEqual({
    messageCount: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  });

  store.append(a, exchange(6));
  store.append(b, exchange(4, 7));
  expect(kept(a)).toEqual(countedFromMessages(a));
  expect(kept(a).usage.totalTokens).toBe(90);
  expect(kept(b)).toEqual(countedFromMessages(b));

  // A reply streamed, then saved with its usage; then another version beside it (regenerate).
  const [reply] = store.append(a, [{ role: 'assistant', content: '', status: 'streaming' }]);
  expect(kept(a)).toEqual(countedFromMessages(a));
  store.saveReply(reply!.id, {
    content: 'done',
    status: 'complete',
    usage: { promptTokens: 5, completionTokens: 6, totalTokens: 11 },
  });
  expect(kept(a)).toEqual(countedFromMessages(a));
  expect(kept(a).usage.totalTokens).toBe(101);
  // A new version beside it (a regenerate): counted too, nothing dropped.
  store.addChildren(a, reply!.parentId, [
    {
      role: 'assistant',
      content: 'again',
      status: 'complete',
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
    },
  ]);
  expect(kept(a)).toEqual(countedFromMessages(a));
  expect(kept(a).messageCount).toBe(8);
  // A branch forked off has its own counts; the conversation it came from keeps its own.
  const { conversation: forked } = store.fork(reply!.id);
  expect(kept(forked.id)).toEqual(countedFromMessages(forked.id));
  expect(kept(forked.id).messageCount).toBe(7);
  expect(kept(a)).toEqual(countedFromMessages(a));

  // Deleted to the bin and back: the same counts.
  const before = kept(b);
  store.softDelete(b);
  expect(store.get(b)).toBeUndefined();
  store.restore(b);
  expect(kept(b)).toEqual(before);
  expect(kept(b)).toEqual(countedFromMessages(b));
});

it('leaves other conversations alone and forgets a conversation deleted for good', () => {
  const a = store.create({ title: 'a' }).id;
  const b = store.create({ title: 'b' }).id;
  store.append(a, exchange(4));
  store.append(b, exchange(2));
  db.run('DELETE FROM chat_conversations WHERE id = ?', [a]);
  expect(kept(b)).toEqual(countedFromMessages(b));
  expect(db.one('SELECT count(*) AS n FROM chat_messages WHERE conversation_id = ?', [a])).toEqual({
    n: 0,
  });
});
