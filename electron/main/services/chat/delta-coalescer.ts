/**
 * Gathers the pieces of a streaming reply and hands them on at most once per interval, however
 * fast tokens arrive: one IPC message per frame instead of one per token.
 */
export class DeltaCoalescer {
  #pending = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (text: string) => void,
    private readonly intervalMs = 17,
  ) {}

  push(text: string): void {
    if (text === '') return;
    this.#pending += text;
    this.#timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Sends what is pending now (before the reply's end is announced). */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending === '') return;
    const text = this.#pending;
    this.#pending = '';
    this.send(text);
  }
}
