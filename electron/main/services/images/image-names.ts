/**
 * The names of gallery files: `<words of the prompt>-<date>-<n>.<ext>`, so a person finds "fox"
 * in their file manager. A name is built from letters and digits only (any script), joined by
 * hyphens: no separator, dot, colon or other character a file system refuses, no name Windows
 * reserves (the date always follows the words), never longer than a folder listing shows.
 */

/** The most characters the prompt's words take in a name (the date and number follow). */
export const NAME_WORDS_MAX = 48;
/** A prompt with no letters or digits (emoji, slashes) is named this. */
export const NAME_FALLBACK = 'image';

/** The prompt's words, lower case, joined by hyphens, cut at a word's end; never empty. */
export function promptWords(prompt: string): string {
  // A word starts with a letter or digit; accents and marks may follow it (an emoji's
  // variation selector alone makes no word).
  const words =
    prompt
      .normalize('NFC')
      .toLocaleLowerCase('en')
      .match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? [];
  let stem = '';
  for (const word of words) {
    const next = stem === '' ? word : `${stem}-${word}`;
    if ([...next].length > NAME_WORDS_MAX) {
      // A first word longer than the limit is cut; a later one is left out.
      if (stem === '') stem = [...word].slice(0, NAME_WORDS_MAX).join('');
      break;
    }
    stem = next;
  }
  // Never a bare device name Windows refuses (CON, NUL, LPT1): the date always follows.
  return stem === '' ? NAME_FALLBACK : stem;
}

/** The local calendar date of `at`, as `YYYY-MM-DD`. */
export function nameDate(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The file stem (no extension) for the `n`th image of `prompt` on `at`'s date. */
export function imageStem(prompt: string, at: Date, n: number): string {
  return `${promptWords(prompt)}-${nameDate(at)}-${n}`;
}

/**
 * The first stem for `prompt` on `at`'s date that `taken` does not refuse, counting from 1.
 * `taken` says whether a stem is in use (its image or its sidecar is in the folder).
 */
export async function freeStem(
  prompt: string,
  at: Date,
  taken: (stem: string) => boolean | Promise<boolean>,
): Promise<string> {
  for (let n = 1; ; n++) {
    const stem = imageStem(prompt, at, n);
    if (!(await taken(stem))) return stem;
  }
}
