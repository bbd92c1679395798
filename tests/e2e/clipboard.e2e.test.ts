/**
 * The copy buttons under the app's permission policy: the window refuses the page every
 * permission (clipboard writes included), which the harness reproduces in Chromium, so copying
 * goes through main.
 */
import { describe, expect, it } from 'vitest';
import type { PageWindow } from './harness/page-types';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';

const suite = e2eSuite();
const key = suite.key;

describe('copying', () => {
  it('copies a reply and a code block although the page may not write the clipboard', async () => {
    const app = await suite.openApp();
    // The policy is in force: the page itself is refused.
    const denied = await app.page.evaluate(async () => {
      const { navigator } = globalThis as unknown as PageWindow & {
        navigator: { permissions: { query(d: { name: string }): Promise<{ state: string }> } };
      };
      return (await navigator.permissions.query({ name: 'clipboard-write' })).state;
    });
    expect(denied).toBe('denied');

    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.connect({ name: 'Copy relay', baseUrl: suite.relay.url, apiKey: key });
    const chat = new ChatPage(app.page);
    await chat.open();
    await chat.newChat();
    await expect.poll(() => chat.modelName()).toMatch(/^demo-chat/);
    await chat.send('Show me a TypeScript example');
    await expect.poll(() => chat.finishedReplyStatus(), { timeout: 20_000 }).toBe('complete');

    const reply = chat.lastReply();
    await reply.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => suite.app.clipboard.length).toBe(1);
    const stored = (
      await app.services.db.all<{ content: string }>(
        "SELECT content FROM chat_messages WHERE role = 'assistant'",
      )
    )[0]?.content;
    expect(app.clipboard[0]).toBe(stored);
    // Copied says so in a toast that closes itself.
    await app.page
      .getByRole('status', { name: 'Notifications' })
      .getByText('Copied to the clipboard.')
      .waitFor();

    const code = reply.locator('.md-code').first();
    await code.getByRole('button', { name: /copy/i }).click();
    await expect.poll(() => suite.app.clipboard.length).toBe(2);
    expect(app.clipboard[1]).toBe((await code.locator('code').textContent())?.trimEnd());
  });
});
