/**
 * Gathers streamed text per reply and hands it on at most once per animation frame, so React
 * renders at most once a frame however fast deltas arrive.
 */
export interface FrameCoalescer {
  /** Queues `text` to be appended to reply `id`'s text at the next frame. */
  push(id: string, text: string): void;
  /** Hands on everything queued now (a reply finished: no frame's wait for its last words). */
  flush(): void;
  /** Drops what is queued for reply `id`. */
  discard(id: string): void;
}

export type FrameScheduler = (callback: () => void) => void;

const nextFrame: FrameScheduler = (callback) => {
  requestAnimationFrame(() => callback());
};

export function createFrameCoalescer(
  apply: (appended: ReadonlyMap<string, string>) => void,
  schedule: FrameScheduler = nextFrame,
): FrameCoalescer {
  let pending = new Map<string, string[]>();
  let scheduled = false;

  function flush() {
    scheduled = false;
    if (pending.size === 0) return;
    const batch = new Map<string, string>();
    for (const [id, parts] of pending) batch.set(id, parts.join(''));
    pending = new Map();
    apply(batch);
  }

  return {
    push(id, text) {
      if (text === '') return;
      const parts = pending.get(id);
      if (parts) parts.push(text);
      else pending.set(id, [text]);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
    discard(id) {
      pending.delete(id);
    },
  };
}
