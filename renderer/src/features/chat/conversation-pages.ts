/**
 * The conversation list, loaded a page at a time as the sidebar scrolls: years of conversations
 * (20,000 of them) are not read, sent and held at each start, only the first screenfuls.
 *
 * The order is main's, to the last tie: pinned first, then by last activity, newest first, then by
 * id. A page goes on from the last conversation of the page before (a cursor kept apart from the
 * list, since a conversation opened from elsewhere, a search hit, may sit beyond what is loaded).
 */
/** Conversations per page of the sidebar. */
export const CONVERSATION_PAGE = 200;

export interface ConversationCursor {
  pinned: boolean;
  updatedAt: string;
  id: string;
}

/** Main's order: negative when `a` comes first. */
export function compareConversations(a: ConversationCursor, b: ConversationCursor): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  if (a.id !== b.id) return a.id > b.id ? -1 : 1;
  return 0;
}

export function sortConversations<T extends ConversationCursor>(list: readonly T[]): T[] {
  return [...list].sort(compareConversations);
}

export function cursorOf(conversation: ConversationCursor): ConversationCursor {
  return { pinned: conversation.pinned, updatedAt: conversation.updatedAt, id: conversation.id };
}

/** The next page added to what is loaded: no conversation twice, in order. */
export function appendPage<T extends ConversationCursor>(
  loaded: readonly T[],
  page: readonly T[],
): T[] {
  const ids = new Set(page.map((c) => c.id));
  const kept = loaded.filter((c) => !ids.has(c.id));
  const last = kept.at(-1);
  const first = page[0];
  // The usual case, a page that goes on after what is loaded: no sort of 20,000 rows.
  if (!last || !first || compareConversations(last, first) < 0) return [...kept, ...page];
  return sortConversations([...kept, ...page]);
}

/** `conversation` in its place in a sorted list (replacing the one of the same id). */
export function placeConversation<T extends ConversationCursor>(
  list: readonly T[],
  conversation: T,
): T[] {
  const others = list.filter((c) => c.id !== conversation.id);
  let low = 0;
  let high = others.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareConversations(others[middle]!, conversation) < 0) low = middle + 1;
    else high = middle;
  }
  others.splice(low, 0, conversation);
  return others;
}

/**
 * The first page read again (something changed in main: a reply finished, a title): it replaces
 * what it covers, and what was loaded beyond it stays. A conversation that was within the first
 * page's span but is not in it any more has moved (it is in the new page) or is gone.
 */
export function refreshFirstPage<T extends ConversationCursor>(
  loaded: readonly T[],
  first: readonly T[],
  pageSize: number,
): T[] {
  const last = first.at(-1);
  if (first.length < pageSize || last === undefined) return sortConversations(first);
  const ids = new Set(first.map((c) => c.id));
  const beyond = loaded.filter((c) => !ids.has(c.id) && compareConversations(c, last) > 0);
  return sortConversations([...first, ...beyond]);
}

/**
 * The section a conversation is listed under: "Pinned", then by its last activity in this
 * machine's time zone, as `now` sees it: today, yesterday, the 7 days before, the 30 days before,
 * then its month (`2026-03`). Main's order (pinned, then newest first) keeps each section in one
 * run of rows.
 */
export type ListSection =
  'pinned' | 'today' | 'yesterday' | 'week' | 'month' | { year: number; month: number };

const DAY_MS = 86_400_000;

/** Days from the start of `at`'s local day to the start of `now`'s (0: the same day). */
function daysBefore(at: Date, now: Date): number {
  const start = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  // Rounded: a day with a clock change is 23 or 25 hours long.
  return Math.round((start(now) - start(at)) / DAY_MS);
}

export function sectionOf(
  conversation: { pinned: boolean; updatedAt: string },
  now: Date,
): ListSection {
  if (conversation.pinned) return 'pinned';
  const at = new Date(conversation.updatedAt);
  if (Number.isNaN(at.getTime())) return 'month';
  const days = daysBefore(at, now);
  // A clock set back leaves activity "in the future": it counts as today.
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days <= 7) return 'week';
  if (days <= 30) return 'month';
  return { year: at.getFullYear(), month: at.getMonth() + 1 };
}

function sameSection(a: ListSection, b: ListSection): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.year === b.year && a.month === b.month;
}

/**
 * The section a row starts, when it starts one (the first row, or one whose section differs from
 * the row above's). The list names it in the person's language.
 */
export function sectionHeading(
  list: readonly { pinned: boolean; updatedAt: string }[],
  index: number,
  now: Date,
): ListSection | undefined {
  const row = list[index];
  if (!row) return undefined;
  const section = sectionOf(row, now);
  const above = list[index - 1];
  if (above && sameSection(sectionOf(above, now), section)) return undefined;
  return section;
}
