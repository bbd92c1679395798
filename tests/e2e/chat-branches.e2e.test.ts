/**
 * Conversations as trees on the chat screen, against the demo relay: a regenerate and an edit
 * add versions, the ‹ 2 / 3 › switcher moves between them with the mouse and with ← and →, the
 * path chosen is kept, and "Branch from here" opens a copy of the path that lives on its own.
 */
import { describe, expect, it } from 'vitest';
import { ChatStore } from '../../electron/main/services/chat/store';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Branches relay' });

describe('versions and branches', () => {
  it('switches versions by buttons and keys, keeps the path chosen, and branches from a reply', async () => {
    const page = await suite.connected(ChatPage);
    await page.send('Where do rivers begin?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const first = await page.lastReply().getAttribute('data-message-id');

    // Regenerate: a second version beside the first, shown; the first stays.
    await page.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await expect.poll(() => page.lastReply().getAttribute('data-message-id')).not.toBe(first);
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const second = await page.lastReply().getAttribute('data-message-id');
    await expect(page.replies().count()).resolves.toBe(1);
    const versions = page.lastReply().getByRole('group', { name: 'Version 2 of 2' });
    await expect(versions.textContent()).resolves.toContain('2 / 2');
    await expect(versions.getByRole('button', { name: 'Next version' }).isDisabled()).resolves.toBe(
      true,
    );

    // The button shows the first version; focus stays on the switcher, and → goes back.
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await expect.poll(() => page.lastReply().getAttribute('data-message-id')).toBe(first);
    const firstVersions = page.lastReply().getByRole('group', { name: 'Version 1 of 2' });
    const focusedLabel = () =>
      page.page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { activeElement: unknown } }).document;
        const active = doc.activeElement as { getAttribute(n: string): string | null } | null;
        return active?.getAttribute('aria-label') ?? null;
      });
    await expect.poll(focusedLabel).toBe('Next version');
    await page.page.keyboard.press('ArrowRight');
    await expect.poll(() => page.lastReply().getAttribute('data-message-id')).toBe(second);
    // The new version's switcher takes the focus once its path is drawn (the last version: its
    // ‹ button, as › has nowhere to go); a key pressed before lands on it then.
    await expect.poll(focusedLabel).toBe('Previous version');
    await page.page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.lastReply().getAttribute('data-message-id')).toBe(first);
    await firstVersions.waitFor();

    // Edit: a second version of the question, with its own reply; the first question keeps its
    // replies, and showing it again shows the most recent of them.
    const mine = page.page.locator('article.chat-message[data-role="user"]').last();
    await mine.getByRole('button', { name: 'Edit' }).click();
    await mine.getByLabel('Edit your message').fill('Where do glaciers begin?');
    await mine.getByRole('button', { name: 'Save and resend' }).click();
    await expect.poll(() => page.lastReply().textContent()).toContain('glaciers');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const question = page.page.locator('article.chat-message[data-role="user"]').last();
    await question.getByRole('group', { name: 'Version 2 of 2' }).waitFor();
    await suite.app.screenshot('chat-versions');
    await question.getByRole('button', { name: 'Previous version' }).click();
    await expect
      .poll(() => page.page.locator('article.chat-message[data-role="user"]').last().textContent())
      .toContain('Where do rivers begin?');
    await expect.poll(() => page.lastReply().getAttribute('data-message-id')).toBe(second);

    // The path chosen is main's: the conversation opened again shows it, nothing was deleted.
    const store = new ChatStore(suite.app.services.db);
    const conversation = store.list().find((c) => c.title.startsWith('Where do rivers'))!;
    expect(store.allMessages(conversation.id)).toHaveLength(5);
    await page.newChat();
    await page.openConversation(conversation.title);
    await expect.poll(() => page.lastReply().getAttribute('data-message-id')).toBe(second);

    // Branch from here: a new conversation with a copy of the path up to the reply, opened.
    await page.lastReply().getByRole('button', { name: 'Branch from here' }).click();
    await page.notice(/Branched into/).waitFor();
    await expect.poll(() => page.lastReply().getAttribute('data-message-id')).not.toBe(second);
    const forked = store.list().find((c) => c.forkedFrom !== null)!;
    expect(forked.title).toBe(`${conversation.title} (branch)`);
    // In the list the branch carries a mark naming its origin, so a title cut off short of its
    // "(branch)" still tells it from the original; the whole title shows on hover.
    const branchRow = page.sidebar.locator(`[data-conversation-id="${forked.id}"]`);
    await expect
      .poll(() => branchRow.getByRole('img', { name: `Branch of ${conversation.title}` }).count())
      .toBe(1);
    expect(await branchRow.locator('.chat-conversation-title').getAttribute('title')).toBe(
      forked.title,
    );
    const originRow = page.sidebar.locator(`[data-conversation-id="${conversation.id}"]`);
    expect(await originRow.getByRole('img', { name: /^Branch of/ }).count()).toBe(0);
    expect(store.path(forked.id).messages.map((m) => m.content)).toEqual(
      store.path(conversation.id).messages.map((m) => m.content),
    );
    // Deleting the branch leaves the conversation it came from whole.
    store.softDelete(forked.id);
    store.recover();
    expect(store.allMessages(conversation.id)).toHaveLength(5);
  });
});
