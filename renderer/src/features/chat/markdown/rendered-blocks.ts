/**
 * Complete markdown blocks already rendered, by their text: the elements react-markdown made (a
 * plain description, reusable by any number of mounts). A row mounted again (scrolled back into
 * view, a version switched back to, the same text in another version) takes them instead of
 * parsing the text again. A block still growing is never taken from here nor kept.
 */
import type { ReactElement } from 'react';
import { RecentCache } from './recent-cache';

/**
 * Bounded by count and by size: the 600 most recently used blocks, holding at most 150,000
 * characters of markdown in all (about seven long replies, some 60 screens of text). Their
 * elements weigh about 11 bytes of heap per character, so the cache stays under some 1.7 MB
 * (memory-soak's heap snapshots). A block past that is parsed again when it shows. A bound by
 * count alone let the cache grow with the length of its blocks.
 */
export const MAX_RENDERED_BLOCKS = 600;
export const MAX_RENDERED_CHARACTERS = 150_000;
const rendered = new RecentCache<string, { math: number; element: ReactElement }>(
  MAX_RENDERED_BLOCKS,
  { maxWeight: MAX_RENDERED_CHARACTERS, weigh: (_, markdown) => markdown.length },
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
