/**
 * Keyboard shortcuts: each one does its thing, the shortcut sheet works by keyboard alone, keys
 * typed in the message box stay text, and the application menu's commands take the same path.
 */
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';
import { ModelsPage } from './pages/models-page';
import { ShortcutsPage } from './pages/shortcuts-page';

const suite = e2eSuite({ connectionName: 'Shortcut relay' });

/** The app connected to the demo relay, then on the Models screen. */
async function connected(): Promise<{ chat: ChatPage; shortcuts: ShortcutsPage }> {
  const { page } = await suite.connect();
  await new ModelsPage(page).open();
  return { chat: new ChatPage(page), shortcuts: new ShortcutsPage(page) };
}

const heading = (name: string) => suite.app.page.getByRole('heading', { level: 1, name });

describe('keyboard shortcuts (Control on Linux)', () => {
  it('switches between the screens in the order of the rail, and to settings', async () => {
    const { chat, shortcuts } = await connected();
    const keyboard = suite.app.page.keyboard;

    await keyboard.press('Control+2');
    await heading('Prompts').waitFor();
    await keyboard.press('Control+3');
    await heading('Knowledge').waitFor();
    await keyboard.press('Control+4');
    await heading('Models').waitFor();
    await keyboard.press('Control+5');
    await heading('Embeddings').waitFor();
    await keyboard.press('Control+6');
    await heading('Images').waitFor();
    await keyboard.press('Control+7');
    await heading('Tools').waitFor();
    await keyboard.press('Control+8');
    await heading('Usage').waitFor();
    await keyboard.press('Control+9');
    await heading('Connections').waitFor();
    await keyboard.press('Control+2');
    await heading('Prompts').waitFor();
    await keyboard.press('Control+,');
    await heading('Settings').waitFor();
    await keyboard.press('Control+1');
    await chat.sidebar.waitFor();
    await expect(shortcuts.currentScreen()).resolves.toBe('Chat');
  });

  it('starts a new chat with the message box focused, from any screen', async () => {
    const { chat, shortcuts } = await connected();
    await suite.app.page.keyboard.press('Control+n');
    await chat.message.waitFor();
    await expect(shortcuts.currentScreen()).resolves.toBe('Chat');
    await expect.poll(() => shortcuts.focused()).toMatchObject({ label: 'Message' });
    // The new chat becomes a conversation at its first message, not before.
    const conversations = chat.sidebar.locator('.chat-conversation');
    await expect(conversations.count()).resolves.toBe(0);
    await expect.poll(() => chat.modelName()).toMatch(/^demo-chat/);
    await chat.send('A first message');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await expect.poll(() => conversations.count()).toBe(1);

    // Again from inside the message box: a Control combination is never typing.
    await chat.message.focus();
    await suite.app.page.keyboard.press('Control+n');
    await expect.poll(() => chat.replies().count()).toBe(0);
    await expect.poll(() => shortcuts.focused()).toMatchObject({ label: 'Message' });
    await expect(chat.message.inputValue()).resolves.toBe('');
    await expect(conversations.count()).resolves.toBe(1);
  });

  it('focuses the conversation search', async () => {
    const { chat, shortcuts } = await connected();
    await suite.app.page.keyboard.press('Control+k');
    await chat.search.waitFor();
    await expect.poll(() => shortcuts.focused()).toMatchObject({ label: 'Search messages' });
    await suite.app.page.keyboard.type('hello');
    await expect(chat.search.inputValue()).resolves.toBe('hello');
  });

  it('stops a reply with Escape, wherever the focus is', async () => {
    const { chat } = await connected();
    await suite.app.page.keyboard.press('Control+n');
    await chat.message.waitFor();
    await expect.poll(() => chat.modelName()).toMatch(/^demo-chat/);
    suite.relay.setFaults({ stallAfterHeaders: true });
    await chat.send('Wait for me');
    await chat.lastReply().waitFor();
    // Focus on a button, not in the message box.
    await chat.sidebar.getByRole('button', { name: 'New chat' }).focus();
    await suite.app.page.keyboard.press('Escape');
    await expect(chat.finishedReplyStatus()).resolves.toBe('interrupted');
  });

  it('keeps keys typed in the message box as text', async () => {
    const { chat, shortcuts } = await connected();
    await suite.app.page.keyboard.press('Control+n');
    await chat.message.waitFor();
    await expect.poll(() => shortcuts.focused()).toMatchObject({ label: 'Message' });
    await suite.app.page.keyboard.type('Is 1, 2 or 3 bigger? /?');
    await expect(chat.message.inputValue()).resolves.toBe('Is 1, 2 or 3 bigger? /?');
    await expect(shortcuts.currentScreen()).resolves.toBe('Chat');
    await expect(shortcuts.sheet.isVisible()).resolves.toBe(false);
    // And `?` outside a text field opens the sheet.
    await chat.sidebar.getByRole('button', { name: 'New chat' }).focus();
    await suite.app.page.keyboard.press('Shift+?');
    await shortcuts.sheet.waitFor();
  });
});

