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
  MAX_RENDERED_CHARACTERS,
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

  it('bounded by weight too: the least recently used go until the rest weigh no more than the bound', () => {
    const cache = new RecentCache<string, string>(100, { maxWeight: 10, weigh: (v) => v.length });
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa');
    cache.set('c', 'cccc');
    // 12 > 10: `b`, the least recently used, went.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.weight).toBe(8);
    // Setting a key again counts its new weight only.
    cache.set('a', 'aa');
    expect(cache.weight).toBe(6);
    // A value heavier than the whole bound is not kept, and pushes nothing out.
    cache.set('huge', 'x'.repeat(11));
    expect(cache.get('huge')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.weight]).toEqual(['aa', 'cccc', 6]);
    cache.clear();
    expect([cache.size, cache.weight]).toEqual([0, 0]);
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

  it('remembers long blocks up to a bound in characters: a few long replies do not fill the memory', () => {
    forgetRenderedBlocks();
    const { parsed, parse } = counting();
    const long = (i: number) => `${i} `.padEnd(MAX_RENDERED_CHARACTERS / 4, 'x');
    for (let i = 0; i < 5; i++) renderedBlock(long(i), true, 0, parse);
    // Four fit; the fifth pushed the first out.
    renderedBlock(long(1), true, 0, parse);
    renderedBlock(long(4), true, 0, parse);
    expect(parsed).toHaveLength(5);
    renderedBlock(long(0), true, 0, parse);
    expect(parsed).toHaveLength(6);
  });
});
