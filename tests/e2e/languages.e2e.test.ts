/**
 * Languages: a choice in Settings changes the shell's and Settings' words at once and is kept
 * over a reload, and the Embeddings and Images screens follow it; and the pseudo-language (every
 * letter accented, each message 40% longer) over the translated screens shows no control cut off
 * and no word that is not from the catalogues.
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
const SHELL_AND_SETTINGS = [
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
      plainWords(page, SHELL_AND_SETTINGS, [connection, ...Object.values(LANGUAGE_NAMES)]),
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

  it('changes the Embeddings and Images screens, and their texts built in actions, to German', async () => {
    const page = await connected();
    await suite.app.services.settings.update({ language: 'de' });
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Bereiche' });

    await nav.getByRole('button', { name: 'Embeddings', exact: true }).click();
    await page
      .getByText('Texte nach ihrer Bedeutung vergleichen und die Vektoren mitnehmen.')
      .waitFor();
    await expect
      .poll(() => page.getByLabel('Embedding-Modell').inputValue())
      .toBe('demo-embedding');
    // A check made before anything is sent, in German.
    await page.getByLabel('Ein Text pro Zeile').fill('Katze\n\nRechnung');
    await page.getByRole('button', { name: '3 Texte einbetten' }).click();
    await page
      .getByText('Zeile 2 ist leer. Entfernen Sie sie oder schreiben Sie dort einen Text.')
      .waitFor();
    await page.getByLabel('Ein Text pro Zeile').fill('Katze\nKätzchen\nRechnung');
    await page.getByRole('button', { name: '3 Texte einbetten' }).click();
    const vectors = page.getByRole('region', { name: 'Vektoren' });
    await vectors.getByText(/^3 von 3 eingebettet mit demo-embedding, .* Dimensionen/).waitFor();
    await page.getByRole('heading', { name: 'Kosinus-Ähnlichkeit' }).waitFor();
    await page.getByRole('img', { name: /^Ähnlichkeit von 3 Eingaben untereinander/ }).waitFor();
    await page
      .getByRole('img', { name: /^3 Eingaben, platziert nach ihren ersten beiden/ })
      .waitFor();
    await page.getByRole('region', { name: 'Gespeicherte Durchläufe' }).waitFor();
    // German's longer words leave the texts' card whole, in a wide window too.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await cutOff(page, '.embeddings-input')).toEqual([]);
    await page.getByRole('button', { name: 'Vektor von Eingabe 1 kopieren' }).waitFor();

    await nav.getByRole('button', { name: 'Bilder', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Bilder' }).waitFor();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Modell' }).inputValue())
      .toBe('demo-image');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('ein Leuchtturm');
    await page.getByRole('combobox', { name: 'Größe' }).selectOption('256x256');
    await page.getByRole('button', { name: 'Erzeugen', exact: true }).click();
    await page.locator('.generation-outcome', { hasText: '1 neues Bild.' }).waitFor();
    const gallery = page.getByRole('region', { name: 'Galerie' });
    await expect(gallery.locator('.gallery-title').textContent()).resolves.toBe('Galerie (1)');
    await gallery.getByRole('button', { name: 'Bild öffnen: ein Leuchtturm' }).click();
    const lightbox = page.getByRole('dialog', { name: 'Bild' });
    await lightbox.getByRole('button', { name: 'Prompt kopieren' }).waitFor();
    await lightbox.locator('dt', { hasText: 'Erstellt' }).waitFor();
  }, 90_000);

  it('shows the pseudo-language on Embeddings and Images with nothing cut off or left out', async () => {
    const page = await connected();
    await suite.app.services.settings.update({ language: 'en-XA' });
    await page.reload();
    const nav = page.locator('nav.sidebar .nav-item');
    const connection = (await suite.app.services.connections.list())[0]?.name ?? '';
    // Intl's own words where the pseudo-language has no dates of its own ("3:05 PM").
    const intl = ['AM', 'PM'];

    // Embeddings, the fifth screen: a run, its table, its pictures, and the saved runs.
    await nav.nth(4).click();
    await page.locator('.embeddings-page').waitFor();
    await expect
      .poll(() => page.locator('.embeddings-page select').first().inputValue())
      .toBe('demo-embedding');
    const texts = ['cat', 'kitten', 'invoice', 'receipt'];
    await page.locator('textarea.embeddings-lines').fill(texts.join('\n'));
    await page.locator('.embeddings-input .button-primary').click();
    await page.locator('canvas.heatmap-canvas[data-painted="true"]').waitFor({ timeout: 30_000 });
    await page.locator('canvas.scatter-canvas[data-painted="true"]').waitFor({ timeout: 30_000 });
    await page.locator('.embeddings-runs').waitFor();
    const models = await page.locator('.embeddings-page select option').allTextContents();
    await expect(
      plainWords(
        page,
        [
          '.embeddings-page .page-header',
          '.embeddings-input',
          '.embeddings-run-actions',
          '.embeddings-results',
          '.embeddings-picture',
          '.embeddings-nearest',
          '.embeddings-runs',
        ],
        [connection, ...models, ...texts, ...intl],
      ),
    ).resolves.toEqual([]);
    // Nothing past the screen's edge, nor past the edge of its own card.
    for (const column of ['main.screen', '.embeddings-input', '.embeddings-picture'])
      expect(await cutOff(page, column), column).toEqual([]);

    // Images, the sixth: the form, a Generate's outcome, the gallery and the lightbox.
    await nav.nth(5).click();
    await page.locator('.images-page').waitFor();
    await expect
      .poll(() => page.locator('.image-form select').first().inputValue())
      .toBe('demo-image');
    await page.locator('textarea.image-prompt').fill('a paper boat');
    await page.locator('.image-form select').nth(1).selectOption('256x256');
    await page.locator('.image-form .button-primary').click();
    await page.locator('.gallery-item').first().waitFor();
    await page.locator('.generation-outcome').waitFor();
    const folder = (await page.locator('.gallery-folder span').first().textContent()) ?? '';
    const imageOwn = [connection, 'demo-image', 'a paper boat', folder, ...intl];
    await expect(
      plainWords(
        page,
        ['.images-page .page-header', '.image-form', '.generation-outcome', '.gallery-header'],
        imageOwn,
      ),
    ).resolves.toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);

    await page.locator('.gallery-item').first().click();
    await page.locator('dialog.lightbox .lightbox-actions').waitFor();
    await expect(
      plainWords(page, ['.image-meta dt', '.lightbox-actions', '.lightbox-close'], imageOwn),
    ).resolves.toEqual([]);
    expect(await cutOff(page, 'dialog.lightbox')).toEqual([]);
  }, 90_000);
});
