/**
 * Gathers the pieces of streaming replies and hands them on at most once per interval, all
 * replies together, however fast tokens arrive and however many replies stream: about one IPC
 * message per frame in total instead of one per token (or one per frame per reply, four times
 * as many when four models are compared).
 *
 * Leading edge: text arriving after a quiet interval is sent at once, so a slow stream (or the
 * first words of a reply) is not held back; only text arriving within an interval of the last
 * send waits, until that interval is over.
 *
 * Paced by the page, once it takes part (`frameShown`): after a send, the next one waits for the
 * page to say it is at a new frame, and goes the moment it does. Two independent timers (main's
 * interval and the page's frames) drift against each other, so that text often reached the page
 * just after it had drawn and waited a whole frame more there; following the page's frames, each
 * delta arrives as a frame begins and is shown in it, and a page that falls behind is sent fewer,
 * larger deltas instead of a queue. The interval still holds as a floor (a faster display does
 * not mean more messages), and a page that stops saying so (hidden, reloading, stuck) still gets
 * the text every `stallMs`.
 *
 * Whatever the pace, at most `perSecond` sends a second on average (58: a page drawing 60 frames
 * a second misses one frame in 30, spread out), so that with the few other events and answers of
 * a stream (a reply's end, the list refreshed) the bridge stays within 60 messages a second.
 */
export interface ReplyDelta {
  replyId: string;
  conversationId: string;
  text: string;
}

export interface DeltaPacing {
  /** The shortest time between two sends, in ms: 1000/60, so at most 60 a second. */
  intervalMs?: number;
  /** Paced, the longest a send waits for the page's frame before it goes anyway, in ms. */
  stallMs?: number;
  /** The most sends a second, on average (a bucket of two sends, refilled at this rate). */
  perSecond?: number;
}

/**
 * How early a page's frame may come and still send at once: frames are a display's refresh apart
 * (16.7 ms at 60 Hz), but the message saying so arrives a little early or late.
 */
const FRAME_JITTER_MS = 1;
/** Sends that may go back to back after a quiet spell, for `perSecond`. */
const BURST = 2;

export class DeltaCoalescer {
  readonly #pending = new Map<string, ReplyDelta>();
  readonly #intervalMs: number;
  readonly #stallMs: number;
  /** Sends allowed now (at most BURST), refilled at `perSecond`: a token bucket. */
  #tokens = BURST;
  #tokensAt = Number.NEGATIVE_INFINITY;
  readonly #perMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  /** The page has said it is at a new frame at least once: it paces the sends from now on. */
  #paced = false;
  /** Paced, and a send has gone since the page last said it was at a new frame. */
  #awaitingFrame = false;

  constructor(
    private readonly send: (deltas: ReplyDelta[]) => void,
    pacing: number | DeltaPacing = {},
  ) {
    const options = typeof pacing === 'number' ? { intervalMs: pacing } : pacing;
    this.#intervalMs = options.intervalMs ?? 1000 / 60;
    this.#stallMs = options.stallMs ?? 250;
    this.#perMs = (options.perSecond ?? 58) / 1000;
  }

  push(replyId: string, conversationId: string, text: string): void {
    if (text === '') return;
    const pending = this.#pending.get(replyId);
    if (pending) pending.text += text;
    else this.#pending.set(replyId, { replyId, conversationId, text });
    if (this.#timer !== undefined) return;
    if (this.#awaitingFrame) {
      // The page's next frame sends it; this only bounds the wait for a page that never says.
      const wait = this.#lastSentAt + this.#stallMs - performance.now();
      this.#timer = setTimeout(() => this.flush(), Math.max(0, Math.ceil(wait)));
      return;
    }
    this.#sendWithinInterval();
  }

  /**
   * The page showed what it was sent and is at a new frame: what has gathered since goes now
   * (or once the interval since the last send is over), and the next text after a quiet spell
   * goes at once.
   */
  frameShown(): void {
    this.#paced = true;
    if (!this.#awaitingFrame) return;
    this.#awaitingFrame = false;
    this.#clearTimer();
    if (this.#pending.size > 0) this.#sendWithinInterval(FRAME_JITTER_MS);
  }

  /** Sends what is pending now (before a reply's end is announced). */
  flush(): void {
    this.#clearTimer();
    if (this.#pending.size === 0) return;
    const deltas = [...this.#pending.values()];
    this.#pending.clear();
    this.#lastSentAt = performance.now();
    this.#tokens = this.#tokensNow(this.#lastSentAt) - 1;
    this.#tokensAt = this.#lastSentAt;
    this.#awaitingFrame = this.#paced;
    this.send(deltas);
  }

  #sendWithinInterval(early = 0): void {
    const now = performance.now();
    const forToken = (1 - this.#tokensNow(now)) / this.#perMs;
    const wait = Math.max(this.#lastSentAt + this.#intervalMs - now - early, forToken);
    if (wait <= 0) this.flush();
    // Timers count whole milliseconds: rounded up, a send never comes before the interval is over.
    else this.#timer = setTimeout(() => this.flush(), Math.ceil(wait));
  }

  #tokensNow(now: number): number {
    return Math.min(BURST, this.#tokens + (now - this.#tokensAt) * this.#perMs);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
