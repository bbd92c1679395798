import type { Locator, Page } from 'playwright-core';

/** The quick ask window's page (`quick.html`). */
export class QuickAskPage {
  readonly prompt: Locator;
  readonly model: Locator;
  readonly reply: Locator;
  readonly context: Locator;
  readonly openInApp: Locator;

  constructor(readonly page: Page) {
    this.prompt = page.getByLabel('Your question');
    this.model = page.locator('.quick-model-name');
    this.reply = page.getByRole('region', { name: 'Reply' });
    this.context = page.getByRole('region', { name: 'Context from the clipboard' });
    this.openInApp = page.getByRole('button', { name: 'Open in Relay Desktop' });
  }

  async ask(question: string): Promise<void> {
    await this.prompt.fill(question);
    await this.prompt.press('Enter');
  }

  /** Waits until the reply has ended (the Stop button is gone, Open is enabled). */
  async waitForReply(): Promise<void> {
    await this.reply.waitFor();
    await this.page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown } })
        .document;
      return doc.querySelector('.quick-reply[aria-busy="false"]') !== null;
    });
  }
}
