/**
 * Main's check of the embeddings input names the empty lines by key, so the page says it in the
 * person's language: the English it keeps is the catalogue's English, and each language lists
 * the positions its own way.
 */
import { describe, expect, it } from 'vitest';
import { emptyEntriesIssue } from '../../../electron/shared/ipc/routes/embeddings';
import { errorText } from '../../../electron/main/services/words';
import type { ErrorMessageKey } from '../../../electron/shared/messages/keys';

function inLocale(locale: 'en' | 'de' | 'ja' | 'fr', positions: number[]): string {
  const issue = emptyEntriesIssue(positions);
  return errorText(locale, issue.params.id as ErrorMessageKey, issue.params.values);
}

describe('the empty lines of an embeddings input, as main refuses them', () => {
  it('keeps the catalogue’s English for one, two and many positions', () => {
    for (const positions of [[2], [3, 7], [1, 4, 9], Array.from({ length: 13 }, (_, i) => i + 1)])
      expect(emptyEntriesIssue(positions).message).toBe(inLocale('en', positions));
    expect(emptyEntriesIssue([2]).message).toBe('Line 2 is empty.');
    expect(emptyEntriesIssue([3, 7]).message).toBe('Lines 3 and 7 are empty.');
    expect(emptyEntriesIssue(Array.from({ length: 13 }, (_, i) => i + 1)).message).toBe(
      'Lines 1, 2, 3, 4, 5, 6, 7, 8, 9 and 10 (and 3 more) are empty.',
    );
  });

  it('says it in German, French and Japanese', () => {
    expect(inLocale('de', [3, 7])).toBe('Die Zeilen 3 und 7 sind leer.');
    expect(inLocale('de', [5])).toBe('Zeile 5 ist leer.');
    expect(
      inLocale(
        'fr',
        Array.from({ length: 12 }, (_, i) => i + 1),
      ),
    ).toBe('Les lignes 1, 2, 3, 4, 5, 6, 7, 8, 9 et 10 (et 2 de plus) sont vides.');
    expect(inLocale('ja', [3, 7])).toBe('3、7 行目が空です。');
  });
});
