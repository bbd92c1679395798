/**
 * Languages on the chat screen: a language chosen in Settings reaches the chat's words at once
 * (the list, the composer, a reply's tools and version switcher, errors under the message box),
 * numbers are written the language's way and a temperature written with a decimal comma is read;
 * and under the pseudo-language (every letter accented, each message 40% longer) the chat shows
 * no control cut off and no word, accessible name or hint that is not from the catalogues.
 */
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { cutOff } from './pages/layout';
import { ShellPage } from './pages/shell-page';
import { plainWords } from './pages/untranslated';

const suite = e2eSuite({ connectionName: 'Languages relay' });
const SENDER = { url: 'app://relay/', isMainFrame: true, webContentsId: 1 };

/** The chat's own parts: its conversation list and the open conversation. */
const CHAT = ['.chat-sidebar', '.chat-main'];
/**
 * What the person wrote and what the model replied: their words, not the app's. And the
 * knowledge base chip and sources, the `knowledge` namespace's, which are translated apart.
 */
const CONTENT = '.chat-user-text, .markdown, .chat-knowledge';

describe('languages on the chat screen', () => {
  it('speaks German once German is chosen, without a restart', async () => {
    const page = await suite.connected(ChatPage);
    await page.send('Where do rivers begin?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await page.lastReply().getByRole('group', { name: 'Version 2 of 2' }).waitFor();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');

    // Chosen in Settings while the chat's words are already in the page: back in Chat, German.
    await new ShellPage(page.page).open('Settings');
    await page.page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Deutsch' });
    const nav = page.page.getByRole('navigation', { name: 'Bereiche' });
    await nav.getByRole('button', { name: 'Chat', exact: true }).click();

    const sidebar = page.page.getByRole('complementary', { name: 'Unterhaltungen' });
    await sidebar.getByRole('button', { name: 'Neuer Chat' }).waitFor();
    await expect(sidebar.getByRole('searchbox').getAttribute('placeholder')).resolves.toBe(
      'Nachrichten durchsuchen',
    );
    const reply = page.page.getByRole('article', { name: 'Antwort' }).last();
    const versions = reply.getByRole('group', { name: 'Version 2 von 2' });
    await expect(versions.textContent()).resolves.toContain('2 / 2');
    await versions.getByRole('button', { name: 'Vorherige Version' }).waitFor();
    await reply.getByRole('button', { name: 'Kopieren', exact: true }).waitFor();
    await reply.getByRole('button', { name: 'Hier abzweigen' }).waitFor();
    await expect(reply.locator('.chat-usage').textContent()).resolves.toMatch(
      /^\d+ \+ \d+ = \d+ Tokens$/,
    );
    await expect(
      page.page.getByLabel('Tokens in dieser Unterhaltung', { exact: true }).textContent(),
    ).resolves.toMatch(/^\d+ Tokens in dieser Unterhaltung$/);
    const message = page.page.getByRole('textbox', { name: 'Nachricht', exact: true });
    await expect(message.getAttribute('placeholder')).resolves.toMatch(
      /^Nachricht \(Eingabe sendet, Umschalt\+Eingabe für neue Zeile/,
    );
    await page.page.getByRole('button', { name: 'Modelle vergleichen …' }).waitFor();

    // An error under the message box is in German too.
    await message.fill('');
    await message.press('Enter');
    await page.page.getByText('Schreiben Sie zuerst eine Nachricht.').waitFor();

    // The temperature as German writes it: the placeholder's default, a refusal in German for
    // what is no number, and 0,7 read as 0.7 and saved with the conversation.
    await page.page.getByRole('button', { name: 'Chatoptionen', exact: true }).click();
    await page.page.getByRole('button', { name: 'Systemprompt und Sampling …' }).click();
    const temperature = page.page.getByLabel('Temperatur (0 bis 2)');
    await expect(temperature.getAttribute('placeholder')).resolves.toBe('Standard: 1');
    await temperature.fill('warm');
    await message.fill('Und wo enden sie?');
    await message.press('Enter');
    await page.page
      .getByText('Die Temperatur muss eine Zahl von 0 bis 2 sein, etwa 0,7.')
      .waitFor();
    await temperature.fill('0,7');
    await message.press('Enter');
    await expect
      .poll(async () => {
        const [conversation] = await suite.app.services.handlers.listConversations(
          undefined,
          SENDER,
        );
        return conversation?.temperature;
      })
      .toBe(0.7);
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(
      page.page.getByText('Die Temperatur muss eine Zahl von 0 bis 2 sein, etwa 0,7.').count(),
    ).resolves.toBe(0);
  }, 90_000);

  it('shows the pseudo-language on the chat with nothing cut off or left out', async () => {
    const page = await suite.connected(ChatPage);
    await page.send('Where do rivers begin?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await page.lastReply().getByRole('group', { name: 'Version 2 of 2' }).waitFor();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    // A second conversation, and the first pinned: the list has its "Pinned" and "Recent".
    await page.newChat();
    await page.send('What is a delta?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.conversationAction('Where do rivers begin?', 'Pin');

    await suite.app.services.settings.update({ language: 'en-XA' });
    await page.page.reload();
    // Chat is the navigation's first screen, whatever its name.
    await page.page.locator('nav.sidebar .nav-item').first().click();
    await page.page.locator('.chat-sidebar').waitFor();
    await page.page
      .locator('.chat-conversation-open')
      .filter({ hasText: 'Where do rivers begin?' })
      .click();
    await page.page.locator('.chat-versions').waitFor();
    await expect(page.page.locator('.chat-list-heading').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Þîññéđ·+$/),
      expect.stringMatching(/^Ŕéçéñţ·+$/),
    ]);
    // The compare form's words too.
    await page.page.locator('.chat-compare-bar button').click();
    await page.page.locator('.chat-compare-form').waitFor();

    const [connection] = await suite.app.services.connections.list();
    const conversations = await suite.app.services.handlers.listConversations(undefined, SENDER);
    const models = await page.page
      .locator('.chat-model-chip option, .chat-compare-targets option')
      .allTextContents();
    const own = [connection?.name ?? '', ...conversations.map((c) => c.title), ...new Set(models)]
      .filter((name) => name !== '')
      // The longest first: "demo-chat" must not leave "-fast" of "demo-chat-fast" behind.
      .sort((a, b) => b.length - a.length);
    await expect(
      plainWords(page.page, CHAT, own, { skip: CONTENT, attributes: true }),
    ).resolves.toEqual([]);
    expect(await cutOff(page.page, '.chat-sidebar')).toEqual([]);
    expect(await cutOff(page.page, '.chat-main')).toEqual([]);

    // A new, empty chat: the model that will answer and the three suggestions.
    await page.page.locator('.chat-sidebar-actions .button-primary').click();
    await expect.poll(() => page.page.locator('.chat-suggestion').count()).toBe(3);
    await page.page.locator('.chat-welcome-model').waitFor();
    await expect(
      plainWords(page.page, ['.chat-welcome', '.chat-composer'], own, { attributes: true }),
    ).resolves.toEqual([]);
    expect(await cutOff(page.page, '.chat-main')).toEqual([]);
  }, 90_000);
});
