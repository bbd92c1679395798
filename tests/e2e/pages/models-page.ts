import type { Locator, Page } from 'playwright-core';

export type GroupTitle = 'Chat' | 'Embeddings' | 'Images';
export type KindLabel = 'Automatic' | GroupTitle;

/** The model picker. */
export class ModelsPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly refresh: Locator;
  readonly demoNotice: Locator;
  readonly failure: Locator;
  readonly loading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Models' });
    this.search = page.getByRole('searchbox', { name: 'Search models' });
    this.refresh = page.getByRole('button', { name: 'Refresh' }).first();
    this.demoNotice = page.locator('.demo-notice');
    this.failure = page.locator('.models-failure');
    this.loading = page.locator('.models-loading');
  }

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Models', exact: true })
      .click();
    await this.heading.waitFor();
  }

  group(title: GroupTitle): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  /** The count beside a group's title: "2", or "1 of 2" while searching. */
  count(title: GroupTitle): Locator {
    return this.group(title).locator('.count');
  }

  /** The model ids a group shows, in order. */
  async modelIds(title: GroupTitle): Promise<string[]> {
    return this.group(title).locator('.model-id').allTextContents();
  }

  row(modelId: string): Locator {
    return this.page.locator('.model-row').filter({
      has: this.page.locator('.model-id', { hasText: new RegExp(`^${escape(modelId)}$`) }),
    });
  }

  async waitForModels(): Promise<void> {
    await this.page.locator('.model-row').first().waitFor();
  }

  async setKind(modelId: string, kind: KindLabel): Promise<void> {
    await this.page.getByRole('combobox', { name: `Kind of ${modelId}` }).selectOption({
      label: kind,
    });
  }

  kindSelect(modelId: string): Locator {
    return this.page.getByRole('combobox', { name: `Kind of ${modelId}` });
  }

  async choose(modelId: string): Promise<void> {
    await this.row(modelId).getByRole('radio').check();
  }

  /** The in-place form that takes a corrected key after a 401. */
  async enterCorrectedKey(key: string): Promise<void> {
    const form = this.page.locator('.key-fix');
    await form.getByLabel(/^API key for /).fill(key);
    await form.getByRole('button', { name: 'Save key and retry' }).click();
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
