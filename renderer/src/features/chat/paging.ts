/**
 * The loaded part of a long conversation: its newest messages, and older pages put before them.
 *
 * The message list gets `firstItemIndex`, the list position of the first loaded message, lowered
 * by the count of every message put before it, so that the rows already shown keep their place.
 */

/** Far above any conversation's length, so that the index stays positive however much is loaded. */
export const FIRST_ITEM_BASE = 1_000_000_000;

interface Sequenced {
  seq: number;
}

/** An older page put before what is loaded; messages already loaded are not added twice. */
export function prependOlderPage<T extends Sequenced>(
  loaded: T[],
  firstItemIndex: number,
  page: T[],
): { messages: T[]; firstItemIndex: number } {
  const first = loaded[0]?.seq ?? Number.MAX_SAFE_INTEGER;
  const older = page.filter((m) => m.seq < first);
  return { messages: [...older, ...loaded], firstItemIndex: firstItemIndex - older.length };
}

/**
 * The newest page fetched again (after a send, an edit or a regenerate) merged into what is
 * loaded: the older messages stay, everything from the page's first message on is replaced.
 */
export function mergeNewestPage<T extends Sequenced>(
  loaded: T[],
  firstItemIndex: number,
  page: T[],
  pageHasOlder: boolean,
  loadedHasOlder: boolean,
): { messages: T[]; firstItemIndex: number; hasOlder: boolean } {
  const from = page[0]?.seq;
  const kept = from === undefined ? [] : loaded.filter((m) => m.seq < from);
  const messages = [...kept, ...page];
  const oldFirst = loaded[0]?.seq;
  const before = oldFirst === undefined ? 0 : messages.filter((m) => m.seq < oldFirst).length;
  return {
    messages,
    firstItemIndex: firstItemIndex - before,
    hasOlder: kept.length > 0 ? loadedHasOlder : pageHasOlder,
  };
}
