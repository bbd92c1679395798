/**
 * Gathers streamed text per reply and hands it on at most once per animation frame, so React
 * renders at most once a frame however fast deltas arrive; text arriving in a frame that has had
 * no apply yet goes at once. Once the frame after each apply has been drawn it says so
 * (`frameShown`): main sends the next text then, so that it arrives while the page is idle and is
 * shown at once, rather than on a timer of its own that drifts against the page's frames.
 *
 * Said after the frame's style, layout and paint (`afterRendering`), not at its start: said at
 * the start, main's answer reached a page still drawing that frame (several milliseconds with
 * four long replies side by side) and waited behind it before it could be shown.
 */
export interface FrameCoalescer {
  /** Appends `text` to reply `id`'s text: now if this frame has had no apply, else next frame. */
  push(id: string, text: string): void;
  /**
   * Appends each piece to its reply's text, all in one apply: now if this frame has had no apply,
   * else next frame. One message from main carries every reply that grew (four compared ones),
   * and pushed one by one only the first would be shown now and the rest a frame later.
   */
  pushAll(pieces: Iterable<readonly [id: string, text: string]>): void;
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
  /** Told once the first frame after each apply is drawn: the page is ready for more text. */
  frameShown: () => void = () => undefined,
  /**
   * Runs a callback once the frame being produced is drawn: in the page a task queued from the
   * frame's callback, which runs after that frame's rendering. By default, at once.
   */
  afterRendering: FrameScheduler = (callback) => callback(),
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
      afterRendering(frameShown);
    });
  }

  function pushAll(pieces: Iterable<readonly [id: string, text: string]>) {
    let added = false;
    for (const [id, text] of pieces) {
      if (text === '') continue;
      const parts = pending.get(id);
      if (parts) parts.push(text);
      else pending.set(id, [text]);
      added = true;
    }
    if (!added || coolingDown) return;
    flush();
    coolDown();
  }

  return {
    push: (id, text) => pushAll([[id, text]]),
    pushAll,
    flush,
    discard(id) {
      pending.delete(id);
    },
  };
}
