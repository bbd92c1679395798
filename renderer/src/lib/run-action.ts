import { failureOf, type FailureInfo } from './errors';

/**
 * How a call to main came out: its value, or its failure as the page shows it (`failureOf`:
 * kind, status, message in the page's language with its key and values, parts, refused field).
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: FailureInfo };

/**
 * Runs a call to main and answers its outcome instead of throwing: the one way the page turns a
 * failed bridge call into its failure. The features' actions modules call the bridge; a
 * component calls them (the lint keeps `.tsx` files from reaching the bridge itself).
 */
export async function runAction<T>(call: () => T | PromiseLike<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, failure: failureOf(error) };
  }
}
