/**
 * The text of replies while they stream, kept apart from the conversation store so that a
 * frame's update touches only the reply that grew.
 */
import { create } from 'zustand';
import { relayBridge } from '../../lib/relay-bridge';
import { createFrameCoalescer } from './frame-coalescer';

export interface StreamState {
  /** Each streaming reply's text so far, by reply id. */
  texts: Record<string, string>;
  deltasApplied(appended: ReadonlyMap<string, string>): void;
  streamStarted(replyId: string, text?: string): void;
  streamEnded(replyId: string): void;
}

export const useStreamStore = create<StreamState>()((set) => ({
  texts: {},
  deltasApplied: (appended) =>
    set((state) => {
      const texts = { ...state.texts };
      for (const [id, text] of appended) texts[id] = (texts[id] ?? '') + text;
      return { texts };
    }),
  streamStarted: (replyId, text = '') =>
    set((state) => ({ texts: { ...state.texts, [replyId]: text } })),
  streamEnded: (replyId) =>
    set((state) => {
      if (!(replyId in state.texts)) return {};
      const texts = { ...state.texts };
      delete texts[replyId];
      return { texts };
    }),
}));

const coalescer = createFrameCoalescer(
  (appended) => useStreamStore.getState().deltasApplied(appended),
  (callback) => requestAnimationFrame(() => callback()),
  // Main sends the next deltas when the page has drawn its next frame (one way: no answer comes).
  () => relayBridge()?.chatFrameReady(),
  // Queued from the frame's callback, a task runs once the frame's rendering is done.
  (callback) => setTimeout(callback, 0),
);

/**
 * One message of main's deltas (every reply that grew): shown now, all together, or at the next
 * frame with any others if this frame had an apply already.
 */
export function streamDeltasReceived(
  deltas: ReadonlyArray<{ replyId: string; text: string }>,
): void {
  coalescer.pushAll(deltas.map(({ replyId, text }) => [replyId, text] as const));
}

/** Applies whatever is still queued, at once (the reply finished or stopped). */
export function flushStreamDeltas(): void {
  coalescer.flush();
}

export function discardStreamDeltas(replyId: string): void {
  coalescer.discard(replyId);
}
