import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCKS_PER_GROUP,
  createBlockSplitter,
  groupBlocks,
  splitBlocks,
  withDefinitions,
  type MarkdownBlock,
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

  it('reads Windows line endings streamed in pieces, a return and its newline apart', () => {
    const text = 'One\r\n\r\nTwo\r\nstill two\r\n\r\n- a\r\n- b\r\n\r\nEnd';
    for (const size of [1, 2, 3, 5]) {
      expect(streamed(text, size).map((b) => b.raw)).toEqual(splitBlocks(text).map((b) => b.raw));
    }
    // A text without returns that grows one with them later is read again as a whole.
    const splitter = createBlockSplitter();
    splitter.update('a\n\nb');
    expect(splitter.update('a\n\nb\r\n\r\nc').complete.map((b) => b.raw)).toEqual(['a', 'b']);
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

describe('complete blocks in groups', () => {
  /** The groups after each update of a reply streamed `size` characters at a time. */
  function groupedUpdates(text: string, size: number) {
    const splitter = createBlockSplitter();
    let grown = '';
    let groups: Array<readonly MarkdownBlock[]> = [];
    const updates: Array<{ complete: readonly MarkdownBlock[]; groups: typeof groups }> = [];
    for (const delta of toDeltas(text, size)) {
      grown += delta;
      const { complete } = splitter.update(grown);
      groups = groupBlocks(complete, groups);
      updates.push({ complete, groups });
    }
    return updates;
  }

  it('holds every complete block once, in order, in groups of at most BLOCKS_PER_GROUP', () => {
    const updates = groupedUpdates(buildCorpus(), 40);
    for (const { complete, groups } of updates) {
      expect(groups.flat()).toEqual(complete);
      expect(groups.every((g) => g.length > 0 && g.length <= BLOCKS_PER_GROUP)).toBe(true);
    }
    expect(updates.at(-1)!.groups.length).toBeGreaterThan(2);
  });

  it('keeps each full group the same while the reply grows: an update changes only its end', () => {
    const updates = groupedUpdates(buildCorpus(), 40);
    for (let i = 1; i < updates.length; i++) {
      const before = updates[i - 1]!.groups;
      const after = updates[i]!.groups;
      // Every group but the last one before this update is the very same array (a memoized
      // group renders nothing again), however long the reply has grown.
      for (let g = 0; g < before.length - 1; g++) expect(after[g]).toBe(before[g]);
      const changed = after.filter((group, g) => group !== before[g]).length;
      expect(changed).toBeLessThanOrEqual(2);
    }
  });

  it('makes new groups when the text starts again (an edit), never showing old blocks', () => {
    const splitter = createBlockSplitter();
    const first = groupBlocks(splitter.update('One.\n\nTwo.\n\nThree.\n\n').complete);
    const again = groupBlocks(splitter.update('Uno.\n\nDos.\n\n').complete, first);
    expect(again[0]).not.toBe(first[0]);
    expect(again.flat().map((b) => b.raw)).toEqual(['Uno.']);
  });
});
