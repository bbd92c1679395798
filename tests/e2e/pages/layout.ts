/**
 * Whether what shows in a column of the window stays inside it: a button cut off by the edge of
 * the conversation list, a status line spilling out of the icon rail.
 */
import type { Page } from 'playwright-core';

/** The DOM the page-side code uses (the tests compile without the DOM library). */
interface Box {
  left: number;
  right: number;
  width: number;
  height: number;
}
interface El {
  tagName: string;
  textContent: string | null;
  children: ArrayLike<El>;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  checkVisibility(options?: object): boolean;
  closest(selector: string): El | null;
  querySelectorAll(selector: string): ArrayLike<El>;
}

/**
 * The visible controls and text of `container` (each named by its tag and text) that reach past
 * its left or right edge. Hidden things (visually hidden labels) and tooltips do not count.
 */
export async function cutOff(page: Page, container: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const doc = (globalThis as unknown as { document: { querySelector(s: string): El | null } })
      .document;
    const root = doc.querySelector(selector);
    if (!root) return [`${selector}: not on the page`];
    const edge = root.getBoundingClientRect();
    const found: string[] = [];
    for (const element of Array.from(root.querySelectorAll('button, input, select, a, span, p'))) {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      // A tooltip stands beside its control, outside the column, on purpose.
      if (element.closest('.tooltip')) continue;
      const box = element.getBoundingClientRect();
      // A visually hidden label: a pixel, clipped away.
      if (box.width <= 1 && box.height <= 1) continue;
      if (box.left < edge.left - 1 || box.right > edge.right + 1) {
        const name =
          element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
        found.push(
          `${element.tagName.toLowerCase()} "${name}" spans ${Math.round(box.left)}–${Math.round(box.right)}, the column ${Math.round(edge.left)}–${Math.round(edge.right)}`,
        );
      }
    }
    return found;
  }, container);
}
