/**
 * A map that keeps only its most recently used entries: at most `limit` of them and, when given a
 * weight, at most `maxWeight` of it in all (a count alone does not bound memory when one entry can
 * be a hundred times another). A Map keeps insertion order, so its first key is the least recently
 * used. For the markdown caches: what a message row renders is remembered by its text, so that a
 * row mounted again (scrolled back into view, a version switched back to) does not parse and
 * highlight the same text again.
 *
 * Written here rather than taken from lru-cache (whose `max` and `maxSize` do this) because that
 * adds 19 kB to the chat chunk for the few lines below.
 */
export interface Weight<K, V> {
  maxWeight: number;
  /** An entry's weight (at least 1 is counted). */
  weigh(value: V, key: K): number;
}

export class RecentCache<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  #weight = 0;

  constructor(
    readonly limit: number,
    private readonly bound?: Weight<K, V>,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The weight of every entry kept (0 without a weight). */
  get weight(): number {
    return this.#weight;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value, made the most recently used. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.#remove(key);
    const weight = this.bound ? Math.max(1, this.bound.weigh(value, key)) : 0;
    const maxWeight = this.bound?.maxWeight ?? Infinity;
    // A value heavier than the whole bound is not kept (it would push out everything else).
    if (weight > maxWeight) return;
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.limit && this.#weight <= maxWeight) break;
      this.#remove(oldest);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }

  #remove(key: K): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }
}
