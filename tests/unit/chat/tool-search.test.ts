/**
 * Search finds tool calls: a word of a call's arguments or of its result finds the reply that
 * made the call, its snippet led by the tool's name. The index of tool calls (chat migration 6)
 * follows every write (a reply saved with its calls, a conversation deleted), and on tables
 * written at version 5 it is filled with the calls already kept, a damaged record skipped.
 */
import { describe, expect, it } from 'vitest';
import type { ReplyTools } from '../../../electron/shared/ipc/routes/chat';
import { CHAT_MIGRATIONS } from '../../../electron/main/services/chat/migrations';
import { ChatStore } from '../../../electron/main/services/chat/store';
import { migrate, openDatabase, type Db } from '../../../electron/main/services/database';

function toolsWith(args: string, result: string, tool = 'echo'): ReplyTools {
  return {
    steps: [
      {
        text: 'Let me look.',
        calls: [
          {
            callId: 'call-1',
            functionName: tool,
            serverId: 'srv-1',
            serverName: 'Everything',
            tool,
            arguments: args,
            state: 'done',
            result,
            toolError: false,
            durationMs: 4,
          },
        ],
      },
    ],
    leftOut: [],
    budget: 8000,
    stoppedAtLimit: false,
    maxSteps: 10,
  };
}

const text = (hit: { snippet: Array<{ text: string }> }) => hit.snippet.map((s) => s.text).join('');
const words = (hit: { snippet: Array<{ text: string; hit: boolean }> }) =>
  hit.snippet.filter((s) => s.hit).map((s) => s.text);

function ftsCheck(db: Db): void {
  db.exec("INSERT INTO chat_tool_calls_fts (chat_tool_calls_fts) VALUES ('integrity-check')");
}

describe('searching tool calls', () => {
  it('finds a reply by a word of its calls’ arguments or results, led by the tool’s name', async () => {
    const db = await openDatabase({ path: ':memory:' });
    try {
      const store = await ChatStore.open(db);
      const c = store.create({ title: 'Harbour' });
      const [, reply] = store.append(c.id, [
        { role: 'user', content: 'Echo something', status: 'complete' },
        { role: 'assistant', content: '', status: 'streaming' },
      ]);
      // While the reply streams it has no calls: nothing of them is found.
      expect(store.search('porpoise')).toEqual([]);
      store.saveReply(reply!.id, {
        content: 'It said so.',
        status: 'complete',
        tools: toolsWith('{"message":"porpoise"}', 'Echo: lighthouse keeper'),
      });
      const [byArgs] = store.search('porpoise');
      expect(byArgs).toMatchObject({ messageId: reply!.id, role: 'assistant' });
      expect(text(byArgs!)).toMatch(/^echo: /);
      expect(words(byArgs!)).toEqual(['porpoise']);
      expect(store.search('lighthou').map((h) => h.messageId)).toEqual([reply!.id]);
      // The server's name is found too; the reply's own text once, not twice.
      expect(store.search('Everything').map((h) => h.messageId)).toEqual([reply!.id]);
      expect(store.search('said').map((h) => h.messageId)).toEqual([reply!.id]);

      // Saved again with other calls: the old words are gone from the index.
      store.saveReply(reply!.id, {
        content: 'It said so.',
        status: 'complete',
        tools: toolsWith('{"a":2,"b":3}', 'The sum is five', 'get-sum'),
      });
      expect(store.search('porpoise')).toEqual([]);
      expect(text(store.search('five')[0]!)).toMatch(/^get-sum: /);
      ftsCheck(db);

      // A deleted conversation takes its calls out of the index.
      store.softDelete(c.id);
      expect(store.search('five')).toEqual([]);
      store.recover();
      expect(db.all('SELECT rowid FROM chat_tool_calls_fts')).toEqual([]);
      ftsCheck(db);
      expect(db.integrityCheck()).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('indexes the calls kept before the index existed (tables at chat version 5)', async () => {
    const db = await openDatabase({ path: ':memory:' });
    try {
      await migrate(db, 'chat', CHAT_MIGRATIONS.slice(0, 5));
      const at = '2026-02-03T04:05:06.000Z';
      db.run(
        'INSERT INTO chat_conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)',
        ['c', 'Sums', at, at],
      );
      const rows: Array<[string, number, string, string | null]> = [
        ['m1', 0, 'user', null],
        ['m2', 1, 'assistant', JSON.stringify(toolsWith('{"a":2,"b":3}', 'The sum is quokka'))],
        ['m3', 2, 'user', null],
        ['m4', 3, 'assistant', '{"steps": not json'],
        ['m5', 4, 'assistant', JSON.stringify({ steps: 'damaged' })],
      ];
      for (const [id, seq, role, tools] of rows)
        db.run(
          `INSERT INTO chat_messages (id, conversation_id, seq, role, content, status, created_at,
            parent_id, tool_calls) VALUES (?, 'c', ?, ?, ?, 'complete', ?, ?, ?)`,
          [id, seq, role, `message ${id}`, at, seq === 0 ? null : `m${seq}`, tools],
        );
      const store = await ChatStore.open(db);
      expect(store.search('quokka').map((h) => h.messageId)).toEqual(['m2']);
      // A damaged record is not indexed, and does not stop the others, nor later writes.
      expect(store.search('message').map((h) => h.messageId)).toEqual([
        'm5',
        'm4',
        'm3',
        'm2',
        'm1',
      ]);
      store.saveReply('m4', {
        content: 'message m4',
        status: 'complete',
        tools: toolsWith('{"q":"wombat"}', 'none'),
      });
      expect(store.search('wombat').map((h) => h.messageId)).toEqual(['m4']);
      db.run("DELETE FROM chat_messages WHERE id = 'm5'");
      ftsCheck(db);
      expect(db.integrityCheck()).toBe('ok');
    } finally {
      db.close();
    }
  });
});
