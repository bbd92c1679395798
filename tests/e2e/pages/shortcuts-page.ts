import type { Locator, Page } from 'playwright-core';
import { deliverEvent } from '../harness/harness';

/** The shortcut sheet, and the application menu's way of asking for a command. */
export class ShortcutsPage {
  readonly sheet: Locator;

  constructor(readonly page: Page) {
    this.sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  }

  /** A row of the sheet by what the shortcut does. */
  row(label: string): Locator {
    return this.sheet.locator('.shortcut-row').filter({
      has: this.page.getByRole('term').getByText(label, { exact: true }),
    });
  }

  /**
   * What main's application menu does when an item is chosen: sends `shell:command` with the
   * shortcut's id, delivered exactly as the harness delivers every event from main.
   */
  async menu(id: string): Promise<void> {
    deliverEvent(this.page, 'shell:command', { id });
  }

  /** The screen shown now, as the sidebar marks it. */
  async currentScreen(): Promise<string | null> {
    return this.page
      .getByRole('navigation', { name: 'Screens' })
      .locator('[aria-current="page"]')
      .textContent();
  }

  /** Describes the focused element: its tag, accessible label and text, for assertions. */
  async focused(): Promise<{
    tag: string;
    label: string | null;
    text: string;
    inSheet: boolean;
  }> {
    return this.page.evaluate(() => {
      const doc = (
        globalThis as unknown as {
          document: {
            activeElement: {
              tagName: string;
              textContent: string | null;
              getAttribute(name: string): string | null;
              closest(selector: string): unknown;
            } | null;
          };
        }
      ).document;
      const active = doc.activeElement;
      return {
        tag: active?.tagName.toLowerCase() ?? '',
        label: active?.getAttribute('aria-label') ?? null,
        text: active?.textContent?.trim() ?? '',
        inSheet: Boolean(active?.closest('.shortcut-sheet')),
      };
    });
  }
}
