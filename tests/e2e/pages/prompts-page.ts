import type { Locator, Page } from 'playwright-core';

/** The prompt library: its list, its editor and the dialog a chat starts from. */
export class PromptsPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly editor: Locator;
  readonly startDialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Prompts' });
    this.search = page.getByRole('searchbox', { name: 'Search prompts' });
    this.editor = page.locator('section.prompt-editor');
    this.startDialog = page.locator('dialog.prompt-start-dialog');
  }

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Prompts', exact: true })
      .click();
    await this.heading.waitFor();
  }

  /** The library read: the built-in prompts listed. */
  async ready(): Promise<void> {
    await this.page.getByRole('region', { name: 'Assistants' }).waitFor();
  }

  card(name: string): Locator {
    return this.page.locator('li.prompt-card', {
      has: this.page.locator('.prompt-card-name', { hasText: name }),
    });
  }

  /** Opens the editor for a new prompt of `kind` and fills its fields (Save not pressed). */
  async fillNew(
    kind: 'assistant' | 'snippet',
    fields: { name: string; text: string; starters?: string },
  ): Promise<void> {
    await this.page
      .getByRole('button', { name: kind === 'assistant' ? 'New assistant' : 'New snippet' })
      .click();
    await this.editor.waitFor();
    await this.editor.getByRole('textbox', { name: 'Name', exact: true }).fill(fields.name);
    await this.editor
      .getByRole('textbox', { name: kind === 'assistant' ? 'System prompt' : 'Text to insert' })
      .fill(fields.text);
    if (fields.starters !== undefined)
      await this.editor.getByRole('textbox', { name: 'Starter messages' }).fill(fields.starters);
  }

  async save(): Promise<void> {
    await this.editor.getByRole('button', { name: 'Save' }).click();
  }
}
