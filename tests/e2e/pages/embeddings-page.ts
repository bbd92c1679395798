import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The embeddings playground, as a person sees it. */
export class EmbeddingsPage {
  readonly heading: Locator;
  readonly lines: Locator;
  readonly model: Locator;
  readonly embedButton: Locator;
  readonly inputError: Locator;
  readonly results: Locator;
  readonly heatmap: Locator;
  readonly scatter: Locator;
  readonly heatmapReadout: Locator;
  readonly progress: Locator;
  readonly runs: Locator;
  /** The countdown of main's automatic retry after a 429, inside the progress card. */
  readonly retryNotice: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Embeddings' });
    this.lines = page.getByLabel('One text per line');
    this.model = page.getByLabel('Embedding model');
    this.embedButton = page.locator('.embeddings-input').getByRole('button', { name: /^Embed/ });
    this.inputError = page.locator('.embeddings-input .field-error');
    this.results = page.getByRole('region', { name: 'Vectors' });
    this.heatmap = page.locator('canvas.heatmap-canvas');
    this.scatter = page.locator('canvas.scatter-canvas');
    this.heatmapReadout = page.locator('#heatmap-value');
    this.progress = page.getByRole('region', { name: 'Embedding in progress' });
    this.runs = page.getByRole('region', { name: 'Saved runs' });
    this.retryNotice = this.progress.locator('.retry-notice');
  }

  /** The demo relay's model chosen. */
  async ready(): Promise<void> {
    await expect.poll(() => this.model.inputValue()).toBe('demo-embedding');
  }

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Embeddings', exact: true })
      .click();
    await this.heading.waitFor();
  }

  async embedLines(texts: readonly string[]): Promise<void> {
    await this.lines.fill(texts.join('\n'));
    await this.embedButton.click();
  }

  /** Waits until both pictures are painted. */
  async waitForPictures(timeout = 30_000): Promise<void> {
    await this.page.locator('canvas.heatmap-canvas[data-painted="true"]').waitFor({ timeout });
    await this.page.locator('canvas.scatter-canvas[data-painted="true"]').waitFor({ timeout });
  }

  row(index: number): Locator {
    return this.results.locator('tbody tr').filter({
      has: this.page.locator('td:first-child', { hasText: new RegExp(`^${index + 1}$`) }),
    });
  }

  async nearest(query: string): Promise<string[]> {
    await this.page.getByLabel('Text to compare with the set').fill(query);
    await this.page.getByRole('button', { name: 'Rank' }).click();
    const list = this.page.getByRole('list', { name: `Nearest to ${query}` });
    await list.waitFor();
    return list.locator('.nearest-text').allTextContents();
  }
}