describe('the shortcut sheet', () => {
  it('opens and closes by keyboard, keeps focus inside, and gives it back', async () => {
    const { shortcuts } = await connected();
    const page = suite.app.page;
    const settings = page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Settings', exact: true });
    await settings.focus();

    await page.keyboard.press('Control+/');
    await shortcuts.sheet.waitFor();
    await expect.poll(() => shortcuts.focused()).toMatchObject({ inSheet: true });
    // The table with this platform's key names.
    await expect(shortcuts.row('New chat').textContent()).resolves.toContain('Ctrl+N');
    await expect(shortcuts.row('Settings').textContent()).resolves.toContain('Ctrl+Comma');
    await expect(shortcuts.row('Stop generating').textContent()).resolves.toContain('Esc');
    await expect(shortcuts.row('Go to Images').textContent()).resolves.toContain('Ctrl+6');
    await expect(shortcuts.row('Send the message').isVisible()).resolves.toBe(true);

    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      await expect(shortcuts.focused()).resolves.toMatchObject({ inSheet: true });
      await page.keyboard.press('Shift+Tab');
      await expect(shortcuts.focused()).resolves.toMatchObject({ inSheet: true });
    }
    // Screen shortcuts do nothing behind the open sheet.
    await page.keyboard.press('Control+2');
    await expect(shortcuts.currentScreen()).resolves.toBe('Models');

    await page.keyboard.press('Escape');
    await shortcuts.sheet.waitFor({ state: 'hidden' });
    await expect(shortcuts.focused()).resolves.toMatchObject({ tag: 'button', inSheet: false });
    await expect(shortcuts.focused()).resolves.toMatchObject({ text: 'Settings' });

    // The same key closes it again.
    await page.keyboard.press('Control+/');
    await shortcuts.sheet.waitFor();
    await page.keyboard.press('Control+/');
    await shortcuts.sheet.waitFor({ state: 'hidden' });
  });

  it('names the keys the macOS way on a Mac, where Command is the modifier', async () => {
    const { shortcuts } = await connected();
    const page = suite.app.page;
    await page.addInitScript(() => {
      Object.defineProperty(
        Object.getPrototypeOf((globalThis as unknown as { navigator: object }).navigator),
        'userAgentData',
        {
          get: () => ({ platform: 'macOS' }),
        },
      );
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
    await page.keyboard.press('Control+2');
    await expect(shortcuts.currentScreen()).resolves.toBe('Models');
    await page.keyboard.press('Meta+5');
    await heading('Embeddings').waitFor();
    await page.keyboard.press('Meta+/');
    await shortcuts.sheet.waitFor();
    await expect(shortcuts.row('New chat').textContent()).resolves.toContain('Command+N');
    await expect(shortcuts.row('New chat').locator('kbd').allTextContents()).resolves.toEqual([
      '⌘',
      'N',
    ]);
  });
});

describe('commands from the application menu', () => {
  it('runs the same commands as the keys', async () => {
    const { chat, shortcuts } = await connected();
    await shortcuts.menu('showImages');
    await heading('Images').waitFor();
    await shortcuts.menu('openSettings');
    await heading('Settings').waitFor();
    await shortcuts.menu('showEmbeddings');
    await heading('Embeddings').waitFor();

    await shortcuts.menu('showShortcuts');
    await shortcuts.sheet.waitFor();
    // A command chosen from the menu closes the sheet and goes ahead.
    await shortcuts.menu('newChat');
    await shortcuts.sheet.waitFor({ state: 'hidden' });
    await chat.message.waitFor();
    await expect.poll(() => shortcuts.focused()).toMatchObject({ label: 'Message' });

    await shortcuts.menu('searchConversations');
    await expect.poll(() => shortcuts.focused()).toMatchObject({ label: 'Search messages' });

    await chat.message.waitFor();
    await expect.poll(() => chat.modelName()).toMatch(/^demo-chat/);
    suite.relay.setFaults({ stallAfterHeaders: true });
    await chat.send('Wait for me');
    await chat.lastReply().waitFor();
    await shortcuts.menu('stopGenerating');
    await expect(chat.finishedReplyStatus()).resolves.toBe('interrupted');

    await shortcuts.menu('showChat');
    await expect(shortcuts.currentScreen()).resolves.toBe('Chat');
  });
});

describe('before any connection', () => {
  it('shows the shortcut sheet, and the other commands wait for a connection', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    const shortcuts = new ShortcutsPage(app.page);
    await shortcuts.menu('showImages');
    await app.page.keyboard.press('Control+n');
    await expect(connect.heading.isVisible()).resolves.toBe(true);
    await app.page.keyboard.press('Control+/');
    await shortcuts.sheet.waitFor();
    await app.page.keyboard.press('Escape');
    await shortcuts.sheet.waitFor({ state: 'hidden' });
    await shortcuts.menu('showShortcuts');
    await shortcuts.sheet.waitFor();
  });
});
