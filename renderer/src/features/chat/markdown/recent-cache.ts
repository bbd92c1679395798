/**
 * A map that keeps only its `limit` most recently used entries (a Map keeps insertion order, so
 * its first key is the least recently used). For the markdown caches: what a message row renders
 * is remembered by its text, so that a row mounted again (scrolled back into view, a version
 * switched back to) does not parse and highlight the same text again.
 */
export class RecentCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly limit: number) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The value, made the most recently used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key)!;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.limit) this.#entries.delete(this.#entries.keys().next().value!);
  }

  clear(): void {
    this.#entries.clear();
  }
}
