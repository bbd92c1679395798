/**
 * Main's words in the page: a relay error is shown in the language chosen in Settings, a stored
 * one follows a later change of language (the page formats it when it shows it, from the key and
 * values main kept), and one kept by the previous release (English text, no key) still shows as
 * it was written.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ connectionName: 'Language relay' });

const ENGLISH_401 =
  'The relay did not accept the API key (HTTP 401). Check the key and enter it again.';
const GERMAN_401 =
  'Das Relay hat den API-Schlüssel nicht angenommen (HTTP 401). Prüfen Sie den Schlüssel und geben Sie ihn erneut ein.';
const FRENCH_401 =
  'Le relais n’a pas accepté la clé d’API (HTTP 401). Vérifiez la clé et saisissez-la à nouveau.';

/**
 * Reloads the page in `locale` and opens the conversation with the failed replies again, by
 * places rather than words (the chat screen is the navigation's first).
 */
async function reopenChat(page: Page, locale: string): Promise<void> {
  await page.reload();
  await page.locator(`html[lang="${locale}"]`).waitFor();
  await page.locator('nav.sidebar .nav-item').first().click();
  await page.locator('.chat-conversation-open').filter({ hasText: 'Still there?' }).first().click();
}

describe('main’s messages in the person’s language', () => {
  it('shows a relay error in German, then in French after a switch, and an old English one as written', async () => {
    const chat = await suite.connected(ChatPage);
    const page = chat.page;
    // A 401 with no body: the words are the app's own, not the relay's.
    suite.relay.setFaults({ status: 401, statusBody: 'empty' });
    await chat.send('Still there?');
    await expect(chat.finishedReplyStatus()).resolves.toBe('error');
    const message = chat.replyAlert().locator('.failure-message').first();
    await expect(message.textContent()).resolves.toBe(ENGLISH_401);
    suite.relay.setFaults(undefined);

    // German, chosen in Settings: the stored error on the reply is shown in German.
    await new ShellPage(page).open('Settings');
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Deutsch' });
    await page.locator('html[lang="de"]').waitFor();
    await page
      .getByRole('navigation', { name: 'Bereiche' })
      .getByRole('button', { name: 'Chat', exact: true })
      .click();
    await expect.poll(() => message.textContent()).toBe(GERMAN_401);

    // A new failure, while German is shown, is in German from the start.
    suite.relay.setFaults({ status: 401, statusBody: 'empty' });
    const box = page.getByLabel('Nachricht', { exact: true });
    await box.fill('Und jetzt?');
    await box.press('Enter');
    await expect(chat.finishedReplyStatus()).resolves.toBe('error');
    await expect.poll(() => message.textContent()).toBe(GERMAN_401);
    suite.relay.setFaults(undefined);

    // Another language later: the same stored errors follow it, with no reload.
    await suite.app.services.settings.update({ language: 'fr' });
    await reopenChat(page, 'fr');
    await expect.poll(() => message.textContent(), { timeout: 10_000 }).toBe(FRENCH_401);

    // An error the previous release stored: its English text only, no key. It shows as written.
    const old = 'The relay failed to answer (HTTP 500).';
    const changed = suite.app.services.db.run(
      "UPDATE chat_messages SET error = ? WHERE role = 'assistant' AND error IS NOT NULL",
      [JSON.stringify({ kind: 'server_error', message: old, status: 500 })],
    );
    expect(changed.changes).toBe(2);
    await reopenChat(page, 'fr');
    await expect.poll(() => message.textContent(), { timeout: 10_000 }).toBe(old);
  }, 90_000);
});
