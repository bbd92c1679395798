import { describe, expect, it } from 'vitest';
import {
  NAME_FALLBACK,
  NAME_WORDS_MAX,
  freeStem,
  imageStem,
  nameDate,
  promptWords,
} from '../../../../electron/main/services/images/image-names';

const DAY = new Date(2026, 10, 29, 15, 30);
/** What Windows, macOS and Linux all accept in a file name, and nothing else. */
const SAFE = /^[\p{L}\p{N}\p{M}]+(-[\p{L}\p{N}\p{M}]+)*$/u;

describe('image file names', () => {
  it('names an image by the words of its prompt, its date and a number', () => {
    expect(imageStem('Fox in snow', DAY, 1)).toBe('fox-in-snow-2026-11-29-1');
    expect(imageStem('  A  fox,   in the SNOW!! ', DAY, 3)).toBe('a-fox-in-the-snow-2026-11-29-3');
    expect(nameDate(new Date(2026, 0, 5))).toBe('2026-01-05');
  });

  it('keeps letters of every script, and nothing a file system refuses', () => {
    expect(promptWords('雪の中の狐')).toBe('雪の中の狐');
    expect(promptWords('Füchse im Schnee')).toBe('füchse-im-schnee');
    for (const prompt of [
      'a/b\\c:d*e?f"g<h>i|j',
      '../../etc/passwd',
      'name with trailing dots...',
      'tab\there\nnewline\u0000nul',
      'emoji 🦊 fox 🦊',
    ]) {
      const words = promptWords(prompt);
      expect(words, prompt).toMatch(SAFE);
    }
  });

  it('gives a prompt of only emoji, slashes or spaces a plain name', () => {
    for (const prompt of ['🦊🌨️❄️', '////\\\\', '   ', '', '...', '-_-']) {
      expect(promptWords(prompt), JSON.stringify(prompt)).toBe(NAME_FALLBACK);
    }
    expect(imageStem('🦊', DAY, 1)).toBe('image-2026-11-29-1');
  });

  it('never makes a name Windows reserves for a device (CON, NUL, COM1, LPT1)', () => {
    for (const prompt of ['CON', 'con', 'NUL', 'aux', 'PRN', 'COM1', 'LPT9', 'con.txt']) {
      const stem = imageStem(prompt, DAY, 1);
      const base = stem.split('.')[0]!.toLowerCase();
      expect(base, prompt).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/);
      expect(stem, prompt).toMatch(SAFE);
    }
    expect(imageStem('CON', DAY, 1)).toBe('con-2026-11-29-1');
  });

  it('is limited in length, cut at the end of a word', () => {
    const long =
      'a very long prompt about a small red fox walking slowly through deep fresh snow at dawn';
    const words = promptWords(long);
    expect([...words].length).toBeLessThanOrEqual(NAME_WORDS_MAX);
    expect(long.toLowerCase().replaceAll(' ', '-').startsWith(`${words}-`)).toBe(true);
    const one = promptWords('x'.repeat(500));
    expect(one).toBe('x'.repeat(NAME_WORDS_MAX));
    // Even in a script of three bytes a character, far below the 255 bytes file systems allow.
    const stem = imageStem('狐'.repeat(300), DAY, 99);
    expect(Buffer.byteLength(`${stem}.png`)).toBeLessThan(200);
  });

  it('counts up past the names already taken', async () => {
    const taken = new Set(['fox-2026-11-29-1', 'fox-2026-11-29-2']);
    expect(await freeStem('fox', DAY, (stem) => taken.has(stem))).toBe('fox-2026-11-29-3');
    expect(await freeStem('fox', DAY, () => false)).toBe('fox-2026-11-29-1');
  });
});
