/**
 * The renderer's loaded part of a long conversation: older pages put before it once each, and the
 * newest page fetched again after a send or an edit, with the list index keeping rows in place.
 */
import { describe, expect, it } from 'vitest';
import { mergeNewestPage, prependOlderPage } from '../../../renderer/src/features/chat/paging';

/**
 * Messages `from` to `to` (exclusive) of a path, each under the one before; the first under
 * `parentOfFirst` (by default the message of the same prefix before it, none for 0).
 */
function messages(from: number, to: number, text = 'm', parentOfFirst?: string | null) {
  return Array.from({ length: to - from }, (_, i) => ({
    id: `${text}${from + i}`,
    seq: from + i,
    parentId:
      i > 0
        ? `${text}${from + i - 1}`
        : parentOfFirst !== undefined
          ? parentOfFirst
          : from === 0
            ? null
            : `${text}${from - 1}`,
  }));
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
    // A send after 299 (its newest page overlaps what is loaded), then a regenerate of 299.
    const sent = mergeNewestPage(
      messages(150, 300),
      1000,
      [...messages(251, 300), ...messages(300, 302, 'n', 'm299')],
      true,
      true,
    );
    expect(sent.messages.map((m) => m.id).slice(-3)).toEqual(['m299', 'n300', 'n301']);
    expect(sent.messages).toHaveLength(152);
    const merged = mergeNewestPage(
      messages(150, 300),
      1000,
      messages(251, 301, 'n', 'm250'),
      true,
      true,
    );
    expect(seqs(merged.messages)).toEqual(range(150, 301));
    expect(merged.messages[101]!.id).toBe('n251');
    expect(merged.firstItemIndex).toBe(1000);
    expect(merged.hasOlder).toBe(true);
  });

  it('an edit older than the page start: the list starts earlier, its index lower as much', () => {
    // Loaded 200..299; an edit of 210 makes the path 0..209 then the new 210 and its reply, and
    // the newest page of 50 is 162..211.
    const page = [...messages(162, 210), ...messages(210, 212, 'n', 'm209')];
    const merged = mergeNewestPage(messages(200, 300), 1000, page, true, true);
    expect(merged.messages.map((m) => m.id)).toEqual(page.map((m) => m.id));
    expect(merged.firstItemIndex).toBe(1000 - 38);
    expect(merged.hasOlder).toBe(true);
  });

  it('a short conversation: all of it, and nothing older', () => {
    const merged = mergeNewestPage(messages(0, 10), 1000, messages(0, 12, 'n'), false, false);
    expect(merged.messages.map((m) => m.id)).toEqual(messages(0, 12, 'n').map((m) => m.id));
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

describe('another version shown', () => {
  it('keeps the path up to the version, and the path from it on replaces the rest', () => {
    // Loaded 100..199; the person switches 150 to another version, written later (seq 500+).
    const after = messages(500, 520, 'v', 'm149');
    const merged = mergeNewestPage(messages(100, 200), 1000, after, true, true);
    expect(merged.messages.map((m) => m.id)).toEqual([
      ...messages(100, 150).map((m) => m.id),
      ...after.map((m) => m.id),
    ]);
    expect(merged).toMatchObject({ firstItemIndex: 1000, hasOlder: true });
  });

  it('a first message switched: the path is the version and what follows it, nothing older', () => {
    const after = messages(30, 34, 'v', null);
    const merged = mergeNewestPage(messages(0, 10), 1000, after, false, false);
    expect(merged.messages.map((m) => m.id)).toEqual(after.map((m) => m.id));
    expect(merged.hasOlder).toBe(false);
  });

  it('a newest page entirely on a branch that starts before what is loaded replaces it whole', () => {
    // Never the rows of the old branch left above the new one, whatever their seq.
    const merged = mergeNewestPage(
      messages(100, 200),
      1000,
      messages(300, 350, 'v', 'x42'),
      true,
      true,
    );
    expect(merged.messages.map((m) => m.id)).toEqual(messages(300, 350, 'v').map((m) => m.id));
    expect(merged.hasOlder).toBe(true);
  });
});
