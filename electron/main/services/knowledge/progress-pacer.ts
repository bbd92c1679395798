/**
 * Indexing's progress, handed on at most once per interval: the first update at once, then only
 * the latest one at the end of each interval, and whatever is pending when the phase ends.
 * Indexing 50,000 chunks makes thousands of updates (one per file read, one per batch
 * embedded); a progress bar needs about ten a second, and each one sent costs the page a render.
 */
export class ProgressPacer<T> {
  #pending: { value: T } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastSentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly send: (value: T) => void,
    private readonly intervalMs: number,
  ) {}

  update(value: T): void {
    this.#pending = { value };
    if (this.#timer !== undefined) return;
    const wait = this.#lastSentAt + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else this.#timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends the pending update now (at the end of a phase); nothing when none is pending. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    this.#lastSentAt = Date.now();
    this.send(pending.value);
  }
}
