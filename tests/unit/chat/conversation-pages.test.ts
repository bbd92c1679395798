/**
 * The sidebar's list loaded a page at a time: pages added in main's order without doubles, and
 * the first page read again (after a change in main) without losing what was loaded beyond it.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../electron/shared/ipc/routes/chat';
import { conversationSummary } from '../../fakes/conversation-summary';
import {
  appendPage,
  compareConversations,
  placeConversation,
  refreshFirstPage,
  sectionHeading,
  sectionOf,
} from '../../../renderer/src/features/chat/conversation-pages';

function conversation(id: string, updatedAt: string, pinned = false): ConversationSummary {
  return conversationSummary({ id, createdAt: updatedAt, updatedAt, pinned, model: null });
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
  // Local times (the sections follow this machine's days), now: 31 January 2026, 10:00.
  const now = new Date(2026, 0, 31, 10);
  const at = (month: number, date: number, hour = 12) =>
    new Date(2026, month - 1, date, hour).toISOString();
  const headings = (list: ConversationSummary[]) =>
    list.map((_, index) => sectionHeading(list, index, now) ?? null);

  it('puts each conversation under today, yesterday, the last 7 or 30 days, or its month', () => {
    const cases: [string, ReturnType<typeof sectionOf>][] = [
      [at(1, 31, 0), 'today'],
      [at(1, 31, 23), 'today'],
      // A clock set back: activity "in the future" is today's.
      [at(2, 3), 'today'],
      [at(1, 30, 23), 'yesterday'],
      [at(1, 30, 0), 'yesterday'],
      [at(1, 29), 'week'],
      [at(1, 24, 0), 'week'],
      [at(1, 23, 23), 'month'],
      [at(1, 1, 0), 'month'],
      [new Date(2025, 11, 31, 23).toISOString(), { year: 2025, month: 12 }],
      [new Date(2025, 2, 1).toISOString(), { year: 2025, month: 3 }],
    ];
    for (const [updatedAt, section] of cases)
      expect(sectionOf(conversation('x', updatedAt), now), updatedAt).toEqual(section);
    expect(sectionOf(conversation('x', at(1, 31), true), now)).toBe('pinned');
  });

  it('heads each run of rows once: pinned first, then by day, then by month', () => {
    const list = [
      conversation('p1', at(1, 2), true),
      conversation('p2', new Date(2024, 5, 1).toISOString(), true),
      conversation('a', at(1, 31, 9)),
      conversation('b', at(1, 31, 8)),
      conversation('c', at(1, 30)),
      conversation('d', at(1, 26)),
      conversation('e', at(1, 20)),
      conversation('f', at(1, 2)),
      conversation('g', new Date(2025, 11, 20).toISOString()),
      conversation('h', new Date(2025, 11, 2).toISOString()),
      conversation('i', new Date(2025, 10, 2).toISOString()),
    ];
    expect(headings(list)).toEqual([
      'pinned',
      null,
      'today',
      null,
      'yesterday',
      'week',
      'month',
      null,
      { year: 2025, month: 12 },
      null,
      { year: 2025, month: 11 },
    ]);
    expect(sectionHeading(list, 99, now)).toBeUndefined();
  });

  it('keeps one heading each as a pin moves a row and pages come in', () => {
    let list = [
      conversation('a', at(1, 31, 5)),
      conversation('b', at(1, 31, 4)),
      conversation('c', at(1, 31, 3)),
    ];
    expect(headings(list)).toEqual(['today', null, null]);
    // "c" pinned: it moves to the top, under "Pinned", and "Today" heads the rest.
    list = placeConversation(list, { ...list[2]!, pinned: true });
    expect(ids(list)).toEqual(['c', 'a', 'b']);
    expect(headings(list)).toEqual(['pinned', 'today', null]);
    // A later page, older conversations: their sections follow.
    list = appendPage(list, [conversation('d', at(1, 30)), conversation('e', at(1, 29))]);
    expect(headings(list)).toEqual(['pinned', 'today', null, 'yesterday', 'week']);
    // Unpinned again: back among the others by its activity, under "Today".
    list = placeConversation(list, { ...list[0]!, pinned: false });
    expect(ids(list)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(headings(list)).toEqual(['today', null, null, 'yesterday', 'week']);
  });
});
