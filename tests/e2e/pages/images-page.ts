import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { PageWindow } from '../harness/page-types';

/** The image studio and its gallery. */
export class ImagesPage {
  readonly heading: Locator;
  readonly model: Locator;
  readonly size: Locator;
  readonly count: Locator;
  readonly prompt: Locator;
  readonly generateButton: Locator;
  readonly cancelButton: Locator;
  readonly progress: Locator;
  readonly gallery: Locator;
  readonly thumbnails: Locator;
  readonly lightbox: Locator;
  readonly alert: Locator;
  /** What the last Generate did: how many images are new, how many were already there. */
  readonly outcome: Locator;
  readonly galleryTitle: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Images' });
    this.model = page.getByRole('combobox', { name: 'Model' });
    this.size = page.getByRole('combobox', { name: 'Size' });
    this.count = page.getByRole('spinbutton', { name: 'How many' });
    this.prompt = page.getByRole('textbox', { name: 'Prompt' });
    this.generateButton = page.getByRole('button', { name: 'Generate', exact: true });
    this.cancelButton = page.getByRole('button', { name: 'Cancel', exact: true });
    this.progress = page.locator('.generation-progress');
    this.gallery = page.getByRole('region', { name: 'Gallery' });
    this.thumbnails = this.gallery.locator('.gallery-item');
    this.lightbox = page.locator('dialog.lightbox');
    this.alert = page.getByRole('alert');
    this.outcome = page.locator('.generation-outcome');
    this.galleryTitle = page.locator('.gallery-title');
  }

  /** The demo relay's model chosen. */
  async ready(): Promise<void> {
    await expect.poll(() => this.model.inputValue()).toBe('demo-image');
  }

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Images', exact: true })
      .click();
    await this.heading.waitFor();
  }

  async generate(prompt: string, options: { size?: string; count?: number } = {}): Promise<void> {
    await this.prompt.fill(prompt);
    if (options.size) await this.size.selectOption(options.size);
    if (options.count) await this.count.fill(String(options.count));
    await this.generateButton.click();
  }

  /** Waits until `n` thumbnails show and each has loaded its image. */
  async waitForThumbnails(n: number): Promise<void> {
    await this.thumbnails.nth(n - 1).waitFor();
    await this.page.waitForFunction((count) => {
      type Img = { complete: boolean; naturalWidth: number };
      const page = globalThis as unknown as PageWindow;
      const images = Array.from(
        page.document.querySelectorAll('.gallery-item img'),
      ) as unknown as Img[];
      return images.length >= count && images.every((img) => img.complete && img.naturalWidth > 0);
    }, n);
  }

  /** A field of the open image's metadata, by its label. */
  meta(label: string): Locator {
    return this.lightbox.locator(`dt:text-is("${label}") + dd`);
  }
}
