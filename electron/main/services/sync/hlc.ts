/**
 * A hybrid logical clock: the order in which sync settles "who changed it last".
 *
 * A stamp is the wall time in milliseconds, a counter and the device's id, written so that
 * comparing two stamps as strings compares them as clocks (fixed-width base 36). A device's clock
 * never goes backwards and, once it has seen another device's stamp, every change it makes after
 * stamps later than that one: an edit made after seeing a change wins over it whatever either
 * computer's wall clock says, so a computer an hour fast cannot overrule what was done after it
 * looked, and one an hour slow is not overruled by what it already saw. Only changes made
 * without seeing each other are ordered by wall time, and that wall time is the storage's when
 * the storage tells it (`SyncEngine` measures the offset from its answers' Date headers).
 */
const WALL_WIDTH = 9;
const COUNTER_WIDTH = 4;
const COUNTER_MAX = 36 ** COUNTER_WIDTH - 1;

/** A stamp no change ever has: before every other. */
export const ZERO_STAMP = `${'0'.repeat(WALL_WIDTH)}:${'0'.repeat(COUNTER_WIDTH)}:`;

export interface StampParts {
  wall: number;
  counter: number;
  device: string;
}

export function encodeStamp({ wall, counter, device }: StampParts): string {
  return `${Math.max(0, Math.floor(wall)).toString(36).padStart(WALL_WIDTH, '0')}:${counter
    .toString(36)
    .padStart(COUNTER_WIDTH, '0')}:${device}`;
}

const STAMP = /^([0-9a-z]{9}):([0-9a-z]{4}):([0-9a-z-]{0,64})$/;

export function isStamp(value: unknown): value is string {
  return typeof value === 'string' && STAMP.test(value);
}

export function decodeStamp(stamp: string): StampParts {
  const match = STAMP.exec(stamp);
  if (match === null) throw new Error(`not a clock stamp: ${stamp.slice(0, 80)}`);
  return {
    wall: parseInt(match[1]!, 36),
    counter: parseInt(match[2]!, 36),
    device: match[3]!,
  };
}

/** Later of two stamps (either may be undefined). */
export function laterStamp(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a >= b ? a : b;
}

export class HybridClock {
  #wall = 0;
  #counter = 0;

  /**
   * `physical` is the wall time to follow, in ms (the computer's clock corrected by the offset
   * measured against the storage); `last` is the clock's last stamp, kept across restarts so
   * that a clock set back never reuses a stamp.
   */
  constructor(
    readonly device: string,
    private readonly physical: () => number,
    last?: string,
  ) {
    if (last !== undefined && isStamp(last)) {
      const parts = decodeStamp(last);
      this.#wall = parts.wall;
      this.#counter = parts.counter;
    }
  }

  /**
   * A stamp for a change made now (or at `at`, a moment in the physical time this clock follows,
   * for a change made earlier and sent now), later than every stamp made or seen before.
   */
  now(at?: number): string {
    const wall = Math.floor(Math.min(at ?? Number.POSITIVE_INFINITY, this.physical()));
    if (wall > this.#wall) {
      this.#wall = wall;
      this.#counter = 0;
    } else if (this.#counter < COUNTER_MAX) {
      this.#counter += 1;
    } else {
      // Sixty thousand changes within one millisecond of a clock that stood still: move on a
      // millisecond rather than wrap the counter.
      this.#wall += 1;
      this.#counter = 0;
    }
    return encodeStamp({ wall: this.#wall, counter: this.#counter, device: this.device });
  }

  /** Takes in a stamp seen from another device: every later `now()` comes after it. */
  receive(stamp: string): void {
    const remote = decodeStamp(stamp);
    if (
      remote.wall > this.#wall ||
      (remote.wall === this.#wall && remote.counter > this.#counter)
    ) {
      this.#wall = remote.wall;
      this.#counter = remote.counter;
    }
  }

  /** The clock's state, to keep across restarts. */
  last(): string {
    return encodeStamp({ wall: this.#wall, counter: this.#counter, device: this.device });
  }
}
