/**
 * Prose without markup is rendered as its paragraph without the markdown pipeline: only where the
 * pipeline (the chat's own plugins) would make exactly that paragraph of it.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import { describe, expect, it } from 'vitest';
import { isPlainParagraph } from '../../../renderer/src/features/chat/markdown/plain-paragraph';
import remarkSyntax from '../../../renderer/src/features/chat/markdown/remark-syntax';

/** The chat's syntax (its citations, `[n]`, need a bracket, which no plain paragraph has). */
function pipeline(markdown: string): string {
  return renderToStaticMarkup(
    createElement(Markdown, { remarkPlugins: [remarkSyntax], children: markdown }),
  );
}

function paragraph(markdown: string): string {
  return renderToStaticMarkup(createElement('p', null, markdown));
}

/** A small deterministic generator (mulberry32), so that a failure can be run again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROSE = [
  'Paragraph 12 keeps the stream going with plain words, so that a client can be watched over a long reply.',
  'It carries no markdown at all: only sentences, spaces and the odd comma (like most prose)!',
  'Ça coûte 12 € — ou 3,50 % de plus? «Oui», dit-elle.',
  '東京は日本の首都です。人口は約1400万人です。',
  'Numbers like 3.14, 2023 and 1st place are just text; so is 100/3 = 33 or a + b - c.',
  'Quotes "double" and \'single\' stay as written, and so do ellipses... and emoji 🎉.',
];

const MARKUP = [
  '**bold** text',
  'an *emphasis*',
  'snake_case_words',
  'a `code span`',
  'see [the docs](https://example.com)',
  'a citation [1]',
  'a footnote[^1]',
  'math $x^2$',
  'raw <b>html</b>',
  'an &amp; entity',
  'an escaped \\* star',
  '~~struck~~',
  'a | b',
  'visit www.example.com',
  'visit HTTPS://example.com',
  'mail me@example.com',
  '# Heading',
  '- item',
  '+ item',
  '1. item',
  '12) item',
  '---',
  '===',
  '> quote',
  '    indented code',
  ' leading space',
  'trailing space ',
  'two\nlines',
  'a\ttab',
  'a \u0000 nul',
  '',
];

describe('plain paragraphs', () => {
  it('takes prose without markup, which the pipeline renders as the same paragraph', () => {
    for (const text of PROSE) {
      expect(isPlainParagraph(text), text).toBe(true);
      expect(paragraph(text), text).toBe(pipeline(text));
    }
  });

  it('leaves to the pipeline anything that may hold markup', () => {
    for (const text of MARKUP) expect(isPlainParagraph(text), JSON.stringify(text)).toBe(false);
  });

  it('takes no text the pipeline would render otherwise (random text, every ASCII mark)', () => {
    const next = random(33);
    const marks = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    const alphabet = `${'abcdefghij'.repeat(6)}${'ABC0123456789'.repeat(2)}${'     '.repeat(3)}${marks}é漢🎉\u00a0\u2028\n\t`;
    const letters = Array.from(alphabet);
    let taken = 0;
    for (let i = 0; i < 2000; i++) {
      const length = 1 + Math.floor(next() * 30);
      let text = '';
      for (let j = 0; j < length; j++) text += letters[Math.floor(next() * letters.length)];
      if (!isPlainParagraph(text)) continue;
      taken++;
      expect(paragraph(text), JSON.stringify(text)).toBe(pipeline(text));
    }
    // Enough of them were taken for this to say something.
    expect(taken).toBeGreaterThan(200);
  });
});
