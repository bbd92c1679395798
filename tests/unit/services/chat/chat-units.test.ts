import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addUsage,
  ChatService,
  titleFrom,
} from '../../../../electron/main/services/chat/chat-service';
import {
  DeltaCoalescer,
  type ReplyDelta,
} from '../../../../electron/main/services/chat/delta-coalescer';
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
  /** The text each reply got, in order, from what was sent. */
  function texts(sent: ReplyDelta[][]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const batch of sent)
      for (const delta of batch) out[delta.replyId] = (out[delta.replyId] ?? '') + delta.text;
    return out;
  }

  it('sends at most one message per interval, in order, and flushes the rest', () => {
    vi.useFakeTimers();
    const sent: ReplyDelta[][] = [];
    const coalescer = new DeltaCoalescer((deltas) => sent.push(deltas), 16);
    for (let i = 0; i < 1000; i++) {
      coalescer.push('r', 'c', `${i},`);
      if (i % 10 === 9) vi.advanceTimersByTime(1);
    }
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(100 / 16) + 1);
    coalescer.flush();
    expect(texts(sent).r).toBe(Array.from({ length: 1000 }, (_, i) => `${i},`).join(''));
  });

  it('by default sends no more than 60 messages a second, however fast text arrives', () => {
    vi.useFakeTimers();
    const sent: ReplyDelta[][] = [];
    const coalescer = new DeltaCoalescer((deltas) => sent.push(deltas));
    // 2,000 pieces a second for 5 seconds, one every half millisecond.
    for (let i = 0; i < 10_000; i++) {
      coalescer.push('r', 'c', 'x');
      vi.advanceTimersByTime(0.5);
    }
    expect(sent.length).toBeLessThanOrEqual(5 * 60);
    expect(sent.length).toBeGreaterThan(5 * 50);
    coalescer.flush();
    expect(texts(sent).r).toHaveLength(10_000);
  });

  it('sends four streams together: no more messages than one stream, each reply whole and in order', () => {
    vi.useFakeTimers();
    const sent: ReplyDelta[][] = [];
    const coalescer = new DeltaCoalescer((deltas) => sent.push(deltas));
    const replies = ['a', 'b', 'c', 'd'];
    // Four replies at 2,000 pieces a second each for 2 seconds.
    for (let i = 0; i < 4000; i++) {
      for (const reply of replies) coalescer.push(reply, 'conversation', `${reply}${i};`);
      vi.advanceTimersByTime(0.5);
    }
    coalescer.flush();
    expect(sent.length).toBeLessThanOrEqual(2 * 60 + 1);
    const got = texts(sent);
    for (const reply of replies)
      expect(got[reply]).toBe(Array.from({ length: 4000 }, (_, i) => `${reply}${i};`).join(''));
    // Each message names each reply at most once, with its conversation.
    for (const batch of sent) {
      expect(new Set(batch.map((d) => d.replyId)).size).toBe(batch.length);
      expect(batch.every((d) => d.conversationId === 'conversation')).toBe(true);
    }
  });

  it('sends the first text after a quiet interval at once, and holds the next until the interval is over', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const coalescer = new DeltaCoalescer(
      (deltas) => sent.push(deltas.map((d) => `${d.replyId}:${d.text}`).join(' ')),
      17,
    );
    coalescer.push('r', 'c', 'a');
    expect(sent).toEqual(['r:a']);
    vi.advanceTimersByTime(5);
    coalescer.push('r', 'c', 'b');
    coalescer.push('s', 'c', 'x');
    coalescer.push('r', 'c', 'c');
    expect(sent).toEqual(['r:a']);
    vi.advanceTimersByTime(11);
    expect(sent).toEqual(['r:a']);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['r:a', 'r:bc s:x']);
    vi.advanceTimersByTime(40);
    coalescer.push('s', 'c', 'd');
    expect(sent).toEqual(['r:a', 'r:bc s:x', 's:d']);
  });
});

