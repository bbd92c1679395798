/**
 * Gathers the pieces of a streaming reply and hands them on at most once per interval, however
 * fast tokens arrive: about one IPC message per frame instead of one per token.
 *
 * Leading edge: text arriving after a quiet interval is sent at once, so a slow stream (or the
 * first words of a reply) is not held back; only text arriving within an interval of the last
 * send waits, until that interval is over.
 */
export class DeltaCoalescer {
  #pending = '';
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastSentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly send: (text: string) => void,
    private readonly intervalMs = 17,
  ) {}

  push(text: string): void {
    if (text === '') return;
    this.#pending += text;
    if (this.#timer !== undefined) return;
    const wait = this.#lastSentAt + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else this.#timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends what is pending now (before the reply's end is announced). */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending === '') return;
    const text = this.#pending;
    this.#pending = '';
    this.#lastSentAt = Date.now();
    this.send(text);
  }
}
