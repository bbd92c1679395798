import type { Locator, Page } from 'playwright-core';

export type ScreenName = 'Models' | 'Connections' | 'Settings' | 'Usage';

/** The app's frame: the sidebar and which connection is in use. */
export class ShellPage {
  readonly nav: Locator;
  readonly activeConnection: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Screens' });
    this.activeConnection = this.nav.locator('.active-connection');
  }

  /** How the last request to the connection in use went, as its dot shows it. */
  async connectionState(): Promise<string | null> {
    return this.activeConnection.locator('.status-dot').getAttribute('data-state');
  }

  async open(screen: ScreenName): Promise<void> {
    await this.nav.getByRole('button', { name: screen, exact: true }).click();
    await this.page.getByRole('heading', { level: 1, name: screen }).waitFor();
  }
}
