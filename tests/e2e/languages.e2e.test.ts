/**
 * Languages, spec by spec (every screen in each language, the pseudo-language's included, is the
 * tour's, tour.e2e.test.ts: its German walk reads the first run's, Models', Usage's, Connections'
 * and Backups' words):
 *
 * - a choice in Settings changes the shell's and Settings' words at once and is kept over a
 *   reload; Embeddings and Images follow it, their texts built in actions included;
 * - the chat's words (the list, the composer, a reply's tools and version switcher, errors under
 *   the message box) change at once, numbers are written the language's way and a temperature
 *   written with a decimal comma is read;
 * - the prompt library (a built-in prompt the person has not edited included, started in German),
 *   the knowledge bases and the quick ask window, which starts in the language shown and follows
 *   a change made while it is open;
 * - main's words in the page: a relay error is shown in the language chosen, a stored one follows
 *   a later change of language (the page formats it from the key and values main kept), and one
 *   kept by the previous release (English text, no key) still shows as it was written.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';
import { cutOff, cutPlaceholders } from './pages/layout';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ connectionName: 'Language relay' });
const SENDER = { url: 'app://relay/', isMainFrame: true, webContentsId: 1 };

/** The app, connected to the demo relay it offers on the first-run screen. */
async function connected(): Promise<Page> {
  const app = await suite.openApp();
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.tryDemo.click();
  await new ConnectPage(app.page).waitUntilConnected();
  return app.page;
}

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
    // And the placeholder of the field that ranks by meaning shows whole, wide and narrow.
    expect(await cutPlaceholders(page, '.embeddings-nearest')).toEqual([]);
    await page.setViewportSize({ width: 900, height: 650 });
    expect(await cutPlaceholders(page, '.embeddings-nearest')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
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
});

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
    await expect(sidebar.locator('input.chat-search').getAttribute('placeholder')).resolves.toBe(
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
});

describe('languages on the library, knowledge and quick ask', () => {
  it('shows them in German, built-in prompts included, and the quick window follows a change', async () => {
    const app = await suite.connect();
    const page = app.page;
    await suite.app.services.settings.update({ language: 'de' });
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Bereiche' });

    // The library: its words, and a built-in prompt in German, started in German.
    await nav.getByRole('button', { name: 'Prompts', exact: true }).click();
    await page.getByRole('button', { name: 'Neuer Assistent' }).waitFor();
    const assistants = page.getByRole('region', { name: 'Assistenten' });
    await assistants.locator('.prompt-card-name', { hasText: /^LektorMitgeliefert$/ }).waitFor();
    await page
      .getByRole('region', { name: 'Textbausteine' })
      .getByRole('button', { name: 'Zusammenfassen bearbeiten' })
      .waitFor();
    await page.getByRole('button', { name: 'Chat mit Lektor beginnen' }).click();
    const start = page.getByRole('dialog', { name: 'Chat mit Lektor beginnen' });
    await expect(start.getByLabel(/^Sprache/).inputValue()).resolves.toBe('Deutsch');
    await expect(start.locator('pre').textContent()).resolves.toMatch(/Schreibe auf Deutsch\.$/);
    await start.getByRole('button', { name: 'Chat beginnen' }).click();

    // The chat starts with the German system prompt, and its knowledge chip speaks German. The
    // chat screen shows before the new conversation is open in it, and opening it makes the
    // header's chips anew (a panel opened meanwhile closes): its title first.
    await page.locator('.chat-header-title').getByText('Lektor', { exact: true }).waitFor();
    const chip = page.getByRole('button', { name: 'Wissensbasen', exact: true });
    await chip.click();
    const panel = page.getByRole('dialog', { name: 'Wissensbasen' });
    await panel.getByText('Fragen mit', { exact: true }).waitFor();
    await panel.getByText(/^Noch keine Wissensbasis: /).waitFor();
    await page.keyboard.press('Escape');
    const created = suite.app.messages.find((m) => m.channel === 'chat:create');
    expect(created?.payload).toMatchObject({
      title: 'Lektor',
      systemPrompt: expect.stringMatching(
        /^Du bist ein sorgfältiger Lektor\..*Schreibe auf Deutsch\.$/s,
      ),
    });

    // The knowledge bases: the empty screen's words.
    await nav.getByRole('button', { name: 'Wissen', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Wissen' }).waitFor();
    await page.getByRole('button', { name: 'Demo-Wissensbasis ausprobieren' }).waitFor();
    await page.getByRole('heading', { name: 'Wissensbasis anlegen' }).waitFor();

    // The quick ask window starts in the language shown, and follows a change while it is open.
    const quick = await app.openQuickWindow();
    await quick.getByLabel('Ihre Frage').waitFor();
    await expect(quick.locator('html').getAttribute('lang')).resolves.toBe('de');
    await suite.app.services.settings.update({ language: 'fr' });
    await quick.getByLabel('Votre question').waitFor();
    await expect(quick.locator('html').getAttribute('lang')).resolves.toBe('fr');
    await expect(quick.locator('kbd.quick-hint').textContent()).resolves.toBe('Échap');
  }, 90_000);
});

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
