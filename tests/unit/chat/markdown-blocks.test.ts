import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createBlockSplitter,
  splitBlocks,
  withDefinitions,
} from '../../../renderer/src/features/chat/markdown/blocks';
import { buildCorpus, toDeltas } from '../../bench/chat-render/corpus';

function streamed(text: string, size: number) {
  const splitter = createBlockSplitter();
  let grown = '';
  let last = splitter.update('');
  for (const delta of toDeltas(text, size)) {
    grown += delta;
    last = splitter.update(grown);
  }
  return last.tail === '' ? [...last.complete] : [...last.complete, { raw: last.tail }];
}

describe('markdown blocks', () => {
  it('cuts paragraphs, lists, fences, tables and math apart, dropping blank lines', () => {
    const text =
      '# Title\n\nA paragraph\nover two lines.\n\n- one\n- two\n\n```js\nlet x = 1;\n```\n' +
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n$$\nx^2\n$$\n\nThe end.';
    expect(splitBlocks(text).map((b) => b.raw)).toEqual([
      '# Title',
      'A paragraph\nover two lines.',
      '- one\n- two',
      '```js\nlet x = 1;\n```',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      '$$\nx^2\n$$',
      'The end.',
    ]);
  });

  it('ends a streamed reply with the blocks of the whole reply read at once', () => {
    const corpus = buildCorpus();
    const whole = splitBlocks(corpus).map((b) => b.raw);
    expect(streamed(corpus, 3).map((b) => b.raw)).toEqual(whole);
    expect(whole.filter((raw) => raw.startsWith('```'))).toHaveLength(10);
  });

  it('gives the same blocks whatever the size of the deltas', () => {
    const corpus = buildCorpus(6000);
    const whole = splitBlocks(corpus).map((b) => b.raw);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (size) => {
        expect(streamed(corpus, size).map((b) => b.raw)).toEqual(whole);
      }),
      { numRuns: 25 },
    );
  });

  it('keeps completed blocks as they were while the reply grows', () => {
    const splitter = createBlockSplitter();
    const first = splitter.update('Para one.\n\nPara two');
    const second = splitter.update('Para one.\n\nPara two grows\n\nand three');
    expect(first.complete[0]).toBe(second.complete[0]);
    expect(second.complete.map((b) => b.raw)).toEqual(['Para one.', 'Para two grows']);
    expect(second.tail).toBe('and three');
  });

  it('starts again when the text is replaced rather than extended', () => {
    const splitter = createBlockSplitter();
    splitter.update('Old text.\n\nMore');
    const split = splitter.update('New text.');
    expect(split.complete).toEqual([]);
    expect(split.tail).toBe('New text.');
  });

  it('reads Windows line endings as the lexer does', () => {
    expect(splitBlocks('a\r\n\r\nb').map((b) => b.raw)).toEqual(['a', 'b']);
  });

  it('keeps link reference definitions for the blocks that use them, also when they come last', () => {
    const text = [
      'See [the docs][d] and [home].',
      '',
      '[d]: https://example.com/docs "Docs"',
      '',
      'More text.',
      '',
      '[home]: https://example.com/',
    ].join('\n');
    const whole = createBlockSplitter().update(text);
    expect(whole.complete.map((b) => b.raw)).toEqual([
      'See [the docs][d] and [home].',
      'More text.',
    ]);
    expect(whole.tail).toBe('');
    expect(whole.definitions).toBe(
      '[d]: https://example.com/docs "Docs"\n[home]: https://example.com/',
    );

    // Streamed a character at a time, the same at the end.
    const streamed = createBlockSplitter();
    let last = streamed.update('');
    for (let i = 1; i <= text.length; i++) last = streamed.update(text.slice(0, i));
    expect(last.definitions).toBe(whole.definitions);
    expect(last.complete.map((b) => b.raw)).toEqual(whole.complete.map((b) => b.raw));
  });

  it('adds the definitions only to blocks that may use them, never inside code', () => {
    const defs = '[d]: https://example.com/docs';
    expect(withDefinitions('See [docs][d].', defs)).toBe(`See [docs][d].\n\n${defs}`);
    expect(withDefinitions('See [docs][d].', '')).toBe('See [docs][d].');
    expect(withDefinitions('No links here.', defs)).toBe('No links here.');
    expect(withDefinitions('```js\na[d]\n```', defs)).toBe('```js\na[d]\n```');
    expect(withDefinitions('    indented [d]', defs)).toBe('    indented [d]');
    expect(withDefinitions('$$\n[x]\n$$', defs)).toBe('$$\n[x]\n$$');
  });
});
