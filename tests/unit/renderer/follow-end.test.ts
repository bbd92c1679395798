import { describe, expect, it } from 'vitest';
import { followEnd, type FollowedBox } from '../../../renderer/src/features/chat/follow-end';

/**
 * A scrolled box as the page's layout would report it: `height` of content in a 100 px view. Reads
 * of its geometry are counted: in the page each one lays out whatever changed since the last frame.
 */
function fakeBox() {
  const listeners = new Map<string, Set<() => void>>();
  let top = 0;
  const box = {
    height: 100,
    reads: 0,
    get scrollTop(): number {
      box.reads++;
      return top;
    },
    set scrollTop(value: number) {
      const next = Math.max(0, Math.min(value, box.height - 100));
      if (next === top) return;
      top = next;
      // A scroll's event comes later (at the next frame), as in the page.
      box.pendingScroll = true;
    },
    get scrollHeight(): number {
      box.reads++;
      return box.height;
    },
    get clientHeight(): number {
      box.reads++;
      return 100;
    },
    pendingScroll: false,
    addEventListener(type: string, listener: () => void) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(listener);
    },
    removeEventListener(type: string, listener: () => void) {
      listeners.get(type)?.delete(listener);
    },
    dispatch(type: string): void {
      for (const listener of listeners.get(type) ?? []) listener();
    },
    /** The next frame: the scroll events of the last one's scrolls, then the scroll's end. */
    frame(): void {
      if (!box.pendingScroll) return;
      box.pendingScroll = false;
      box.dispatch('scroll');
      box.dispatch('scrollend');
    },
    /** The top, without counting a read. */
    get top(): number {
      return top;
    },
  } satisfies FollowedBox & Record<string, unknown>;
  return box;
}

function follow() {
  const box = fakeBox();
  let grew = () => undefined as void;
  const stop = followEnd(box, 'content', (_target, callback) => {
    grew = callback;
    return () => undefined;
  });
  /** The content grows by `px`: the next layout reports it, the frame after shows the scroll. */
  const grow = (px: number) => {
    box.height += px;
    grew();
    box.frame();
  };
  return { box, grow, stop };
}

describe('followEnd', () => {
  it('keeps a growing box at its end', () => {
    const { box, grow } = follow();
    for (let i = 0; i < 5; i++) grow(80);
    expect(box.top).toBe(box.height - 100);
  });

  it('reads no layout for the scrolls it makes itself (one a frame, four columns at once)', () => {
    const { box, grow } = follow();
    grow(80);
    for (let i = 0; i < 10; i++) {
      // What the page changed between two frames: a read now would lay it out ahead of the frame.
      // (Reads after the layout, when the content's growth is reported, cost nothing.)
      box.reads = 0;
      box.height += 40;
      box.frame();
      expect(box.reads).toBe(0);
      grow(0);
    }
  });

  it('stays where the person scrolled up to, then follows again from the end', () => {
    const { box, grow } = follow();
    grow(400);
    // The person scrolls up with the wheel.
    box.dispatch('wheel');
    box.scrollTop = 100;
    box.frame();
    grow(80);
    grow(80);
    expect(box.top).toBe(100);
    // Back down to the end: following again.
    box.dispatch('wheel');
    box.scrollTop = box.height;
    box.frame();
    grow(80);
    expect(box.top).toBe(box.height - 100);
  });

  it('stays where the person dragged the scroll bar or pressed a key to', () => {
    for (const gesture of ['pointerdown', 'keydown']) {
      const { box, grow } = follow();
      grow(400);
      box.dispatch(gesture);
      box.scrollTop = 50;
      box.frame();
      grow(80);
      expect(box.top).toBe(50);
    }
  });

  it('stops listening when stopped', () => {
    const { box, grow, stop } = follow();
    grow(200);
    stop();
    box.dispatch('wheel');
    box.scrollTop = 0;
    box.frame();
    expect(box.top).toBe(0);
  });
});
