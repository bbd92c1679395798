/**
 * The shortcut sheet names the keys as the platform the app runs on prints them, in every
 * language: ⌘ and ⇧ symbols with "Command" read aloud on macOS, Ctrl and Shift on Windows and
 * Linux, each word in the language shown ("Strg", "Umschalt" in German). The platform is the one
 * the page reports (`navigator.platform`), set here before the page loads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../electron/shared/locales';
import type { ShortcutPlatform } from '../../electron/shared/shortcuts';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';

const suite = e2eSuite({ relay: false });

const MESSAGES = join(import.meta.dirname, '../../renderer/src/i18n/messages');
/** A key's name in `locale`, as the shell's catalogue gives it ("Ctrl" → "Strg"). */
function keyWord(locale: string, english: string): string {
  const shell = JSON.parse(readFileSync(join(MESSAGES, locale, 'shell.json'), 'utf8')) as Record<
    string,
    string
  >;
  const word = shell[`key.${english}`];
  if (!word) throw new Error(`${locale}/shell.json has no key.${english}`);
  return word;
}

const REPORTED: Record<ShortcutPlatform, string> = {
  mac: 'MacIntel',
  windows: 'Win32',
  linux: 'Linux x86_64',
};

/** The app on the demo relay, on a page that reports `platform`. */
async function appOn(platform: ShortcutPlatform): Promise<Page> {
  const app = await suite.openApp();
  await app.page.addInitScript((reported) => {
    const proto = Object.getPrototypeOf(
      (globalThis as unknown as { navigator: object }).navigator,
    ) as object;
    Object.defineProperty(proto, 'platform', { get: () => reported });
    Object.defineProperty(proto, 'userAgentData', { get: () => undefined });
  }, REPORTED[platform]);
  await app.page.reload();
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.tryDemo.click();
  await connect.waitUntilConnected();
  return app.page;
}

interface Row {
  caps: string[][];
  spoken: string[];
}

/** The DOM the page-side code reads (the tests compile without the DOM library). */
interface El {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): ArrayLike<El>;
}

/**
 * Each shortcut of the open sheet: its chords' key caps and what a screen reader hears. Read in
 * one pass in the page (a locator call per cap would cost a round trip to the browser each).
 */
async function sheetRows(page: Page): Promise<Record<string, Row>> {
  const rows = await page.locator('dialog.shortcut-sheet [data-shortcut]').evaluateAll((elements) =>
    (elements as unknown as El[]).map((row) => ({
      id: row.getAttribute('data-shortcut') ?? '',
      row: {
        caps: Array.from(row.querySelectorAll('.shortcut-chord')).map((chord) =>
          Array.from(chord.querySelectorAll('kbd')).map((kbd) => kbd.textContent ?? ''),
        ),
        spoken: Array.from(row.querySelectorAll('.shortcut-chord')).map(
          (chord) => chord.querySelector('.visually-hidden')?.textContent ?? '',
        ),
      },
    })),
  );
  return Object.fromEntries(rows.map(({ id, row }) => [id, row]));
}

describe.each(['mac', 'windows', 'linux'] as const)('the shortcut sheet on %s', (platform) => {
  it('names the keys as this platform does, in every language', async () => {
    const page = await appOn(platform);
    const mac = platform === 'mac';
    for (const locale of LOCALES) {
      await suite.app.services.settings.update({ language: locale });
      await page.reload();
      await page.locator('nav.sidebar').waitFor();
      await expect
        .poll(() => page.locator('html').getAttribute('lang'), { timeout: 20_000 })
        .toBe(locale);
      await page.keyboard.press(mac ? 'Meta+/' : 'Control+/');
      await page.locator('dialog.shortcut-sheet .shortcut-groups').waitFor();
      const rows = await sheetRows(page);
      const word = (english: string) => keyWord(locale, english);
      const where = `${platform}, ${locale}`;

      if (mac) {
        expect(rows.newChat, where).toEqual({
          caps: [['⌘', 'N']],
          spoken: [`${word('Command')}+N`],
        });
        expect(rows.toggleConversations, where).toEqual({
          caps: [['⌘', '⇧', 'S']],
          spoken: [`${word('Command')}+${word('Shift')}+S`],
        });
        expect(rows.sendMessage, where).toEqual({ caps: [['↩']], spoken: [word('Return')] });
      } else {
        expect(rows.newChat, where).toEqual({
          caps: [[word('Ctrl'), 'N']],
          spoken: [`${word('Ctrl')}+N`],
        });
        expect(rows.toggleConversations, where).toEqual({
          caps: [[word('Ctrl'), word('Shift'), 'S']],
          spoken: [`${word('Ctrl')}+${word('Shift')}+S`],
        });
        expect(rows.sendMessage, where).toEqual({
          caps: [[word('Enter')]],
          spoken: [word('Return')],
        });
      }
      expect(rows.stopGenerating, where).toEqual({
        caps: [[word('Esc')]],
        spoken: [word('Escape')],
      });

      // No other platform's keys anywhere on the sheet.
      const caps = Object.values(rows).flatMap((row) => row.caps.flat());
      const spoken = Object.values(rows).flatMap((row) => row.spoken);
      if (mac) {
        expect(caps, where).not.toContain(word('Ctrl'));
        expect(spoken.join(' '), where).not.toContain(`${word('Ctrl')}+`);
      } else {
        expect(
          caps.filter((cap) => ['⌘', '⌥', '⇧', '↩'].includes(cap)),
          where,
        ).toEqual([]);
        expect(spoken.join(' '), where).not.toContain(`${word('Command')}+`);
      }
      await page.keyboard.press('Escape');
      await page.locator('dialog.shortcut-sheet').waitFor({ state: 'hidden' });
    }
  }, 120_000);
});
