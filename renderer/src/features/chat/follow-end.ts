/**
 * A scrolled box that follows the end of what it holds while that grows (a compared reply's
 * column): whenever the content grows, seen after layout and before paint, the box is scrolled to
 * its end, unless the person scrolled up; then it stays where they read until they scroll back to
 * the end.
 */

/** How near its end (px) a box counts as read to the end: it follows the text from there. */
export const AT_END_PX = 24;

/** What following needs of the scrolled box (an element in the page). */
export interface FollowedBox {
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  addEventListener(type: string, listener: () => void, options?: { passive?: boolean }): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** Calls `grew` after each layout in which `target` changed size; returns a stop. */
export type WatchSize<T> = (target: T, grew: () => void) => () => void;

/** What the person does to scroll a box: the wheel, a touch, a key, the scroll bar. */
const GESTURES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Follows the end of `box` while `content` grows; returns a stop.
 *
 * The scrolls it makes itself (one a frame while following) read no geometry: a scroll's event
 * comes at the next frame, after the page changed the text again, and a read there laid out the
 * new text ahead of the frame's own layout, in each column (with four columns streaming, the
 * first of those reads was most of a frame's layout, done twice). While it follows, a scroll is
 * looked at only after a gesture of the person's; once they have scrolled away, every scroll is
 * theirs (nothing else scrolls the box) and is looked at.
 */
export function followEnd<T>(box: FollowedBox, content: T, watchSize: WatchSize<T>): () => void {
  let following = true;
  let lastTop = box.scrollTop;
  /** A gesture of the person's since their last scroll ended. */
  let gesture = false;
  const onGesture = () => {
    gesture = true;
  };
  const onScrollEnd = () => {
    gesture = false;
  };
  const onScroll = () => {
    if (following && !gesture) return;
    const top = box.scrollTop;
    const distance = box.scrollHeight - top - box.clientHeight;
    // Following only ever scrolls down: a scroll up is the person's.
    if (distance <= AT_END_PX) following = true;
    else if (top < lastTop - 1) following = false;
    lastTop = top;
  };
  const stopWatching = watchSize(content, () => {
    if (!following) return;
    // After layout and before paint: the geometry is fresh, reading it costs nothing.
    box.scrollTop = box.scrollHeight;
    lastTop = box.scrollTop;
  });
  for (const type of GESTURES) box.addEventListener(type, onGesture, { passive: true });
  box.addEventListener('scroll', onScroll, { passive: true });
  box.addEventListener('scrollend', onScrollEnd, { passive: true });
  return () => {
    for (const type of GESTURES) box.removeEventListener(type, onGesture);
    box.removeEventListener('scroll', onScroll);
    box.removeEventListener('scrollend', onScrollEnd);
    stopWatching();
  };
}