describe('DeltaCoalescer paced by the page', () => {
  const FRAME = 1000 / 60;
  const line = (deltas: ReplyDelta[]) => deltas.map((d) => `${d.replyId}:${d.text}`).join(' ');

  /** A coalescer that has sent once and been told of a frame since: the page paces it now. */
  function paced(sent: string[]) {
    const coalescer = new DeltaCoalescer((deltas) => sent.push(line(deltas)));
    coalescer.push('r', 'c', 'a');
    vi.advanceTimersByTime(17);
    coalescer.frameShown();
    return coalescer;
  }

  it('sends what gathered the moment the page is at its next frame, not on a timer of its own', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const coalescer = paced(sent);
    // Quiet since the last send: the next text goes at once (leading edge).
    coalescer.push('r', 'c', 'b');
    expect(sent).toEqual(['r:a', 'r:b']);
    // Then text waits for the page: far past the interval, still nothing.
    coalescer.push('r', 'c', 'c');
    coalescer.push('s', 'c', 'x');
    vi.advanceTimersByTime(3 * FRAME);
    expect(sent).toEqual(['r:a', 'r:b']);
    // The page's frame: sent at once, in that same turn.
    coalescer.frameShown();
    expect(sent).toEqual(['r:a', 'r:b', 'r:c s:x']);
  });

  it('never sends faster than 60 a second, whatever the page says (a 120 Hz display)', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const coalescer = paced(sent);
    coalescer.push('r', 'c', 'b');
    vi.advanceTimersByTime(8);
    coalescer.push('r', 'c', 'c');
    coalescer.frameShown();
    expect(sent).toEqual(['r:a', 'r:b']);
    vi.advanceTimersByTime(9);
    expect(sent).toEqual(['r:a', 'r:b', 'r:c']);
  });

  it('still sends to a page that stops saying (hidden, reloading), every stallMs', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const coalescer = paced(sent);
    coalescer.push('r', 'c', 'b');
    for (let i = 0; i < 100; i++) {
      coalescer.push('r', 'c', '.');
      vi.advanceTimersByTime(10);
    }
    // One second without a frame: the text went about four times, not sixty.
    expect(sent.length - 2).toBeGreaterThanOrEqual(3);
    expect(sent.length - 2).toBeLessThanOrEqual(4);
    coalescer.flush();
    expect(sent.join('').replace(/r:/g, '').replace(/ /g, '')).toBe(`ab${'.'.repeat(100)}`);
  });

  it('at 2,000 pieces a second and a 60 Hz page: a send per frame, 58 a second at most', () => {
    vi.useFakeTimers();
    const sends: number[] = [];
    let received = '';
    const coalescer = new DeltaCoalescer((deltas) => {
      sends.push(performance.now());
      received += deltas.map((d) => d.text).join('');
    });
    const pushedAt: number[] = [];
    let nextFrame = FRAME;
    // 2 seconds, a piece every half millisecond; the page says it is at each frame (it applied
    // the last send), as the renderer's frame coalescer does.
    for (let i = 0; i < 4000; i++) {
      pushedAt.push(performance.now());
      coalescer.push('r', 'c', `${i};`);
      vi.advanceTimersByTime(0.5);
      if (performance.now() >= nextFrame) {
        nextFrame += FRAME;
        coalescer.frameShown();
      }
    }
    coalescer.flush();
    expect(received).toBe(Array.from({ length: 4000 }, (_, i) => `${i};`).join(''));
    expect(sends.length).toBeLessThanOrEqual(2 * 60 + 1);
    expect(sends.length).toBeGreaterThan(2 * 55);
    // 58 sends a second on average (a bucket of two): a frame in 30 is skipped, leaving the
    // bridge room for a stream's other messages under 60.
    expect(sends.length).toBeLessThanOrEqual(2 * 58 + 2);
    for (let i = 0; i < sends.length; i++) {
      const inSecond = sends.filter((at) => at >= sends[i]! && at < sends[i]! + 1000).length;
      expect(inSecond).toBeLessThanOrEqual(59);
    }
    // Each piece waited for the next send at most a frame, or two where a frame was skipped.
    let s = 0;
    const waits: number[] = [];
    for (const at of pushedAt.slice(0, -1)) {
      while (sends[s]! < at) s++;
      waits.push(sends[s]! - at);
    }
    expect(Math.max(...waits)).toBeLessThanOrEqual(2 * FRAME + 1);
    const withinAFrame = waits.filter((ms) => ms <= FRAME + 0.5).length / waits.length;
    expect(withinAFrame).toBeGreaterThan(0.95);
  });
});

describe('addUsage (a reply continued: both requests count)', () => {
  it('sums each count both requests report, keeps one reported by only one, and omits none known', () => {
    expect(
      addUsage(
        { promptTokens: 10, completionTokens: 4, totalTokens: 14 },
        { promptTokens: 15, completionTokens: 6, totalTokens: 21 },
      ),
    ).toEqual({ promptTokens: 25, completionTokens: 10, totalTokens: 35 });
    expect(addUsage({ completionTokens: 4 }, { promptTokens: 3 })).toEqual({
      promptTokens: 3,
      completionTokens: 4,
    });
    expect(addUsage(undefined, { totalTokens: 5 })).toEqual({ totalTokens: 5 });
    expect(addUsage({ totalTokens: 5 }, undefined)).toEqual({ totalTokens: 5 });
    expect(addUsage(undefined, undefined)).toBeUndefined();
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
