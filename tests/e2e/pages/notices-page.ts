import type { Locator, Page } from 'playwright-core';

/** Where a notice sits in the window, and what is drawn at its middle. */
export interface NoticePlacement {
  left: number;
  top: number;
  right: number;
  bottom: number;
  window: { width: number; height: number };
  /** The element at the notice's middle belongs to it (nothing covers it). */
  onTop: boolean;
  /** Its background is a colour, not the page showing through. */
  background: string;
}

/** The app's notices (toasts): transient outcomes said in a corner, read out politely. */
export class NoticesPage {
  readonly region: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('status', { name: 'Notifications' });
  }

  /** The notice that says `text`. */
  notice(text: string | RegExp): Locator {
    return this.region.locator('.toast').filter({ hasText: text });
  }

  async placement(notice: Locator): Promise<NoticePlacement> {
    return notice.evaluate((element) => {
      interface El {
        getBoundingClientRect(): { left: number; top: number; right: number; bottom: number };
        contains(other: unknown): boolean;
      }
      const { document, innerWidth, innerHeight, getComputedStyle } = globalThis as unknown as {
        document: { elementFromPoint(x: number, y: number): unknown };
        innerWidth: number;
        innerHeight: number;
        getComputedStyle(el: unknown): { backgroundColor: string };
      };
      const el = element as unknown as El;
      const box = el.getBoundingClientRect();
      const middle = document.elementFromPoint(
        (box.left + box.right) / 2,
        (box.top + box.bottom) / 2,
      );
      return {
        left: box.left,
        top: box.top,
        right: box.right,
        bottom: box.bottom,
        window: { width: innerWidth, height: innerHeight },
        onTop: middle !== null && el.contains(middle),
        background: getComputedStyle(el).backgroundColor,
      };
    });
  }
}
