/**
 * The renderer's loaded part of a long conversation: older pages put before it once each, and the
 * newest page fetched again after a send or an edit, with the list index keeping rows in place.
 */
import { describe, expect, it } from 'vitest';
import { mergeNewestPage, prependOlderPage } from '../../../renderer/src/features/chat/paging';

function messages(from: number, to: number, text = 'm') {
  return Array.from({ length: to - from }, (_, i) => ({ id: `${text}${from + i}`, seq: from + i }));
}

const seqs = (list: { seq: number }[]) => list.map((m) => m.seq);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('older pages', () => {
  it('go before what is loaded, once each, and lower the index by as many', () => {
    let view = { messages: messages(250, 300), firstItemIndex: 1000 };
    view = prependOlderPage(view.messages, view.firstItemIndex, messages(200, 250));
    // The same page twice (a retry that raced): no duplicate, no index change.
    view = prependOlderPage(view.messages, view.firstItemIndex, messages(200, 250));
    expect(seqs(view.messages)).toEqual(range(200, 300));
    expect(view.firstItemIndex).toBe(950);
    view = prependOlderPage(view.messages, view.firstItemIndex, messages(0, 200));
    expect(seqs(view.messages)).toEqual(range(0, 300));
    expect(view.firstItemIndex).toBe(750);
  });
});

describe('the newest page merged into what is loaded', () => {
  it('keeps the older pages and replaces the newest', () => {
    const merged = mergeNewestPage(messages(150, 300), 1000, messages(251, 301, 'n'), true, true);
    expect(seqs(merged.messages)).toEqual(range(150, 301));
    expect(merged.messages[101]!.id).toBe('n251');
    expect(merged.firstItemIndex).toBe(1000);
    expect(merged.hasOlder).toBe(true);
  });

  it('an edit older than the page start: the list starts earlier, its index lower as much', () => {
    // Loaded 200..299; an edit of seq 210 leaves 0..211, and the newest page of 50 is 162..211.
    const merged = mergeNewestPage(messages(200, 300), 1000, messages(162, 212, 'n'), true, true);
    expect(seqs(merged.messages)).toEqual(range(162, 212));
    expect(merged.firstItemIndex).toBe(1000 - 38);
    expect(merged.hasOlder).toBe(true);
  });

  it('a short conversation: all of it, and nothing older', () => {
    const merged = mergeNewestPage(messages(0, 10), 1000, messages(0, 12, 'n'), false, false);
    expect(seqs(merged.messages)).toEqual(range(0, 12));
    expect(merged).toMatchObject({ firstItemIndex: 1000, hasOlder: false });
  });

  it('an emptied conversation: nothing loaded and nothing older', () => {
    expect(mergeNewestPage(messages(0, 10), 1000, [], false, false)).toEqual({
      messages: [],
      firstItemIndex: 1000,
      hasOlder: false,
    });
  });
});
