import { describe, expect, it } from 'vitest';
import { plainSnippet } from '../../../electron/main/services/chat/snippet-text';
import { snippetSegments } from '../../../electron/main/services/chat/store';

describe('plainSnippet', () => {
  it.each([
    ['## Draft a reminder about the invoice', 'Draft a reminder about the invoice'],
    ['…ng text\n\n### What you sent\n\n- **Words:** 12', '…ng text What you sent Words: 12'],
    ['Use **cosine** and _dot_ or ~~none~~, `code` too.', 'Use cosine and dot or none, code too.'],
    [
      'See [the guide](https://example.com/guide) and ![a cat](cat.png).',
      'See the guide and a cat.',
    ],
    ['a link cut off: [docs](https://exa', 'a link cut off: docs'],
    ['> quoted\n> twice', 'quoted twice'],
    ['1. first\n2) second\n- [x] done', 'first second done'],
    ['| Word | Letters |\n| --- | ---: |\n| cat | 3 |', 'Word Letters cat 3'],
    ['```ts\nconst a = 1;\n```', 'const a = 1;'],
  ])('%j reads as %j', (markdown, plain) => {
    expect(plainSnippet(markdown)).toBe(plain);
  });

  it('keeps what is not syntax: snake_case, arithmetic, a lone star', () => {
    expect(plainSnippet('call snake_case_name with 2 * 3 stars')).toBe(
      'call snake_case_name with 2 * 3 stars',
    );
  });

  it('keeps the hit markers where the words are', () => {
    expect(snippetSegments('## The \u0002zeppelin\u0003 **landed**')).toEqual([
      { text: 'The ', hit: false },
      { text: 'zeppelin', hit: true },
      { text: ' landed', hit: false },
    ]);
  });
});
