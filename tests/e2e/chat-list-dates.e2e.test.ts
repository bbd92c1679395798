/**
 * The conversation list by date: pinned first, then Today, Yesterday, the previous 7 and 30 days,
 * then by month, named in the person's language; Tab still walks the rows from one section into
 * the next, and the list stays virtualized.
 */
import { describe, expect, it } from 'vitest';
import { ChatStore } from '../../electron/main/services/chat/store';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Dates relay' });

/** Noon of the local day `days` before today. */
function daysAgo(days: number): Date {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, 12);
}

const monthOf = (locale: string, date: Date) =>
  new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(date);

/** Older conversations, all in one month over a year ago: enough to need virtualizing. */
const OLD = 250;

describe('the conversation list by date', () => {
  it('groups by day and month under localized headings, pinned first, Tab crossing the groups', async () => {
    const page = await suite.connected(ChatPage, {
      ready: false,
      seed: (app) => {
        const store = new ChatStore(app.services.db);
        const add = (title: string, at: Date, pinned = false) =>
          store.create({
            title,
            model: 'demo-chat',
            pinned,
            createdAt: at.toISOString(),
            updatedAt: at.toISOString(),
          });
        const old = daysAgo(400);
        for (let i = 0; i < OLD; i++) add(`Old ${i}`, new Date(old.getTime() - i * 1000));
        add('Two months back', daysAgo(70));
        add('Two weeks back', daysAgo(15));
        add('Three days back', daysAgo(3));
        add('From yesterday', daysAgo(1));
        add('Earlier today', new Date(Date.now() - 1000));
        add('Just now', new Date());
        add('Pinned long ago', daysAgo(500), true);
      },
    });
    const sidebar = page.sidebar;
    const headings = sidebar.locator('.chat-list-heading');
    const titles = sidebar.locator('.chat-conversation-title');
    const english = [
      'Pinned',
      'Today',
      'Yesterday',
      'Previous 7 days',
      'Previous 30 days',
      monthOf('en', daysAgo(70)),
      monthOf('en', daysAgo(400)),
    ];
    for (const size of [
      { width: 1280, height: 800 },
      { width: 900, height: 650 },
    ]) {
      await page.page.setViewportSize(size);
      await expect
        .poll(() => titles.first().textContent(), { timeout: 8000 })
        .toBe('Pinned long ago');
      // The headings mounted at the top, in order (the list mounts a screenful and a bit).
      await expect.poll(() => headings.allTextContents()).toEqual(english);
      // Each heading stands above its first row.
      await expect(
        sidebar
          .locator('.chat-conversation-row')
          .filter({ hasText: 'From yesterday' })
          .locator('.chat-list-heading')
          .textContent(),
      ).resolves.toBe('Yesterday');
      await expect(
        sidebar
          .locator('.chat-conversation-row')
          .filter({ hasText: 'Earlier today' })
          .locator('.chat-list-heading')
          .count(),
      ).resolves.toBe(0);
    }
    // Still virtualized: far fewer rows in the page than conversations.
    expect(await sidebar.locator('.chat-conversation-row').count()).toBeLessThan(OLD / 2);

    // Tab from the pinned row walks every row in order, across the headings.
    await sidebar.locator('.chat-conversation-open').first().focus();
    const reached: string[] = [];
    for (let step = 0; step < 30 && reached.length < 9; step++) {
      const focused = await page.page.evaluate(() => {
        const active = (
          globalThis as unknown as {
            document: {
              activeElement: {
                classList: { contains(name: string): boolean };
                textContent: string | null;
              } | null;
            };
          }
        ).document.activeElement;
        return active?.classList.contains('chat-conversation-open')
          ? (active.textContent ?? '')
          : undefined;
      });
      if (focused !== undefined && reached.at(-1) !== focused) reached.push(focused);
      await page.page.keyboard.press('Tab');
    }
    expect(reached).toEqual([
      'Pinned long ago',
      'Just now',
      'Earlier today',
      'From yesterday',
      'Three days back',
      'Two weeks back',
      'Two months back',
      'Old 0',
      'Old 1',
    ]);

    // In German, the headings and the month are German.
    await suite.app.services.settings.update({ language: 'de' });
    await page.page.reload();
    await page.page.locator('html[lang="de"]').waitFor();
    await page.page.locator('nav.sidebar .nav-item').first().click();
    await expect
      .poll(() => page.page.locator('.chat-list-heading').allTextContents(), { timeout: 8000 })
      .toEqual([
        'Angeheftet',
        'Heute',
        'Gestern',
        'Letzte 7 Tage',
        'Letzte 30 Tage',
        monthOf('de', daysAgo(70)),
        monthOf('de', daysAgo(400)),
      ]);
  }, 60_000);
});
