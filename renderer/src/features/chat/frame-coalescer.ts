/**
 * Gathers streamed text per reply and hands it on at most once per animation frame, so React
 * renders at most once a frame however fast deltas arrive; text arriving in a frame that has had
 * no apply yet goes at once. At the frame after each apply it says so (`frameShown`): main sends
 * the next text then, so that it arrives as a frame begins and is shown at once, rather than on a
 * timer of its own that drifts against the page's frames.
 */
export interface FrameCoalescer {
  /** Appends `text` to reply `id`'s text: now if this frame has had no apply, else next frame. */
  push(id: string, text: string): void;
  /** Hands on everything queued now (a reply finished: no frame's wait for its last words). */
  flush(): void;
  /** Drops what is queued for reply `id`. */
  discard(id: string): void;
}

export type FrameScheduler = (callback: () => void) => void;

export function createFrameCoalescer(
  apply: (appended: ReadonlyMap<string, string>) => void,
  /** Runs a callback at the next frame (requestAnimationFrame in the page). */
  schedule: FrameScheduler,
  /** Told at the first frame after each apply: the page is ready for more text. */
  frameShown: () => void = () => undefined,
): FrameCoalescer {
  let pending = new Map<string, string[]>();
  // True from an apply until the next frame: text arriving then waits for that frame. Text
  // arriving in a frame with no apply yet is applied at once (leading edge), so a stream already
  // paced by main (about one message a frame) is shown without a further frame's wait.
  let coolingDown = false;

  function flush() {
    if (pending.size === 0) return;
    const batch = new Map<string, string>();
    for (const [id, parts] of pending) batch.set(id, parts.join(''));
    pending = new Map();
    apply(batch);
  }

  function coolDown() {
    coolingDown = true;
    schedule(() => {
      coolingDown = false;
      if (pending.size > 0) {
        flush();
        coolDown();
      }
      frameShown();
    });
  }

  return {
    push(id, text) {
      if (text === '') return;
      const parts = pending.get(id);
      if (parts) parts.push(text);
      else pending.set(id, [text]);
      if (coolingDown) return;
      flush();
      coolDown();
    },
    flush,
    discard(id) {
      pending.delete(id);
    },
  };
}
