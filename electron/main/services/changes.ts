/**
 * A change to some settings as IPC gives it: every field optional, and a field given as
 * undefined means the same as one left out (the contract's zod schemas allow both).
 */
export type Changes<T> = { [K in keyof T]?: T[K] | undefined };

/** The fields of `changes` that are set, so spreading them over the current values keeps the rest. */
export function setFields<T extends object>(changes: Changes<T>): Partial<T> {
  const set: Partial<T> = {};
  for (const key in changes) {
    const value = changes[key];
    if (value !== undefined) set[key] = value;
  }
  return set;
}
