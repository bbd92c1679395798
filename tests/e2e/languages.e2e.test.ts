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

/**
 * Text on the parts of the page `selectors` find with a plain (unaccented) letter: a word the
 * pseudo-language did not reach. What the person chose or wrote (the connection's name, texts,
 * models' ids) and the languages named in themselves are theirs, in `own`.
 */
function plainWords(page: Page, selectors: string[], own: string[]): Promise<string[]> {
  return page.evaluate(
    ({ selectors, own }) => {
      interface Node {
        nodeValue: string | null;
        parentElement: { closest(s: string): unknown } | null;
      }
      const doc = (
        globalThis as unknown as {
          document: {
            querySelectorAll(s: string): ArrayLike<unknown>;
            createTreeWalker(root: unknown, what: number): { nextNode(): Node | null };
          };
        }
      ).document;
      const found: string[] = [];
      const longestFirst = [...own].sort((a, b) => b.length - a.length);
      for (const selector of selectors) {
        const roots = Array.from(doc.querySelectorAll(selector));
        if (roots.length === 0) found.push(`${selector}: not on the page`);
        for (const root of roots) {
          const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            // Main's own messages (relay errors, an update check's reason) are not translated yet.
            if (node.parentElement?.closest('option[lang], [data-source="main"], script, style'))
              continue;
            let text = node.nodeValue ?? '';
            // The longest first: "demo-embedding-small" before "demo-embedding".
            for (const name of longestFirst) text = text.split(name).join('');
            if (/[A-Za-z]/.test(text)) found.push(text.trim());
          }
        }
      }
      return found;
    },
    { selectors, own },
  );
}

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
