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

interface TextNode {
  nodeType: number;
  textContent: string | null;
}
interface Rect {
  top: number;
  height: number;
}
interface TextRange {
  setStart(node: TextNode, offset: number): void;
  setEnd(node: TextNode, offset: number): void;
  getClientRects(): ArrayLike<Rect>;
}
interface Walker {
  nextNode(): TextNode | null;
}
interface TextDoc {
  querySelectorAll(selector: string): ArrayLike<unknown>;
  createRange(): TextRange;
  createTreeWalker(root: unknown, whatToShow: number): Walker;
}

/**
 * The words inside `selector` (every match) that the layout broke across lines: "Memo/ry",
 * "0.95/1". A word is a run of characters between spaces (a hyphen ends one too: a line may
 * break after it); it counts as broken when its boxes sit on more than one line.
 */
export async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((cells) => {
    const doc = (globalThis as unknown as { document: TextDoc }).document;
    const broken: string[] = [];
    for (const cell of Array.from(doc.querySelectorAll(cells))) {
      // NodeFilter.SHOW_TEXT
      const walker = doc.createTreeWalker(cell, 4);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/[^\s-]+-?/g)) {
          const range = doc.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(
            Array.from(range.getClientRects())
              .filter((rect) => rect.height > 0)
              .map((rect) => Math.round(rect.top)),
          );
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  }, selector);
}

/** How an element's content fits it sideways: its box, and the width of what it holds. */
export async function sidewaysFit(
  page: Page,
  selector: string,
): Promise<{ left: number; right: number; clientWidth: number; scrollWidth: number }> {
  return page.evaluate((target) => {
    const doc = (
      globalThis as unknown as {
        document: {
          querySelector(s: string): {
            clientWidth: number;
            scrollWidth: number;
            getBoundingClientRect(): { left: number; right: number };
          } | null;
        };
      }
    ).document;
    const element = doc.querySelector(target);
    if (!element) throw new Error(`${target}: not on the page`);
    const box = element.getBoundingClientRect();
    return {
      left: box.left,
      right: box.right,
      clientWidth: element.clientWidth,
      scrollWidth: element.scrollWidth,
    };
  }, selector);
}

/**
 * The placeholders inside `container` that their field cuts off ("a text to compare wit"): each
 * placeholder's width, in the field's own font, against the room inside the field's padding.
 */
export async function cutPlaceholders(page: Page, container: string): Promise<string[]> {
  return page.evaluate((selector) => {
    interface Field {
      placeholder: string;
      clientWidth: number;
      checkVisibility(): boolean;
    }
    interface Style {
      font: string;
      paddingLeft: string;
      paddingRight: string;
    }
    const global = globalThis as unknown as {
      document: {
        querySelector(s: string): { querySelectorAll(s: string): ArrayLike<Field> } | null;
        createElement(tag: 'canvas'): {
          getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } };
        };
      };
      getComputedStyle(element: Field): Style;
    };
    const root = global.document.querySelector(selector);
    if (!root) return [`${selector}: not on the page`];
    const context = global.document.createElement('canvas').getContext('2d');
    const cut: string[] = [];
    for (const field of Array.from(root.querySelectorAll('input[placeholder]'))) {
      if (!field.placeholder || !field.checkVisibility()) continue;
      const style = global.getComputedStyle(field);
      context.font = style.font;
      const room =
        field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const width = context.measureText(field.placeholder).width;
      if (width > room + 0.5)
        cut.push(`"${field.placeholder}" needs ${Math.ceil(width)} px, has ${Math.floor(room)}`);
    }
    return cut;
  }, container);
}
