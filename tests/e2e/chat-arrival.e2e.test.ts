/**
 * Arriving in the chat, in a narrow and a wide window: after "Try the demo relay" or connecting
 * a relay, an empty chat waits with the message box focused; a conversation is made only when
 * its first message is sent, so New chat and Ctrl+N leave no empty rows behind (and the empty
 * conversations a person already has stay theirs). When the relay refuses the key, the key field
 * is the way on, in one notice; when it cannot be reached, that is said, with Try again.
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { ChatStore } from '../../electron/main/services/chat/store';
import type { AppUnderTest } from './harness/harness';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';

const suite = e2eSuite({ connectionName: 'Arrival relay' });

const SIZES = [
  { width: 900, height: 650 },
  { width: 1280, height: 800 },
] as const;

/** The conversations main keeps (deleted ones aside). */
async function storedTitles(app: AppUnderTest): Promise<string[]> {
  const rows = await app.services.db.all<{ title: string }>(
    'SELECT title FROM chat_conversations WHERE deleted_at IS NULL ORDER BY created_at',
  );
  return rows.map((row) => row.title);
}

/** The chat, landed in: the message box shown and focused, and what is typed goes there. */
async function expectReadyToType(page: ChatPage, text: string): Promise<void> {
  await page.page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
  await page.message.waitFor();
  await expect.poll(() => page.isFocused(page.message)).toBe(true);
  await page.page.keyboard.type(text);
  await expect(page.message.inputValue()).resolves.toBe(text);
}

describe.each(SIZES)('arriving in the chat at $width×$height', (size) => {
  it('after "Try the demo relay", the message box is focused, and the first send makes the conversation', async () => {
    const app = await suite.openApp();
    await app.page.setViewportSize(size);
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.tryDemo.click();
    const page = new ChatPage(app.page);
    await expectReadyToType(page, 'Where do rivers begin?');
    // Nothing is made before the first message.
    await expect(storedTitles(app)).resolves.toEqual([]);
    await expect(page.sidebar.locator('.chat-conversation').count()).resolves.toBe(0);
    await page.message.press('Enter');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect.poll(() => storedTitles(app)).toHaveLength(1);
    await expect.poll(() => page.sidebar.locator('.chat-conversation').count()).toBe(1);
  });

  it('after connecting a relay, New chat and Ctrl+N reuse the empty chat, and empty conversations kept from before stay', async () => {
    // Connected from the first-run screen (the form, not a connection saved before).
    const app = await suite.openApp();
    await suite.connectApp(app);
    new ChatStore(app.services.db).create({ title: 'Kept empty' });
    await app.page.setViewportSize(size);
    const page = new ChatPage(app.page);
    // Connected from the first-run screen: the chat waits, the message box focused.
    await expectReadyToType(page, 'First question');
    await page.message.press('Enter');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect.poll(() => storedTitles(suite.app)).toHaveLength(2);

    for (let round = 0; round < 3; round += 1) {
      await page.sidebar.getByRole('button', { name: 'New chat' }).click();
      await expect.poll(() => page.isFocused(page.message)).toBe(true);
      await page.page.keyboard.press('Control+n');
      await expect.poll(() => page.isFocused(page.message)).toBe(true);
    }
    await expect(page.message.inputValue()).resolves.toBe('');
    // No empty "New conversation" rows: the one sent, and the empty one kept from before.
    await expect(storedTitles(suite.app)).resolves.toHaveLength(2);
    await expect(storedTitles(suite.app)).resolves.toContain('Kept empty');
    await expect.poll(() => page.sidebar.locator('.chat-conversation').count()).toBe(2);

    await page.send('Second question');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect.poll(() => storedTitles(suite.app)).toHaveLength(3);
    await expect(storedTitles(suite.app)).resolves.toContain('Kept empty');
  });

  it('a refused key on a new chat offers the key field, in one notice, and a corrected key goes on', async () => {
    const page = await suite.connected(ChatPage, { ready: false, apiKey: 'sk-wrong-key-0000' });
    await page.page.setViewportSize(size);
    const welcome = page.page.getByRole('region', { name: 'Start a conversation' });
    const problem = welcome.getByRole('alert');
    await expect.poll(() => problem.textContent()).toMatch(/refused the key/);
    const field = welcome.getByLabel(/^API key for /);
    await field.waitFor();
    // The key is the way on; the demo relay is no primary action here.
    const primary = welcome.locator('.button-primary');
    await expect(primary.allTextContents()).resolves.toEqual(['Save key and retry']);
    // Sending meanwhile adds no second notice: the key field is where to go.
    await page.message.fill('Hello?');
    await page.message.press('Enter');
    await expect.poll(() => page.isFocused(field)).toBe(true);
    await expect(page.page.getByText('Choose a chat model first.').count()).resolves.toBe(0);
    await expect(page.page.getByRole('alert').count()).resolves.toBe(1);

    await field.fill(suite.key);
    await welcome.getByRole('button', { name: 'Save key and retry' }).click();
    await expect
      .poll(() => welcome.textContent(), { timeout: 10_000 })
      .toMatch(/Replies come from demo-chat on Arrival relay/);
    await expect(problem.count()).resolves.toBe(0);
    await expect(page.message.inputValue()).resolves.toBe('Hello?');
  });

  it('a relay that cannot be reached says so, with Try again first', async () => {
    let down = true;
    const flaky: FetchLike = async (url, init) => {
      if (down && url.startsWith(suite.relay.url)) throw new TypeError('fetch failed');
      return fetch(url, init);
    };
    const app = await suite.openApp({ fetch: flaky });
    await app.page.setViewportSize(size);
    down = false;
    await suite.connectApp(app);
    down = true;
    const page = new ChatPage(app.page);
    const welcome = page.page.getByRole('region', { name: 'Start a conversation' });
    const problem = welcome.getByRole('alert');
    await expect.poll(() => problem.textContent()).toMatch(/could not be reached/);
    const primary = welcome.locator('.button-primary');
    await expect(primary.allTextContents()).resolves.toEqual(['Try again']);
    await page.message.fill('Hello?');
    await page.message.press('Enter');
    await expect(page.page.getByText('Choose a chat model first.').count()).resolves.toBe(0);

    down = false;
    await primary.click();
    await expect
      .poll(() => welcome.textContent(), { timeout: 10_000 })
      .toMatch(/Replies come from demo-chat on Arrival relay/);
  });
});
