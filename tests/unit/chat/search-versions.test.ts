/**
 * Search over conversation trees: one hit per message, not one per version of it (a regenerated
 * reply, an edited message), the newest matching version standing for them; `limit` counts hits.
 */
import { describe, expect, it } from 'vitest';
import { ChatStore } from '../../../electron/main/services/chat/store';
import { openDatabase } from '../../../electron/main/services/database';

const complete = (role: 'user' | 'assistant', content: string) =>
  ({ role, content, status: 'complete' }) as const;

describe('search over versions', () => {
  it('gives one hit per message, the newest matching version’s', async () => {
    const store = await ChatStore.open(await openDatabase({ path: ':memory:' }));
    const conversation = store.create({ title: 'Tides' });
    const [question, first] = store.append(conversation.id, [
      complete('user', 'Tell me about the narwhal'),
      complete('assistant', 'The narwhal has a tusk.'),
    ]);
    // Two more versions of the reply, one of them without the word.
    const second = store.append(
      conversation.id,
      [complete('assistant', 'A narwhal swims.')],
      question!.id,
    );
    store.append(conversation.id, [complete('assistant', 'Whales, mostly.')], question!.id);
    // An edited first message: a version of the question.
    const edited = store.append(conversation.id, [complete('user', 'And the narwhal tusk?')], null);

    const hits = store.search('narwhal');
    expect(hits.map((h) => h.messageId)).toEqual([edited[0]!.id, second[0]!.id]);
    expect(hits.map((h) => h.messageId)).not.toContain(first!.id);
    expect(hits.map((h) => h.messageId)).not.toContain(question!.id);

    // Another conversation's hits are their own; `limit` counts hits, not versions.
    const other = store.create({ title: 'Other' });
    for (let i = 0; i < 3; i++)
      store.append(other.id, [complete('user', `narwhal ${i}`), complete('assistant', 'ok')]);
    expect(store.search('narwhal', 4)).toHaveLength(4);
    expect(store.search('narwhal')).toHaveLength(5);
  });
});
