/**
 * Languages: a choice in Settings changes the shell's and Settings' words at once and is kept
 * over a reload; and the pseudo-language (every letter accented, each message 40% longer) over
 * the translated screens shows no control cut off and no word that is not from the catalogues.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LANGUAGE_NAMES } from '../../electron/shared/locales';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { cutOff } from './pages/layout';
import { ShellPage } from './pages/shell-page';
import { plainWords } from './pages/untranslated';

const suite = e2eSuite({ relay: false });

async function connected(): Promise<Page> {
  const app = await suite.openApp();
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.tryDemo.click();
  await new ConnectPage(app.page).waitUntilConnected();
  return app.page;
}

/** The translated parts of the shell and of Settings. */
const TRANSLATED = [
  'nav.sidebar',
  '.page-header',
  'section[aria-labelledby="appearance-title"]',
  'section[aria-labelledby="chat-defaults-title"]',
  'section[aria-labelledby="timeouts-title"]',
  'section[aria-labelledby="updates-title"]',
  'section[aria-labelledby="support-log-title"]',
];

describe('languages', () => {
  it('changes the shell and Settings at once when another is chosen, and keeps it', async () => {
    const page = await connected();
    const shell = new ShellPage(page);
    await shell.open('Settings');
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Deutsch' });

    // At once, without a restart: the navigation, the heading and the sections.
    await page.getByRole('heading', { level: 1, name: 'Einstellungen' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Bereiche' });
    await nav.getByRole('button', { name: 'Modelle', exact: true }).waitFor();
    await page.getByRole('region', { name: 'Darstellung' }).waitFor();
    await expect(page.getByRole('combobox', { name: 'Sprache' }).inputValue()).resolves.toBe('de');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect.poll(async () => (await suite.app.services.settings.get()).language).toBe('de');

    // Kept: a reload starts in German, and "System" goes back to the system's (English here).
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Bereiche' })
      .getByRole('button', { name: 'Einstellungen', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Einstellungen' }).waitFor();
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('system');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  }, 60_000);

  it('shows the pseudo-language on the translated screens with nothing cut off or left out', async () => {
    const page = await connected();
    await suite.app.services.settings.update({ language: 'en-XA' });
    await page.reload();
    // The navigation's last screen is Settings, whatever its name.
    const nav = page.locator('nav.sidebar');
    await nav.locator('.nav-item').nth(8).click();
    await page.locator('h1.page-title').waitFor();
    await expect(page.locator('h1.page-title').textContent()).resolves.toMatch(/^Šéţţîñĝš·+$/);

    const connection = (await suite.app.services.connections.list())[0]?.name ?? '';
    await expect(
      plainWords(page, TRANSLATED, [connection, ...Object.values(LANGUAGE_NAMES)]),
    ).resolves.toEqual([]);
    expect(await cutOff(page, 'nav.sidebar')).toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);
  }, 60_000);
});
