/**
 * Words in every language: the rename box starts with the title as the person reads it (main's
 * English default shown in their language, kept as the default when saved untouched). That no
 * field's placeholder is cut off, on any screen in any of the six languages, wide or narrow, is
 * the tour's (tour.e2e.test.ts).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ChatStore } from '../../electron/main/services/chat/store';
import type { LOCALES } from '../../electron/shared/locales';
import { DEFAULT_TITLE } from '../../electron/shared/conversation-titles';
import { callFromPage } from './harness/page-calls';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Words relay' });

async function inLanguage(page: Page, language: (typeof LOCALES)[number]): Promise<void> {
  await suite.app.services.settings.update({ language });
  await page.reload();
  await page.locator(`html[lang="${language}"]`).waitFor();
}

describe('words', () => {
  it('starts the rename box with the default title in the person’s language', async () => {
    const chat = await suite.connected(ChatPage, { ready: false });
    const page = chat.page;
    const created = await callFromPage(page, 'createConversation', {});
    await inLanguage(page, 'de');
    await page.locator('nav.sidebar .nav-item').first().click();
    const row = page.locator('.chat-conversation').filter({ hasText: 'Neue Unterhaltung' });
    await row.waitFor({ timeout: 8000 });
    await row.locator('.chat-conversation-more').click();
    await page.getByRole('menuitem', { name: 'Umbenennen' }).click();
    const field = page.locator('.chat-rename input');
    await expect.poll(() => field.inputValue()).toBe('Neue Unterhaltung');
    // Saved untouched: still main's default, so it follows a later change of language.
    await page.keyboard.press('Enter');
    await field.waitFor({ state: 'detached' });
    const stored = new ChatStore(suite.app.services.db).get((created as { id: string }).id);
    expect(stored?.title).toBe(DEFAULT_TITLE);
  });
});
