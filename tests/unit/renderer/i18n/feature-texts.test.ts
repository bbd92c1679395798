/**
 * The texts the embeddings and images features build outside components (input checks, size
 * checks, a Generate's outcome) come from the catalogues: plurals, lists and numbers as each
 * language writes them, never a hand-made "1 texts".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectInputs } from '../../../../renderer/src/features/embeddings/input-check';
import { checkCustomSize } from '../../../../renderer/src/features/images/image-size';
import { outcomeText } from '../../../../renderer/src/features/images/images-actions';
import { i18n } from '../../../../renderer/src/i18n/i18n';

const MESSAGES = join(import.meta.dirname, '../../../../renderer/src/i18n/messages');

function inLocale(locale: string) {
  for (const namespace of ['embeddings', 'images'])
    i18n.load(
      locale,
      JSON.parse(readFileSync(join(MESSAGES, locale, `${namespace}.json`), 'utf8')),
    );
  i18n.activate(locale);
}

// The build compiles the catalogues; here Lingui compiles each message as it is first used.
beforeAll(() => i18n.setMessagesCompiler(compileMessage));
afterAll(() => {
  i18n.load('en', {});
  i18n.activate('en');
});

const lines = (text: string) => collectInputs('lines', text, [], undefined).error;

describe('the embeddings input checks', () => {
  it('names the empty lines, one or several, in English', () => {
    inLocale('en');
    expect(lines('a\n\nb')).toBe('Line 2 is empty. Remove it or write a text there.');
    expect(lines('a\nb\n\nc\nd\ne\n \nf')).toBe(
      'Lines 3 and 7 are empty. Remove them or write a text there.',
    );
    expect(collectInputs('list', '', ['a', '', ''], undefined).error).toBe(
      'Items 2 and 3 are empty. Remove them or write a text there.',
    );
  });

  it('shows ten positions at most, then how many more', () => {
    inLocale('en');
    const text = Array.from({ length: 13 }, () => '').join('\n') + '\nx';
    expect(lines(text)).toMatch(/^Lines 1, 2, .* and 10 \(and 3 more\) are empty\./);
  });

  it('says the same in German and Japanese, lists and numbers as they write them', () => {
    inLocale('de');
    expect(lines('a\nb\n\nc\nd\ne\n \nf')).toBe(
      'Die Zeilen 3 und 7 sind leer. Entfernen Sie sie oder schreiben Sie dort einen Text.',
    );
    const many = collectInputs('lines', Array(5001).fill('x').join('\n'), [], undefined).error;
    expect(many).toBe('Es sind 5.001 Texte; ein Durchlauf nimmt höchstens 5.000.');
    inLocale('ja');
    expect(lines('a\n\nb')).toBe('2 行目が空です。削除するか、テキストを入力してください。');
  });
});

describe('the image studio’s texts', () => {
  it('says what a Generate made, with the right plural', () => {
    inLocale('en');
    expect(outcomeText({ total: 3, identical: 0 })).toBe('3 new images.');
    expect(outcomeText({ total: 1, identical: 0 })).toBe('1 new image.');
    expect(outcomeText({ total: 2, identical: 1 })).toBe(
      '1 new image; 1 was identical to one you already have.',
    );
    expect(outcomeText({ total: 2, identical: 2 })).toBe(
      'No new image; 2 were identical to one you already have.',
    );
    inLocale('fr');
    expect(outcomeText({ total: 2, identical: 0 })).toBe('2 nouvelles images.');
  });

  it('names the side of a custom size that is wrong, in the active language', () => {
    inLocale('en');
    expect(checkCustomSize('', '10')).toEqual({
      ok: false,
      field: 'width',
      error: 'Give the width in pixels.',
    });
    expect(checkCustomSize('10', '1000000')).toMatchObject({
      field: 'height',
      error: 'The height must be at most 999,999 pixels.',
    });
    inLocale('de');
    expect(checkCustomSize('10', '1.5')).toMatchObject({
      error: 'Die Höhe muss eine ganze Zahl von Pixeln sein.',
    });
    expect(checkCustomSize('640', '480')).toEqual({ ok: true, size: '640x480' });
  });
});
