/**
 * The chat migration to trees, on tables written at chat version 1 with everything they could
 * hold: replies with tokens (their usage kept), failed and streaming ones, several conversations
 * whose `seq` interleave nothing, and the full-text index.
 */
import { describe, expect, it } from 'vitest';
import { CHAT_MIGRATIONS } from '../../../electron/main/services/chat/migrations';
import { ChatStore } from '../../../electron/main/services/chat/store';
import { migrate, openDatabase, type Db } from '../../../electron/main/services/database';

async function versionOne(): Promise<Db> {
  const db = await openDatabase({ path: ':memory:' });
  await migrate(db, 'chat', [CHAT_MIGRATIONS[0]!]);
  const at = '2026-02-03T04:05:06.000Z';
  for (const id of ['a', 'b', 'empty'])
    db.run(
      `INSERT INTO chat_conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)`,
      [id, `Conversation ${id}`, at, at],
    );
  const rows: Array<
    [string, string, number, string, string, string, number | null, number | null]
  > = [
    ['a1', 'a', 0, 'user', 'How do tides work?', 'complete', null, null],
    ['a2', 'a', 1, 'assistant', 'The moon pulls the sea.', 'complete', 12, 30],
    ['a3', 'a', 2, 'user', 'And spring tides?', 'complete', null, null],
    ['a4', 'a', 3, 'assistant', 'Sun and moon in line.', 'error', null, null],
    ['a5', 'a', 4, 'user', 'Try again', 'complete', null, null],
    ['a6', 'a', 5, 'assistant', 'Half a rep', 'streaming', null, null],
    ['b1', 'b', 0, 'user', 'Hello', 'complete', null, null],
    ['b2', 'b', 1, 'assistant', 'Hi there', 'complete', 4, 2],
  ];
  for (const [id, conversation, seq, role, content, status, prompt, completion] of rows)
    db.run(
      `INSERT INTO chat_messages (id, conversation_id, seq, role, content, status, prompt_tokens,
        completion_tokens, total_tokens, model, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        conversation,
        seq,
        role,
        content,
        status,
        prompt,
        completion,
        prompt === null ? null : prompt + (completion ?? 0),
        role === 'assistant' ? 'model-x' : null,
        at,
      ],
    );
  return db;
}

describe('the migration to trees', () => {
  it('makes each conversation one path ending at its last message, and keeps usage per reply', async () => {
    const db = await versionOne();
    try {
      const store = await ChatStore.open(db);
      expect(store.path('a').messages.map((m) => [m.id, m.parentId])).toEqual([
        ['a1', null],
        ['a2', 'a1'],
        ['a3', 'a2'],
        ['a4', 'a3'],
        ['a5', 'a4'],
        ['a6', 'a5'],
      ]);
      expect(store.message('a6')?.status).toBe('interrupted');
      expect(store.path('b').messages.map((m) => m.id)).toEqual(['b1', 'b2']);
      expect(store.path('empty')).toEqual({ messages: [], hasOlder: false });
      expect(db.all('SELECT id, current_leaf_id FROM chat_conversations ORDER BY id')).toEqual([
        { id: 'a', current_leaf_id: 'a6' },
        { id: 'b', current_leaf_id: 'b2' },
        { id: 'empty', current_leaf_id: null },
      ]);
      expect(
        db.all(
          'SELECT message_id, conversation_id, model, prompt_tokens, completion_tokens, created_at FROM chat_usage ORDER BY message_id',
        ),
      ).toEqual([
        {
          message_id: 'a2',
          conversation_id: 'a',
          model: 'model-x',
          prompt_tokens: 12,
          completion_tokens: 30,
          created_at: '2026-02-03T04:05:06.000Z',
        },
        {
          message_id: 'b2',
          conversation_id: 'b',
          model: 'model-x',
          prompt_tokens: 4,
          completion_tokens: 2,
          created_at: '2026-02-03T04:05:06.000Z',
        },
      ]);
      // The index answers as before, and follows edits made after the migration.
      expect(store.search('spring').map((h) => h.messageId)).toEqual(['a3']);
      const [next] = store.append('a', [
        { role: 'user', content: 'neap tides', status: 'complete' },
      ]);
      expect(next!.parentId).toBe('a6');
      expect(store.search('neap').map((h) => h.messageId)).toEqual([next!.id]);
      expect(db.integrityCheck()).toBe('ok');
      expect(db.all('PRAGMA foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('deleting a conversation takes every branch with it, and leaves the others', async () => {
    const db = await versionOne();
    try {
      const store = await ChatStore.open(db);
      store.addChildren('a', 'a1', [
        { role: 'assistant', content: 'another version', status: 'complete' },
      ]);
      store.softDelete('a');
      store.recover();
      expect(db.all("SELECT id FROM chat_messages WHERE conversation_id = 'a'")).toEqual([]);
      expect(store.path('b').messages).toHaveLength(2);
      expect(db.all('PRAGMA foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  });
});
