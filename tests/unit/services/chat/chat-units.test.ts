import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatService, titleFrom } from '../../../../electron/main/services/chat/chat-service';
import { DeltaCoalescer } from '../../../../electron/main/services/chat/delta-coalescer';
import {
  ChatStore,
  ftsQuery,
  snippetSegments,
} from '../../../../electron/main/services/chat/store';
import { parseExport } from '../../../../electron/main/services/chat/transfer';
import { openDatabase } from '../../../../electron/main/services/database';
import type { RelayClient } from '../../../../electron/main/services/relay/relay-client';

afterEach(() => vi.useRealTimers());

describe('DeltaCoalescer', () => {
  it('sends at most one message per interval, in order, and flushes the rest', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const coalescer = new DeltaCoalescer((text) => sent.push(text), 16);
    for (let i = 0; i < 1000; i++) {
      coalescer.push(`${i},`);
      if (i % 10 === 9) vi.advanceTimersByTime(1);
    }
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(100 / 16) + 1);
    coalescer.flush();
    expect(sent.join('')).toBe(Array.from({ length: 1000 }, (_, i) => `${i},`).join(''));
  });

  it('by default sends no more than 60 messages a second, however fast text arrives', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const coalescer = new DeltaCoalescer((text) => sent.push(text));
    // 2,000 pieces a second for 5 seconds, one every half millisecond.
    for (let i = 0; i < 10_000; i++) {
      coalescer.push('x');
      vi.advanceTimersByTime(0.5);
    }
    expect(sent.length).toBeLessThanOrEqual(5 * 60);
    expect(sent.length).toBeGreaterThan(5 * 50);
    coalescer.flush();
    expect(sent.join('')).toHaveLength(10_000);
  });

  it('sends the first text after a quiet interval at once, and holds the next until the interval is over', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const coalescer = new DeltaCoalescer((text) => sent.push(text), 17);
    coalescer.push('a');
    expect(sent).toEqual(['a']);
    vi.advanceTimersByTime(5);
    coalescer.push('b');
    coalescer.push('c');
    expect(sent).toEqual(['a']);
    vi.advanceTimersByTime(11);
    expect(sent).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['a', 'bc']);
    vi.advanceTimersByTime(40);
    coalescer.push('d');
    expect(sent).toEqual(['a', 'bc', 'd']);
  });
});

describe('search text', () => {
  it('quotes every word so FTS5 syntax typed by a person is plain text', () => {
    expect(ftsQuery('tide pools')).toBe('"tide" "pools"*');
    expect(ftsQuery('"NEAR( AND * x')).toBe('"NEAR" "AND" "x"*');
    expect(ftsQuery(' ?! ')).toBeUndefined();
  });

  it('splits a snippet into plain segments with hits marked', () => {
    expect(snippetSegments('a \u0002b\u0003 <c>')).toEqual([
      { text: 'a ', hit: false },
      { text: 'b', hit: true },
      { text: ' <c>', hit: false },
    ]);
  });
});

describe('import parsing', () => {
  it('names the file and what is wrong', () => {
    expect(() => parseExport('x.json', 'nope')).toThrow(/x\.json is not a JSON file/);
    expect(() => parseExport('y.json', '[]')).toThrow(/y\.json cannot be imported/);
  });
});

describe('titles', () => {
  it('takes the first line, cut at 60 characters', () => {
    expect(titleFrom('  Hello\nworld')).toBe('Hello');
    expect(titleFrom('x'.repeat(100))).toHaveLength(58);
  });
});

describe('ChatService persistence', () => {
  it('writes the growing reply at most about four times a second, and once at the end', async () => {
    const db = await openDatabase({ path: ':memory:' });
    const store = await ChatStore.open(db);
    const saves = vi.spyOn(store, 'saveProgress');
    // A reply of 200 pieces over about a second.
    const client = {
      chat: async (_request: unknown, options: { onDelta?: (t: string) => void }) => {
        for (let i = 0; i < 200; i++) {
          options.onDelta?.(`w${i} `);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const content = Array.from({ length: 200 }, (_, i) => `w${i} `).join('');
        return { content, finishReason: 'stop', interrupted: false };
      },
    } as unknown as RelayClient;
    const events: string[] = [];
    const chat = new ChatService({
      store,
      emit: (name) => events.push(name),
      client: async () => client,
      defaults: async () => ({ temperature: 1, maxTokens: null }),
    });
    const conversation = store.create({ model: 'm' });
    const started = performance.now();
    const { replyId } = await chat.send(conversation.id, 'hi');
    await chat.settled(replyId);
    const seconds = (performance.now() - started) / 1000;
    expect(saves.mock.calls.length).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 1);
    expect(saves.mock.calls.length).toBeGreaterThan(0);
    expect(store.message(replyId)).toMatchObject({ status: 'complete' });
    expect(events.filter((e) => e === 'chatReplyFinished')).toHaveLength(1);
    db.close();
  });

  it('marks replies left streaming by a crash as interrupted when opened', async () => {
    const db = await openDatabase({ path: ':memory:' });
    const store = await ChatStore.open(db);
    const conversation = store.create({ model: 'm' });
    const [reply] = store.append(conversation.id, [
      { role: 'assistant', content: 'half', status: 'streaming' },
    ]);
    expect(store.recover().interrupted).toBe(1);
    expect(store.message(reply!.id)).toMatchObject({ status: 'interrupted', content: 'half' });
    db.close();
  });
});
