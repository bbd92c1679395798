/**
 * Who asked to hear of a service's changes (`onChange`): `add` returns the function that stops
 * it, `tell` calls each one.
 */
export class Listeners<T = void> {
  readonly #all = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.#all.add(listener);
    return () => this.#all.delete(listener);
  }

  tell(value: T): void {
    for (const listener of this.#all) listener(value);
  }
}
