import type { Locator, Page } from 'playwright-core';

/** The Tools screen: its MCP servers, the form that adds one, and the standing permissions. */
export class ToolsPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly permissions: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Tools' });
    this.form = page.locator('section.tools-form');
    this.permissions = page.locator('section.tools-permissions');
  }

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Tools', exact: true })
      .click();
    await this.heading.waitFor();
  }

  /** The servers read: the list or the empty state shown. */
  async ready(): Promise<void> {
    await this.page.locator('.tools-servers, .tools-page .empty-state').first().waitFor();
  }

  card(name: string): Locator {
    return this.page.locator('li.tools-server', {
      has: this.page.locator('.tools-server-name', { hasText: name }),
    });
  }

  /** Opens the form for a new local server and fills it (Save not pressed). */
  async fillLocal(fields: { name: string; command: string; args?: string[] }): Promise<void> {
    await this.page.getByRole('button', { name: 'Add server' }).first().click();
    await this.form.waitFor();
    await this.form.getByRole('textbox', { name: 'Name', exact: true }).fill(fields.name);
    await this.form.getByRole('textbox', { name: 'Command' }).fill(fields.command);
    await this.form
      .getByRole('textbox', { name: 'Arguments' })
      .fill((fields.args ?? []).join('\n'));
  }

  async save(): Promise<void> {
    await this.form.getByRole('button', { name: 'Save' }).click();
  }
}
