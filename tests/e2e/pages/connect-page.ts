import type { Locator, Page } from 'playwright-core';

export interface ConnectionFields {
  name?: string;
  baseUrl?: string;
  apiKey?: string;
  consoleUrl?: string;
}

/** A connection form: on the first-run screen, in "Add connection", or editing a saved one. */
export class ConnectionFormPart {
  readonly name: Locator;
  readonly baseUrl: Locator;
  readonly apiKey: Locator;
  readonly consoleUrl: Locator;
  readonly testResult: Locator;
  readonly saveError: Locator;

  constructor(readonly root: Locator) {
    this.name = root.getByLabel('Name', { exact: true });
    this.baseUrl = root.getByLabel('Base address');
    this.apiKey = root.getByLabel(/API key/);
    this.consoleUrl = root.getByLabel('Console address (optional)');
    this.testResult = root.locator('.test-result');
    this.saveError = root.getByRole('alert').filter({ hasNot: root.locator('.test-result') });
  }

  async fill(fields: ConnectionFields): Promise<void> {
    if (fields.name !== undefined) await this.name.fill(fields.name);
    if (fields.baseUrl !== undefined) await this.baseUrl.fill(fields.baseUrl);
    if (fields.apiKey !== undefined) await this.apiKey.fill(fields.apiKey);
    if (fields.consoleUrl !== undefined) await this.consoleUrl.fill(fields.consoleUrl);
  }

  /** Clicks "Test connection" and waits for its outcome. */
  async test(): Promise<Locator> {
    await this.root.getByRole('button', { name: 'Test connection' }).click();
    await this.testResult.waitFor();
    return this.testResult;
  }

  async save(): Promise<void> {
    await this.root.getByRole('button', { name: /^Save/ }).click();
  }
}

/** The first-run screen. */
export class ConnectPage {
  readonly heading: Locator;
  readonly form: ConnectionFormPart;
  readonly tryDemo: Locator;
  readonly keyStorageWarning: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Connect to a model relay' });
    this.form = new ConnectionFormPart(page.getByRole('form', { name: 'New connection' }));
    this.tryDemo = page.getByRole('button', { name: 'Try the demo relay' });
    this.keyStorageWarning = page.locator('.key-storage-notice');
  }

  async waitUntilShown(): Promise<void> {
    await this.heading.waitFor();
  }

  /** Connecting from here lands in Chat, on a new chat with its suggestions. */
  async waitUntilConnected(): Promise<void> {
    await this.page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
  }

  async connect(fields: Required<Pick<ConnectionFields, 'name' | 'baseUrl'>> & ConnectionFields) {
    await this.form.fill(fields);
    await this.form.save();
  }
}
