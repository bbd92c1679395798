/**
 * Deterministic material for benchmarks, so every run measures the same corpus: a seeded random
 * generator (mulberry32) and made-up words.
 */

/** Numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The made-up word number `index`: distinct for each index, with an ending from `endings` and
 * `vowel`, so that the words look like words to a tokenizer and corpora can differ.
 */
export function syntheticWord(index: number, endings: number, vowel: string): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let word = '';
  let n = index + 27;
  while (n > 0) {
    word += letters[n % 26];
    n = Math.floor(n / 26);
  }
  return `${word}${letters[index % endings]}${vowel}`;
}
