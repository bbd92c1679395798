/**
 * Conversations as trees in the store: versions side by side, the path shown and how it moves,
 * paging a path that crosses branch points, forks, and the usage kept per reply.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatStore, type NewMessage } from '../../../electron/main/services/chat/store';
import { openDatabase, type Db } from '../../../electron/main/services/database';

let db: Db;
let store: ChatStore;
let clock = Date.parse('2026-03-01T10:00:00Z');

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  clock = Date.parse('2026-03-01T10:00:00Z');
  store = await ChatStore.open(db, () => new Date((clock += 1000)));
});
afterEach(() => db.close());

const user = (content: string): NewMessage => ({ role: 'user', content, status: 'complete' });
const reply = (content: string, extra: Partial<NewMessage> = {}): NewMessage => ({
  role: 'assistant',
  content,
  status: 'complete',
  model: 'demo-chat',
  ...extra,
});
const texts = (conversationId: string) => store.path(conversationId).messages.map((m) => m.content);

/** q1 → a1 → q2 → a2, the path shown. */
function linear() {
  const conversation = store.create({ title: 'Tree', model: 'demo-chat' });
  const [q1, a1, q2, a2] = store.append(conversation.id, [
    user('q1'),
    reply('a1'),
    user('q2'),
    reply('a2'),
  ]);
  return { id: conversation.id, q1: q1!, a1: a1!, q2: q2!, a2: a2! };
}

