/**
 * Gathers the pieces of streaming replies and hands them on at most once per interval, all
 * replies together, however fast tokens arrive and however many replies stream: about one IPC
 * message per frame in total instead of one per token (or one per frame per reply, four times
 * as many when four models are compared).
 *
 * Leading edge: text arriving after a quiet interval is sent at once, so a slow stream (or the
 * first words of a reply) is not held back; only text arriving within an interval of the last
 * send waits, until that interval is over.
 */
export interface ReplyDelta {
  replyId: string;
  conversationId: string;
  text: string;
}

export class DeltaCoalescer {
  readonly #pending = new Map<string, ReplyDelta>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastSentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly send: (deltas: ReplyDelta[]) => void,
    private readonly intervalMs = 17,
  ) {}

  push(replyId: string, conversationId: string, text: string): void {
    if (text === '') return;
    const pending = this.#pending.get(replyId);
    if (pending) pending.text += text;
    else this.#pending.set(replyId, { replyId, conversationId, text });
    if (this.#timer !== undefined) return;
    const wait = this.#lastSentAt + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else this.#timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends what is pending now (before a reply's end is announced). */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    const deltas = [...this.#pending.values()];
    this.#pending.clear();
    this.#lastSentAt = Date.now();
    this.send(deltas);
  }
}
