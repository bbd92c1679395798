import type { Locator, Page } from 'playwright-core';
import { ConnectionFormPart } from './connect-page';

/** One saved connection's card. */
export class ConnectionCardPart {
  readonly keyStatus: Locator;
  readonly address: Locator;

  constructor(readonly root: Locator) {
    this.keyStatus = root.locator('dt:text-is("Key") + dd');
    this.address = root.locator('dt:text-is("Address") + dd');
  }

  badge(text: string): Locator {
    return this.root.locator('.badge', { hasText: text });
  }

  async use(): Promise<void> {
    await this.root.getByRole('button', { name: 'Use', exact: true }).click();
  }

  async edit(): Promise<ConnectionFormPart> {
    await this.root.getByRole('button', { name: /^Edit / }).click();
    return new ConnectionFormPart(this.root.getByRole('form'));
  }

  /** Opens the delete dialog; returns it. */
  async askToDelete(): Promise<Locator> {
    await this.root.getByRole('button', { name: /^Delete / }).click();
    const dialog = this.root.page().getByRole('dialog');
    await dialog.waitFor();
    return dialog;
  }
}

/** The Connections screen. */
export class ConnectionsPage {
  readonly list: Locator;
  readonly keyStorageWarning: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByRole('list', { name: 'Saved connections' });
    this.keyStorageWarning = page.locator('.key-storage-notice');
  }

  card(name: string): ConnectionCardPart {
    return new ConnectionCardPart(
      this.list.getByRole('listitem').filter({
        has: this.page.getByRole('heading', { level: 3, name, exact: true }),
      }),
    );
  }

  async add(): Promise<ConnectionFormPart> {
    await this.page.getByRole('button', { name: 'Add connection' }).click();
    return new ConnectionFormPart(this.page.getByRole('form', { name: 'New connection' }));
  }
}
