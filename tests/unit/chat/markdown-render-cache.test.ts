/**
 * What a message row renders is remembered by its text, so that a row mounted again (scrolled
 * back into view, a version switched back to) neither parses nor highlights the same text again:
 * the cache is bounded, and a growing block is never taken from it.
 */
import { createElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { RecentCache } from '../../../renderer/src/features/chat/markdown/recent-cache';
import {
  forgetRenderedBlocks,
  MAX_RENDERED_BLOCKS,
  renderedBlock,
} from '../../../renderer/src/features/chat/markdown/rendered-blocks';

/** A parse that counts its calls. */
function counting() {
  const parsed: string[] = [];
  const parse = (markdown: string): ReactElement => {
    parsed.push(markdown);
    return createElement('p', null, markdown);
  };
  return { parsed, parse };
}

describe('RecentCache', () => {
  it('keeps only the most recently used entries', () => {
    const cache = new RecentCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    // Reading `a` makes it the most recent: `b` goes first.
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });
});

describe('rendered markdown blocks', () => {
  it('a complete block is parsed once and its elements reused', () => {
    forgetRenderedBlocks();
    const { parsed, parse } = counting();
    const first = renderedBlock('Some **bold** text', true, 0, parse);
    expect(renderedBlock('Some **bold** text', true, 0, parse)).toBe(first);
    expect(parsed).toEqual(['Some **bold** text']);
  });

  it('is parsed again when its formulas have been rendered since, or when it is still growing', () => {
    forgetRenderedBlocks();
    const { parsed, parse } = counting();
    renderedBlock('Text', true, 0, parse);
    renderedBlock('Text', true, 1, parse);
    renderedBlock('Grow', false, 0, parse);
    renderedBlock('Grow', false, 0, parse);
    expect(parsed).toEqual(['Text', 'Text', 'Grow', 'Grow']);
  });

  it('remembers a bounded number of blocks', () => {
    forgetRenderedBlocks();
    const { parsed, parse } = counting();
    for (let i = 0; i <= MAX_RENDERED_BLOCKS; i++) renderedBlock(`block ${i}`, true, 0, parse);
    // The oldest of one more than the bound went; the newest stayed.
    renderedBlock('block 0', true, 0, parse);
    renderedBlock(`block ${MAX_RENDERED_BLOCKS}`, true, 0, parse);
    expect(parsed).toHaveLength(MAX_RENDERED_BLOCKS + 2);
    expect(parsed.at(-1)).toBe('block 0');
  });
});
