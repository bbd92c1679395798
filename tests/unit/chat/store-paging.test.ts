/**
 * Paging a conversation's shown path from its end (what the chat view opens with), older pages
 * before a message, and a page stretched back to a search hit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatStore, type NewMessage } from '../../../electron/main/services/chat/store';
import { openDatabase, type Db } from '../../../electron/main/services/database';

let dir: string;
let db: Db;
let store: ChatStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-chat-paging-'));
  db = await openDatabase({ path: join(dir, 'chat.db') });
  store = await ChatStore.open(db);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

function seeded(count: number): string {
  const conversation = store.create({ title: `${count} messages` });
  if (count > 0)
    store.append(
      conversation.id,
      Array.from({ length: count }, (_, i): NewMessage => ({
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: `message ${i}`,
        status: 'complete',
      })),
    );
  return conversation.id;
}

/** The id of the message written `seq`-th in a conversation. */
const at = (conversationId: string, seq: number) => store.allMessages(conversationId)[seq]!.id;
const seqs = (page: { messages: { seq: number }[] }) => page.messages.map((m) => m.seq);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('paging messages', () => {
  it('an empty conversation is one empty page with nothing older', () => {
    const id = seeded(0);
    expect(store.path(id, { limit: 50 })).toEqual({ messages: [], hasOlder: false });
    expect(store.path(id, { limit: 50, fromId: 'nothing' })).toEqual({
      messages: [],
      hasOlder: false,
    });
  });

  it('exactly one page: all of it, and nothing older', () => {
    const id = seeded(50);
    const page = store.path(id, { limit: 50 });
    expect(seqs(page)).toEqual(range(0, 50));
    expect(page.hasOlder).toBe(false);
  });

  it('one more than a page: the newest page, and one older message left', () => {
    const id = seeded(51);
    const page = store.path(id, { limit: 50 });
    expect(seqs(page)).toEqual(range(1, 51));
    expect(page.hasOlder).toBe(true);
    const older = store.path(id, { limit: 50, beforeId: page.messages[0]!.id });
    expect(seqs(older)).toEqual([0]);
    expect(older.hasOlder).toBe(false);
  });

  it('walks back page by page with no gap and no duplicate', () => {
    const id = seeded(237);
    const seen: number[] = [];
    let page = store.path(id, { limit: 50 });
    seen.unshift(...seqs(page));
    while (page.hasOlder) {
      page = store.path(id, { limit: 50, beforeId: page.messages[0]!.id });
      seen.unshift(...seqs(page));
    }
    expect(seen).toEqual(range(0, 237));
  });

  it('stretches a page back to a hit in the oldest message', () => {
    const id = seeded(300);
    const page = store.path(id, { limit: 50, fromId: at(id, 0) });
    expect(seqs(page)).toEqual(range(0, 300));
    expect(page.hasOlder).toBe(false);
    expect(page.messages[0]!.content).toBe('message 0');
  });

  it('stretches an older page back to a hit and a few before it, and says what is still older', () => {
    const id = seeded(300);
    const page = store.path(id, { limit: 20, beforeId: at(id, 250), fromId: at(id, 100) });
    expect(seqs(page)).toEqual(range(95, 250));
    expect(page.hasOlder).toBe(true);
  });

  it('a hit already inside the page changes nothing', () => {
    const id = seeded(300);
    expect(store.path(id, { limit: 50, fromId: at(id, 280) })).toEqual(
      store.path(id, { limit: 50 }),
    );
  });
});

describe('paging forward along the path (after another version is shown)', () => {
  /** 300 messages, and at message 100 a second version with 150 messages of its own under it. */
  function branched() {
    const id = seeded(300);
    const [version] = store.addChildren(id, at(id, 99), [
      { role: 'assistant', content: 'another version of 100', status: 'complete' },
    ]);
    const tail = store.append(
      id,
      Array.from({ length: 150 }, (_, i): NewMessage => ({
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: `other ${i}`,
        status: 'complete',
      })),
      version!.id,
    );
    return { id, version: version!.id, tail: tail.map((m) => m.id) };
  }

  it('the first page from a message on, and whether the path goes on after it', () => {
    const id = seeded(300);
    const page = store.pathAfter(id, at(id, 100), { limit: 50, inclusive: true })!;
    expect(seqs(page)).toEqual(range(100, 150));
    expect(page.hasNewer).toBe(true);
    const rest = store.pathAfter(id, at(id, 149), { limit: 500, inclusive: false })!;
    expect(seqs(rest)).toEqual(range(150, 300));
    expect(rest.hasNewer).toBe(false);
  });

  it('walks forward page by page to the end with no gap and no duplicate', () => {
    const id = seeded(300);
    let page = store.pathAfter(id, at(id, 0), { limit: 40, inclusive: true })!;
    const all = [...seqs(page)];
    while (page.hasNewer) {
      page = store.pathAfter(id, page.messages.at(-1)!.id, { limit: 40, inclusive: false })!;
      all.push(...seqs(page));
    }
    expect(all).toEqual(range(0, 300));
  });

  it('a page exactly up to the end says nothing newer; after the last message, an empty page', () => {
    const id = seeded(100);
    expect(store.pathAfter(id, at(id, 50), { limit: 50, inclusive: true })!.hasNewer).toBe(false);
    expect(store.pathAfter(id, at(id, 99), { limit: 50, inclusive: false })).toEqual({
      messages: [],
      hasNewer: false,
    });
  });

  it('follows the branch the path is on, with each version marked', () => {
    const { id, version, tail } = branched();
    // The path is on the second version (written last): its page starts there.
    const page = store.pathAfter(id, at(id, 98), { limit: 5, inclusive: false })!;
    expect(page.messages.map((m) => m.id)).toEqual([at(id, 99), version, ...tail.slice(0, 3)]);
    expect(page.messages[1]!.branch).toMatchObject({ index: 1, count: 2 });
    expect(page.hasNewer).toBe(true);
  });

  it('a message that is not on the shown path, or of another conversation: nothing', () => {
    const { id } = branched();
    const other = seeded(10);
    expect(store.pathAfter(id, at(id, 150), { limit: 5, inclusive: true })).toBeUndefined();
    expect(store.pathAfter(id, at(other, 3), { limit: 5, inclusive: true })).toBeUndefined();
    expect(store.pathAfter(id, 'gone', { limit: 5, inclusive: true })).toBeUndefined();
  });
});
