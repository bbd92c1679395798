import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The page's frames, run by hand: the stream store asks for them with requestAnimationFrame. */
const frames: Array<() => void> = [];
const globals = globalThis as unknown as Record<string, unknown>;

beforeAll(() => {
  globals.window = {};
  globals.requestAnimationFrame = (callback: () => void) => frames.push(callback);
});
afterAll(() => {
  delete globals.window;
  delete globals.requestAnimationFrame;
});

function runFrame() {
  for (const callback of frames.splice(0)) callback();
}

describe('stream store', () => {
  it('shows every reply of one message of deltas at once: compared replies grow together', async () => {
    const { streamDeltasReceived, useStreamStore } =
      await import('../../../renderer/src/features/chat/stream-store');
    const replies = ['a', 'b', 'c', 'd'];
    for (const id of replies) useStreamStore.getState().streamStarted(id);
    let applies = 0;
    const stop = useStreamStore.subscribe(() => applies++);

    // Main gathers the four replies' text into one message: one apply shows all of it.
    streamDeltasReceived(replies.map((replyId) => ({ replyId, text: `${replyId}1 ` })));
    expect(useStreamStore.getState().texts).toEqual({ a: 'a1 ', b: 'b1 ', c: 'c1 ', d: 'd1 ' });
    expect(applies).toBe(1);

    // A second message in the same frame waits for the next frame, all of it together.
    streamDeltasReceived(replies.map((replyId) => ({ replyId, text: `${replyId}2 ` })));
    expect(useStreamStore.getState().texts.d).toBe('d1 ');
    runFrame();
    expect(useStreamStore.getState().texts).toEqual({
      a: 'a1 a2 ',
      b: 'b1 b2 ',
      c: 'c1 c2 ',
      d: 'd1 d2 ',
    });
    expect(applies).toBe(2);
    stop();
    // The frame's callback queued a task that tells main the frame is drawn: let it run while
    // the page's stand-ins are still here.
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});
