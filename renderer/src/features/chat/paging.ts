/**
 * The loaded part of a long conversation: its newest messages, and older pages put before them.
 *
 * The loaded messages are a stretch of the path the conversation shows (see the chat routes): each
 * follows the one before it, and `seq` grows along it.
 *
 * The message list gets `firstItemIndex`, the list position of the first loaded message, lowered
 * by the count of every message put before it, so that the rows already shown keep their place.
 */

/** Far above any conversation's length, so that the index stays positive however much is loaded. */
export const FIRST_ITEM_BASE = 1_000_000_000;

interface Sequenced {
  seq: number;
}

/** A message of the path: it follows `parentId` (null for a first message). */
interface PathMessage extends Sequenced {
  id: string;
  parentId: string | null;
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
 * A part of the shown path fetched again merged into what is loaded: the newest page after a
 * send, an edit or a regenerate, or the path from a message on after the person switched to
 * another version of it. The loaded messages before the part's first message (or up to its
 * parent) stay; everything after is replaced, since the path may have moved onto another branch
 * there. A part that does not join what is loaded (it starts older, or on a branch whose start is
 * not loaded) replaces it whole.
 */
export function mergeNewestPage<T extends PathMessage>(
  loaded: T[],
  firstItemIndex: number,
  page: T[],
  pageHasOlder: boolean,
  loadedHasOlder: boolean,
): { messages: T[]; firstItemIndex: number; hasOlder: boolean } {
  const head = page[0];
  let kept: T[] = [];
  if (head !== undefined) {
    const same = loaded.findIndex((m) => m.id === head.id);
    const parent = head.parentId === null ? -1 : loaded.findIndex((m) => m.id === head.parentId);
    if (same >= 0) kept = loaded.slice(0, same);
    else if (parent >= 0) kept = loaded.slice(0, parent + 1);
  }
  const messages = [...kept, ...page];
  // Rows put before the first loaded one lower the index by as many, to keep it in place.
  const oldFirst = loaded[0]?.id;
  const at = kept.length > 0 ? 0 : messages.findIndex((m) => m.id === oldFirst);
  return {
    messages,
    firstItemIndex: firstItemIndex - Math.max(0, at),
    hasOlder: kept.length > 0 ? loadedHasOlder : pageHasOlder,
  };
}

/**
 * A newer page put after what is loaded (the list reached its end while the path goes on: the
 * person switched a version in the middle of a long path); messages already loaded are not
 * added twice.
 */
export function appendNewerPage<T extends Sequenced>(loaded: T[], page: T[]): T[] {
  const last = loaded.at(-1)?.seq ?? -1;
  return [...loaded, ...page.filter((m) => m.seq > last)];
}
