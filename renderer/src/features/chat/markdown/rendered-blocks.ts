/**
 * Complete markdown blocks already rendered, by their text: the elements react-markdown made (a
 * plain description, reusable by any number of mounts). A row mounted again (scrolled back into
 * view, a version switched back to, the same text in another version) takes them instead of
 * parsing the text again. A block still growing is never taken from here nor kept.
 */
import type { ReactElement } from 'react';
import { RecentCache } from './recent-cache';

/**
 * Bounded by count: the 600 most recently used blocks (a few hundred replies' worth, some
 * megabytes at most); a block past that is parsed again when it shows.
 */
export const MAX_RENDERED_BLOCKS = 600;
const rendered = new RecentCache<string, { math: number; element: ReactElement }>(
  MAX_RENDERED_BLOCKS,
);

/**
 * The block's elements: `parse`d, or for a complete block, taken from the cache unless its
 * formulas have been rendered since (`math`, from `mathRenderedFor`).
 */
export function renderedBlock(
  markdown: string,
  complete: boolean,
  math: number,
  parse: (markdown: string, complete: boolean) => ReactElement,
): ReactElement {
  if (!complete) return parse(markdown, false);
  const hit = rendered.get(markdown);
  if (hit?.math === math) return hit.element;
  const element = parse(markdown, true);
  rendered.set(markdown, { math, element });
  return element;
}

/** Forgets the rendered blocks (for tests and benchmarks that must start cold). */
export function forgetRenderedBlocks(): void {
  rendered.clear();
}
