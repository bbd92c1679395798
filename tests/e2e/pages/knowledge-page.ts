import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The Knowledge screen: its bases, the one chosen, and its "Try a question" box. */
export class KnowledgePage {
  readonly heading: Locator;
  readonly name: Locator;
  readonly model: Locator;
  readonly status: Locator;
  readonly refused: Locator;
  readonly question: Locator;
  readonly hits: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Knowledge' });
    this.name = page.getByRole('textbox', { name: 'Name', exact: true });
    this.model = page.getByLabel('Embeddings model');
    this.status = page.getByTestId('knowledge-status');
    this.refused = page.getByRole('list', { name: 'Files not added' }).getByRole('listitem');
    this.question = page.getByRole('textbox', { name: 'Question', exact: true });
    this.hits = page
      .getByRole('list', { name: 'Passages found, best first' })
      .getByRole('listitem');
  }

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Knowledge', exact: true })
      .click();
    await this.heading.waitFor();
  }

  /** The demo relay's embeddings model offered for a new base. */
  async ready(): Promise<void> {
    await expect.poll(() => this.model.inputValue()).toBe('demo-embedding');
  }

  async create(name: string): Promise<void> {
    await this.name.fill(name);
    await this.page.getByRole('button', { name: 'Create', exact: true }).click();
    await this.page.getByRole('region', { name }).waitFor();
  }

  async ask(question: string): Promise<void> {
    await this.question.fill(question);
    await this.question.press('Enter');
    await this.hits.first().waitFor();
  }
}