describe('versions of a message', () => {
  it('a linear conversation is one path, each message under the one before, with no versions', () => {
    const c = linear();
    const path = store.path(c.id).messages;
    expect(path.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(path.map((m) => m.parentId)).toEqual([null, c.q1.id, c.a1.id, c.q2.id]);
    expect(path.every((m) => m.branch === undefined)).toBe(true);
    expect(store.leafOf(c.id)).toBe(c.a2.id);
  });

  it('a new reply beside another (regenerate) keeps the old one; each knows its place among them', () => {
    const c = linear();
    const [again] = store.addChildren(c.id, c.q2.id, [reply('a2, again')]);
    // Added, not shown yet: the path stays where it was until it is moved.
    expect(texts(c.id)).toEqual(['q1', 'a1', 'q2', 'a2']);
    store.setLeaf(c.id, again!.id);
    const path = store.path(c.id).messages;
    expect(path.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2, again']);
    expect(path[3]!.branch).toEqual({ index: 1, count: 2, previousId: c.a2.id, nextId: null });
    expect(store.message(c.a2.id)).toMatchObject({ content: 'a2', status: 'complete' });
    expect(store.allMessages(c.id)).toHaveLength(5);
  });

  it('an edit is a new user message beside the old one, which keeps its id and its text', () => {
    const c = linear();
    const [edited, answer] = store.append(
      c.id,
      [user('q1, edited'), reply('a1 to the edit')],
      null,
    );
    expect(texts(c.id)).toEqual(['q1, edited', 'a1 to the edit']);
    expect(edited!.parentId).toBeNull();
    expect(answer!.parentId).toBe(edited!.id);
    const first = store.path(c.id).messages[0]!;
    expect(first.branch).toEqual({ index: 1, count: 2, previousId: c.q1.id, nextId: null });
    expect(store.message(c.q1.id)).toMatchObject({ id: c.q1.id, content: 'q1' });
  });

  it('showing another version moves the path onto it and on to the latest message under it', () => {
    const c = linear();
    // q1 edited: a second first message with its own two-message branch.
    store.append(c.id, [user('q1 v2'), reply('a1 v2'), user('q2 v2'), reply('a2 v2')], null);
    expect(texts(c.id)).toEqual(['q1 v2', 'a1 v2', 'q2 v2', 'a2 v2']);
    // Under the first version, a later regenerate of a2: the latest message under q1.
    const [latest] = store.addChildren(c.id, c.q2.id, [reply('a2 regenerated')]);

    store.showMessage(c.q1.id);
    expect(texts(c.id)).toEqual(['q1', 'a1', 'q2', 'a2 regenerated']);
    expect(store.leafOf(c.id)).toBe(latest!.id);

    const second = store.path(c.id).messages[0]!.branch!.nextId!;
    store.showMessage(second);
    expect(texts(c.id)).toEqual(['q1 v2', 'a1 v2', 'q2 v2', 'a2 v2']);
  });

  it('showing a message already on the path leaves the path as it is', () => {
    const c = linear();
    const [other] = store.addChildren(c.id, c.q2.id, [reply('a2 b')]);
    store.setLeaf(c.id, c.a2.id);
    expect(store.onPath(c.id, c.q1.id)).toBe(true);
    expect(store.onPath(c.id, other!.id)).toBe(false);
    store.showMessage(c.q1.id);
    expect(store.leafOf(c.id)).toBe(c.a2.id);
    // A search hit on the other branch moves the path onto it.
    store.showMessage(other!.id);
    expect(texts(c.id)).toEqual(['q1', 'a1', 'q2', 'a2 b']);
  });

  it('a path whose remembered end is gone falls back to the message written last', () => {
    const c = linear();
    db.run("UPDATE chat_conversations SET current_leaf_id = 'gone' WHERE id = ?", [c.id]);
    expect(store.leafOf(c.id)).toBe(c.a2.id);
    expect(texts(c.id)).toEqual(['q1', 'a1', 'q2', 'a2']);
  });

  it('a compare waiting for a choice: the path ends at the message, its replies are listed', () => {
    const c = linear();
    const [question] = store.append(c.id, [user('compare this')]);
    const replies = store.addChildren(c.id, question!.id, [
      reply('from one', { model: 'm1', batchId: 'b' }),
      reply('from two', { model: 'm2', batchId: 'b', temperature: 0.2 }),
    ]);
    const open = store.openCompare(c.id);
    expect(open?.userMessageId).toBe(question!.id);
    expect(open?.replies.map((r) => [r.model, r.batchId, r.temperature])).toEqual([
      ['m1', 'b', undefined],
      ['m2', 'b', 0.2],
    ]);
    store.setLeaf(c.id, replies[1]!.id);
    expect(store.openCompare(c.id)).toBeUndefined();
    expect(store.path(c.id).messages.at(-1)!.branch).toMatchObject({ index: 1, count: 2 });
  });
});

describe('a long path across branch points', () => {
  /**
   * A path of `length` messages in which every `every`-th reply has an older version beside it
   * (with a message under it), as regenerates leave them.
   */
  function branchy(length: number, every: number) {
    const conversation = store.create({ title: 'Branchy' });
    const path: string[] = [];
    let parent: string | null = null;
    for (let i = 0; i < length; i++) {
      const isReply = i % 2 === 1;
      if (isReply && (i - 1) % every === 0) {
        const [old] = store.addChildren(conversation.id, parent, [reply(`old version of ${i}`)]);
        store.addChildren(conversation.id, old!.id, [user(`under the old version of ${i}`)]);
      }
      const [added] = store.addChildren(conversation.id, parent, [
        isReply ? reply(`message ${i}`) : user(`message ${i}`),
      ]);
      path.push(added!.id);
      parent = added!.id;
    }
    store.setLeaf(conversation.id, parent!);
    return { id: conversation.id, path };
  }

  it('pages back through 1,000 messages crossing 50 branch points: the path, no gap, no other branch', () => {
    const { id, path } = branchy(1000, 20);
    expect(store.allMessages(id)).toHaveLength(1100);
    const seen: string[] = [];
    let page = store.path(id, { limit: 50 });
    seen.unshift(...page.messages.map((m) => m.id));
    let branchPoints = page.messages.filter((m) => m.branch).length;
    while (page.hasOlder) {
      page = store.path(id, { limit: 50, beforeId: page.messages[0]!.id });
      seen.unshift(...page.messages.map((m) => m.id));
      branchPoints += page.messages.filter((m) => m.branch).length;
    }
    expect(seen).toEqual(path);
    expect(branchPoints).toBe(50);
  });

  it('switches a version in the middle: the part before stays, the part after follows the version', () => {
    const { id, path } = branchy(1000, 20);
    const middle = store.path(id).messages[501]!;
    expect(middle.branch).toMatchObject({ index: 1, count: 2 });
    store.showMessage(middle.branch!.previousId!);
    const after = store.path(id).messages;
    expect(after.map((m) => m.id).slice(0, 501)).toEqual(path.slice(0, 501));
    expect(after.slice(501).map((m) => m.content)).toEqual([
      'old version of 501',
      'under the old version of 501',
    ]);
    expect(store.pathFrom(id, middle.branch!.previousId!).map((m) => m.content)).toEqual([
      'old version of 501',
      'under the old version of 501',
    ]);
  });
});

describe('branch from here', () => {
  it('copies the path up to the message into a new conversation; deleting either leaves the other whole', async () => {
    const c = linear();
    store.addChildren(c.id, c.q2.id, [reply('a2 b')]);
    store.saveReply(c.a1.id, {
      content: 'a1',
      status: 'complete',
      usage: { promptTokens: 5, completionTokens: 7, totalTokens: 12 },
    });
    const usageRows = () => db.all('SELECT message_id FROM chat_usage');
    expect(usageRows()).toHaveLength(1);

    const { conversation: fork, copied } = store.fork(c.q2.id);
    expect(fork.title).toBe('Tree (branch)');
    expect(fork.model).toBe('demo-chat');
    expect(fork.forkedFrom).toEqual({ conversationId: c.id, messageId: c.q2.id, title: 'Tree' });
    expect(texts(fork.id)).toEqual(['q1', 'a1', 'q2']);
    expect(copied.map((p) => p.from)).toEqual([c.q1.id, c.a1.id, c.q2.id]);
    const copies = store.path(fork.id).messages;
    expect(copies.map((m) => m.id)).toEqual(copied.map((p) => p.to));
    expect(copies.some((m) => [c.q1.id, c.a1.id, c.q2.id].includes(m.id))).toBe(false);
    expect(copies[1]!.usage).toEqual({ promptTokens: 5, completionTokens: 7, totalTokens: 12 });
    // Spent once: the copy's usage is not counted again.
    expect(usageRows()).toHaveLength(1);

    store.softDelete(c.id);
    store.recover();
    expect(store.get(c.id)).toBeUndefined();
    expect(texts(fork.id)).toEqual(['q1', 'a1', 'q2']);

    const again = store.fork(copies[0]!.id);
    store.softDelete(again.conversation.id);
    store.recover();
    expect(texts(fork.id)).toEqual(['q1', 'a1', 'q2']);
  });
});

describe('usage kept per reply', () => {
  it('is written when a reply ends, once, and outlives its conversation', () => {
    const c = linear();
    const usage = { promptTokens: 100, completionTokens: 40, totalTokens: 140 };
    store.saveReply(c.a2.id, { content: 'a2', status: 'streaming', usage });
    expect(db.all('SELECT * FROM chat_usage')).toHaveLength(0);
    store.saveReply(c.a2.id, { content: 'a2', status: 'complete', usage });
    store.saveReply(c.a2.id, { content: 'a2', status: 'complete', usage });
    expect(db.all('SELECT model, prompt_tokens, completion_tokens FROM chat_usage')).toEqual([
      { model: 'demo-chat', prompt_tokens: 100, completion_tokens: 40 },
    ]);
    expect(store.usageByModel(c.id)).toEqual([
      { model: 'demo-chat', replies: 1, promptTokens: 100, completionTokens: 40 },
    ]);
    store.softDelete(c.id);
    store.recover();
    const days = store.usageByDay(new Date('2026-02-01T00:00:00Z'));
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({ model: 'demo-chat', promptTokens: 100, completionTokens: 40 });
  });
});
