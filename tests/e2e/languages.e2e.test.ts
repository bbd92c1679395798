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

/**
 * Text on those parts with a plain (unaccented) letter: a word the pseudo-language did not reach.
 * Names the person chose (the connection's) and the languages named in themselves are theirs.
 */
function plainWords(page: Page, own: string[]): Promise<string[]> {
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
            for (const name of own) text = text.split(name).join('');
            if (/[A-Za-z]/.test(text)) found.push(text.trim());
          }
        }
      }
      return found;
    },
    { selectors: TRANSLATED, own },
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
    await expect(plainWords(page, [connection, ...Object.values(LANGUAGE_NAMES)])).resolves.toEqual(
      [],
    );
    expect(await cutOff(page, 'nav.sidebar')).toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);
  }, 60_000);
});
