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

  it('shows the first run, Models, Usage, Connections and Backups in German', async () => {
    const app = await suite.openApp();
    await suite.app.services.settings.update({ language: 'de' });
    await app.page.reload();
    const page = app.page;

    // The first-run screen, its demo offer and the restore offer of the backups.
    await page
      .getByRole('heading', { level: 1, name: 'Mit einem Model Relay verbinden' })
      .waitFor();
    await page.getByRole('form', { name: 'Neue Verbindung' }).getByLabel('Basisadresse').waitFor();
    await page.getByRole('button', { name: 'Aus einer Sicherung wiederherstellen …' }).waitFor();
    await page.getByRole('button', { name: 'Demo-Relay ausprobieren' }).click();

    const nav = page.getByRole('navigation', { name: 'Bereiche' });
    await nav.getByRole('button', { name: 'Modelle', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Modelle' }).waitFor();
    await page.getByRole('searchbox', { name: 'Modelle durchsuchen' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Bilder' }).waitFor();
    await expect(
      page.getByRole('button', { name: /^Preis von demo-chat festlegen$/ }).count(),
    ).resolves.toBe(1);

    await nav.getByRole('button', { name: 'Verbrauch', exact: true }).click();
    await page.getByText('Kein Verbrauch in den letzten 30 Tagen').waitFor();

    await nav.getByRole('button', { name: 'Verbindungen', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Verbindungen' }).waitFor();
    await page
      .getByRole('list', { name: 'Gespeicherte Verbindungen' })
      .getByText('In Verwendung')
      .waitFor();
    await page.getByRole('button', { name: 'Verbindung hinzufügen' }).waitFor();

    await nav.getByRole('button', { name: 'Einstellungen', exact: true }).click();
    await page
      .getByRole('region', { name: 'Sicherungen' })
      .getByRole('button', { name: 'Ordner wählen …' })
      .waitFor();
  }, 60_000);

  it('shows the pseudo-language on the first run, Models, Usage, Connections and Backups with nothing cut off or left out', async () => {
    const app = await suite.openApp();
    await suite.app.services.settings.update({ language: 'en-XA' });
    await app.page.reload();
    const page = app.page;

    // The first-run screen: only words of the catalogues, nothing cut off.
    await expect
      .poll(() => page.locator('h1.welcome-title').textContent(), { timeout: 20_000 })
      .toMatch(/^[^A-Za-z]+$/);
    await page.locator('.restore-offer').waitFor();
    await expect(plainWords(page, ['main.welcome'], [])).resolves.toEqual([]);
    expect(await cutOff(page, 'main.welcome')).toEqual([]);

    await page.locator('.demo-offer button').click();
    const nav = page.locator('nav.sidebar');
    await nav.locator('.nav-item').first().waitFor();
    const [connection] = await suite.app.services.connections.list();
    const own = [
      connection?.name ?? '',
      connection?.baseUrl ?? '',
      connection?.consoleUrl ?? '',
      // The end of the key, as "Key saved (…abcd)" shows it.
      connection?.keyLast4 ?? '',
      ...Object.values(LANGUAGE_NAMES),
    ];

    // Models: the relay's model ids and owners and the currency codes are not words to translate.
    await nav.locator('.nav-item').nth(3).click();
    await page.locator('.model-row').first().waitFor();
    const relayNames = await page
      .locator('.model-id, .model-owner, .prices-currency option')
      .allTextContents();
    // Longest first: "demo-chat-fast" goes whole, not as "demo-chat" and "-fast".
    relayNames.sort((a, b) => b.length - a.length);
    await expect(plainWords(page, ['main.screen'], [...own, ...relayNames])).resolves.toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);

    // A price form open, with a mistake said beside its field.
    await page.locator('.model-price-unset').first().click();
    await page.locator('.price-form button[type="submit"]').click();
    await page.locator('.price-form .field-error').first().waitFor();
    await expect(plainWords(page, ['.price-form'], [...own, ...relayNames])).resolves.toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);

    // Usage, before any reply.
    await nav.locator('.nav-item').nth(6).click();
    await page.locator('.empty-state').waitFor();
    await expect(plainWords(page, ['main.screen'], own)).resolves.toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);

    // Connections, with the form of a new one open.
    await nav.locator('.nav-item').nth(7).click();
    await page.locator('.connection-card').waitFor();
    await page.locator('.page-header .button-primary').click();
    await page.locator('.connection-form').waitFor();
    await expect(plainWords(page, ['main.screen'], own)).resolves.toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);

    // Settings → Backups.
    await nav.locator('.nav-item').nth(8).click();
    await page.locator('#backups .backup-controls').waitFor();
    await expect(plainWords(page, ['#backups'], own)).resolves.toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);
  }, 90_000);
});
