/** A clock the test moves by hand: `advance` fires the timers that fall due, one at a time. */
import type { Clock } from '../../electron/main/services/backups/schedule';

export class FakeClock implements Clock {
  #now: number;
  #timers: Array<{ at: number; run: () => void; id: number }> = [];
  #nextId = 1;

  constructor(start: Date | string) {
    this.#now = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  setTimer(ms: number, run: () => void): () => void {
    const id = this.#nextId++;
    this.#timers.push({ at: this.#now + Math.max(0, ms), run, id });
    return () => {
      this.#timers = this.#timers.filter((t) => t.id !== id);
    };
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.#timers.length;
  }

  /**
   * Moves time on by `ms`, firing each timer at its moment; after each, `settle` is awaited so
   * the work it started (and the next timer it sets) happens before time moves on.
   */
  async advance(ms: number, settle: () => Promise<unknown> = async () => undefined): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      const next = [...this.#timers].sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (next === undefined || next.at > target) break;
      this.#timers = this.#timers.filter((t) => t.id !== next.id);
      this.#now = Math.max(this.#now, next.at);
      next.run();
      await settle();
    }
    this.#now = target;
  }

  /**
   * Moves time on by `ms` as a computer asleep sees it: nothing fires meanwhile, then every timer
   * already waiting fires once, late, at the moment of waking.
   */
  async sleep(ms: number, settle: () => Promise<unknown> = async () => undefined): Promise<void> {
    this.#now += ms;
    const due = this.#timers.filter((t) => t.at <= this.#now);
    this.#timers = this.#timers.filter((t) => t.at > this.#now);
    for (const timer of due.sort((a, b) => a.at - b.at || a.id - b.id)) {
      timer.run();
      await settle();
    }
  }
}
