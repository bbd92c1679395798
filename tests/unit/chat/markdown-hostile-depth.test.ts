/**
 * Model output nested deeper than the parser's recursion can follow (thousands of `>`): the
 * block split must not throw, or the whole chat view is unmounted by the error.
 */
import { describe, expect, it } from 'vitest';
import {
  createBlockSplitter,
  splitBlocks,
} from '../../../renderer/src/features/chat/markdown/blocks';

const deepQuote = `${'>'.repeat(20_000)} deep`;

describe('markdown blocks on hostile nesting', () => {
  it('splits text nested too deep for the lexer instead of throwing', () => {
    const text = `Before.\n\n${deepQuote}\n\nAfter.`;
    const blocks = splitBlocks(text).map((b) => b.raw);
    expect(blocks[0]).toBe('Before.');
    expect(blocks.join('\n\n')).toContain('deep');
    expect(blocks.join('\n\n')).toContain('After.');
  });

  it('keeps streaming past such a block, and the text after it is split again', () => {
    const splitter = createBlockSplitter();
    let text = 'Intro.\n\n';
    expect(() => splitter.update(text)).not.toThrow();
    text += deepQuote;
    expect(() => splitter.update(text)).not.toThrow();
    text += '\n\nNext paragraph.\n\n- a list';
    const split = splitter.update(text);
    expect(split.complete.map((b) => b.raw)).toContain('Intro.');
    expect([...split.complete.map((b) => b.raw), split.tail].join('\n\n')).toContain(
      'Next paragraph.',
    );
  });
});
