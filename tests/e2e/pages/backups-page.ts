import type { Locator, Page } from 'playwright-core';

/** Settings → Backups, the sidebar's backup line, and the restore dialogs. */
export class BackupsPage {
  readonly section: Locator;
  readonly headline: Locator;
  readonly warning: Locator;
  readonly chooseFolder: Locator;
  readonly schedule: Locator;
  readonly backUpNow: Locator;
  readonly list: Locator;
  readonly restoreFromFile: Locator;
  readonly sidebarLine: Locator;
  readonly restoreDialog: Locator;
  readonly restoredDialog: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByRole('region', { name: 'Backups' });
    this.headline = this.section.locator('.backup-headline');
    this.warning = this.section.locator('.notice-warning');
    this.chooseFolder = this.section.getByRole('button', { name: /^(Choose|Change) folder/ });
    this.schedule = this.section.getByLabel('Back up');
    this.backUpNow = this.section.getByRole('button', { name: 'Back up now' });
    this.list = this.section.getByRole('list', { name: 'Backups in the folder' });
    this.restoreFromFile = page.getByRole('button', { name: /^Restore from a (file|backup)/ });
    this.sidebarLine = page.getByRole('navigation', { name: 'Screens' }).locator('.backup-badge');
    this.restoreDialog = page.getByRole('dialog', { name: 'Restore a backup' });
    this.restoredDialog = page.getByRole('dialog', { name: 'Backup restored' });
  }

  rows(): Locator {
    return this.list.getByRole('listitem');
  }

  /** Opens the restore dialog of the `index`-th backup of the list (newest first). */
  async askToRestore(index: number): Promise<Locator> {
    await this.rows()
      .nth(index)
      .getByRole('button', { name: /^Restore the backup of/ })
      .click();
    await this.restoreDialog.waitFor();
    return this.restoreDialog;
  }
}
