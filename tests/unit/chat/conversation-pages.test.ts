/**
 * The sidebar's list loaded a page at a time: pages added in main's order without doubles, and
 * the first page read again (after a change in main) without losing what was loaded beyond it.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../electron/shared/ipc/routes/chat';
import {
  appendPage,
  compareConversations,
  placeConversation,
  refreshFirstPage,
  sectionHeading,
} from '../../../renderer/src/features/chat/conversation-pages';

function conversation(id: string, updatedAt: string, pinned = false): ConversationSummary {
  return {
    id,
    title: id,
    createdAt: updatedAt,
    updatedAt,
    pinned,
    model: null,
    systemPrompt: '',
    temperature: null,
    maxTokens: null,
    messageCount: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    forkedFrom: null,
  };
}

const day = (d: number) => `2026-01-${String(d).padStart(2, '0')}T00:00:00.000Z`;
const ids = (list: ConversationSummary[]) => list.map((c) => c.id);

describe('conversation pages', () => {
  it('orders as main does: pinned, newest activity, then id, to the last tie', () => {
    const list = [
      conversation('a', day(1)),
      conversation('b', day(3)),
      conversation('c', day(2), true),
      conversation('d', day(3)),
    ].sort(compareConversations);
    expect(ids(list)).toEqual(['c', 'd', 'b', 'a']);
  });

  it('adds a page after what is loaded, without a conversation twice', () => {
    const loaded = [
      conversation('e', day(9)),
      conversation('d', day(8)),
      conversation('x', day(2)),
    ];
    // 'x' was opened from a search hit before its page was loaded.
    const next = [conversation('c', day(7)), conversation('b', day(5)), conversation('x', day(2))];
    expect(ids(appendPage(loaded, next))).toEqual(['e', 'd', 'c', 'b', 'x']);
  });

  it('puts a changed conversation in its place, once', () => {
    const list = ['e', 'd', 'c', 'b', 'a'].map((id, i) => conversation(id, day(9 - i)));
    expect(ids(placeConversation(list, conversation('b', day(20))))).toEqual([
      'b',
      'e',
      'd',
      'c',
      'a',
    ]);
    expect(ids(placeConversation(list, conversation('z', day(6))))).toEqual([
      'e',
      'd',
      'c',
      'z',
      'b',
      'a',
    ]);
    expect(ids(placeConversation(list, conversation('p', day(1), true)))).toEqual([
      'p',
      'e',
      'd',
      'c',
      'b',
      'a',
    ]);
  });

  it('reads the first page again: a conversation moved to the top, the rest loaded stays', () => {
    const loaded = ['f', 'e', 'd', 'c', 'b', 'a'].map((id, i) => conversation(id, day(9 - i)));
    // A reply finished in 'c': it is now the newest; 'e' was deleted elsewhere.
    const first = [
      conversation('c', day(20)),
      conversation('f', day(9)),
      conversation('d', day(7)),
    ];
    expect(ids(refreshFirstPage(loaded, first, 3))).toEqual(['c', 'f', 'd', 'b', 'a']);
  });

  it('takes a short first page as the whole list', () => {
    const loaded = ['c', 'b', 'a'].map((id, i) => conversation(id, day(9 - i)));
    expect(ids(refreshFirstPage(loaded, [conversation('b', day(8))], 3))).toEqual(['b']);
  });
});

describe('the list’s sections', () => {
  const headings = (list: ConversationSummary[]) =>
    list.map((_, index) => sectionHeading(list, index) ?? null);

  it('heads the pinned rows as pinned and the others as recent, only once there are pins', () => {
    const none = [conversation('a', day(3)), conversation('b', day(2))];
    expect(headings(none)).toEqual([null, null]);
    const some = [
      conversation('p1', day(1), true),
      conversation('p2', day(1), true),
      conversation('a', day(3)),
      conversation('b', day(2)),
    ];
    expect(headings(some)).toEqual(['pinned', null, 'recent', null]);
    const all = [conversation('p1', day(1), true), conversation('p2', day(1), true)];
    expect(headings(all)).toEqual(['pinned', null]);
    expect(sectionHeading(some, 9)).toBeUndefined();
  });

  it('keeps one heading each as a pin moves a row and pages come in', () => {
    let list = [conversation('a', day(5)), conversation('b', day(4)), conversation('c', day(3))];
    // "c" pinned: it moves to the top, under "Pinned", and "Recent" heads the rest.
    list = placeConversation(list, { ...list[2]!, pinned: true });
    expect(ids(list)).toEqual(['c', 'a', 'b']);
    expect(headings(list)).toEqual(['pinned', 'recent', null]);
    // A later page, older conversations: no heading added.
    list = appendPage(list, [conversation('d', day(2)), conversation('e', day(1))]);
    expect(headings(list)).toEqual(['pinned', 'recent', null, null, null]);
    // Unpinned again: back among the others by its activity, and no heading at all.
    list = placeConversation(list, { ...list[0]!, pinned: false });
    expect(ids(list)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(headings(list)).toEqual([null, null, null, null, null]);
  });
});
