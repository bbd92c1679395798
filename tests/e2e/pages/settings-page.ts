import type { Locator, Page } from 'playwright-core';

export type ThemeLabel = 'System' | 'Light' | 'Dark';

/** The Settings screen. */
export class SettingsPage {
  readonly temperature: Locator;
  readonly maxTokens: Locator;
  readonly requestTimeout: Locator;
  readonly idleTimeout: Locator;
  readonly saved: Locator;

  constructor(readonly page: Page) {
    this.temperature = page.getByLabel('Temperature');
    this.maxTokens = page.getByLabel('Max tokens');
    this.requestTimeout = page.getByLabel('Request timeout (seconds)');
    this.idleTimeout = page.getByLabel('Idle timeout (seconds)');
    this.saved = page.locator('.save-status');
  }

  theme(label: ThemeLabel): Locator {
    return this.page.getByRole('radio', { name: new RegExp(`^${label}\\b`) });
  }

  async chooseTheme(label: ThemeLabel): Promise<void> {
    await this.theme(label).check();
  }

  /** The error shown under a field, read through its aria-describedby. */
  fieldError(field: Locator): Locator {
    return field.locator('xpath=following-sibling::p[contains(@class,"field-error")]');
  }
}
