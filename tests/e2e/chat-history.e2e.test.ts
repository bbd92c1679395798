/**
 * Chat history against the demo relay: search and jump to the message, export and import through
 * scripted dialogs, and a restart that keeps every conversation as it was.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Dialogs } from '../../electron/main/app-context';
import { ChatStore, type NewMessage } from '../../electron/main/services/chat/store';
import { e2eSuite, type ConnectedOptions } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Chat relay', scratch: true });

/** Opens the app and connects; `seed` runs on main's chat store before the chat screen opens. */
function chat(options: ConnectedOptions = {}, seed?: (store: ChatStore) => void) {
  return suite.connected(ChatPage, {
    ready: false,
    ...options,
    ...(seed ? { seed: (app) => seed(new ChatStore(app.services.db)) } : {}),
  });
}

/** A long exchange of plain messages; `special` (by index) replaces the text of some. */
function exchange(count: number, special: Record<number, string> = {}): NewMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: special[i] ?? `Message number ${i} about ordinary things, nothing to see here.`,
    status: 'complete' as const,
  }));
}

/** The message number in a row of `exchange` ("Message number 12 about…"). */
function numberOf(text: string): number {
  const match = /Message number (\d+)/.exec(text);
  if (!match) throw new Error(`Not a numbered message: ${text.slice(0, 80)}`);
  return Number(match[1]);
}

/** The gate on requests for older messages (`chat:get` with `beforeId`), between page and main. */
const older: { mode: 'pass' | 'hold' | 'fail'; release?: (() => void) | undefined } = {
  mode: 'pass',
};

/**
 * Puts a gate between the page and main on requests for older messages: 'hold' keeps each one
 * waiting until `releaseOlder`, 'fail' answers the next one with an error.
 */
function gateOlder(mode: 'pass' | 'hold' | 'fail'): void {
  older.mode = mode;
  suite.app.gateCalls(async (channel, payload) => {
    const isOlder =
      channel === 'chat:get' && (payload as { beforeId?: string }).beforeId !== undefined;
    if (!isOlder || older.mode === 'pass') return undefined;
    if (older.mode === 'fail') {
      older.mode = 'pass';
      return { ok: false, error: { kind: 'internal', message: 'The test refused the page.' } };
    }
    await new Promise<void>((resolve) => (older.release = resolve));
    return undefined;
  });
}

function releaseOlder(): void {
  older.mode = 'pass';
  older.release?.();
}

describe('chat history', () => {
  it('opens a long conversation at its newest page and loads older pages at the top, in place', async () => {
    let ids: string[] = [];
    const page = await chat({}, (store) => {
      const long = store.create({ title: 'Three hundred messages', model: 'demo-chat' });
      ids = store.append(long.id, exchange(300)).map((m) => m.id);
    });
    await page.openConversation('Three hundred messages');
    await page.messageById(ids[299]!).waitFor({ timeout: 8000 });
    // Only the newest page crossed the bridge.
    const opened = suite.app.messages.find(
      (m) => m.direction === 'invoke' && m.channel === 'chat:get',
    );
    if (opened?.direction !== 'invoke') throw new Error('The conversation was not fetched');
    expect(opened.payload).toMatchObject({ limit: 50 });
    expect((opened.result as { value: { messages: unknown[] } }).value.messages).toHaveLength(50);

    const loading = page.page.getByText('Loading earlier messages…');
    for (let pageNumber = 1; pageNumber <= 5; pageNumber++) {
      gateOlder('hold');
      await page.scrollToTop();
      await loading.waitFor({ timeout: 8000 });
      // While the page is on its way, the first loaded message is at the top: note where it is.
      const [top] = await page.mountedMessages();
      const anchor = page.messageById(top!.id);
      const before = (await anchor.boundingBox())!.y;
      expect(numberOf(top!.text)).toBe(300 - 50 * pageNumber);
      releaseOlder();
      await loading.waitFor({ state: 'detached', timeout: 8000 });
      await expect
        .poll(async () => numberOf((await page.mountedMessages())[0]!.text))
        .toBeLessThan(numberOf(top!.text));
      // The older messages went above it: what the person was reading has not moved.
      await expect
        .poll(async () => Math.abs((await anchor.boundingBox())!.y - before))
        .toBeLessThanOrEqual(2);
    }
    // Everything is loaded: the top is the first message and nothing more is asked for.
    await page.scrollToTop();
    await expect.poll(async () => numberOf((await page.mountedMessages())[0]!.text)).toBe(0);
    expect(await loading.count()).toBe(0);
    const olderRequests = suite.app.messages.filter(
      (m) =>
        m.channel === 'chat:get' && (m.payload as { beforeId?: string }).beforeId !== undefined,
    );
    expect(olderRequests).toHaveLength(5);

    // Read from top to bottom: every message once, in order, with no gap.
    const seen: { id: string; number: number }[] = [];
    for (let step = 0; step < 400; step++) {
      for (const row of await page.mountedMessages()) {
        const number = numberOf(row.text);
        if (seen.length === 0 || number > seen.at(-1)!.number) seen.push({ id: row.id, number });
      }
      if (!(await page.scrollBy(800))) break;
      await page.page.evaluate(
        () =>
          new Promise((resolve) =>
            (
              globalThis as unknown as { requestAnimationFrame(callback: () => void): void }
            ).requestAnimationFrame(() => resolve(null)),
          ),
      );
    }
    for (const row of await page.mountedMessages()) {
      const number = numberOf(row.text);
      if (number > seen.at(-1)!.number) seen.push({ id: row.id, number });
    }
    expect(seen.map((row) => row.number)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(seen.map((row) => row.id)).toEqual(ids);
    expect(await page.page.locator('article.chat-message').count()).toBeLessThan(60);
    // Five held pages and a walk through 300 rows: longer than one page action on a loaded machine.
  }, 90_000);

  it('shows a failure to load older messages in place, and Retry loads them', async () => {
    let ids: string[] = [];
    const page = await chat({}, (store) => {
      const long = store.create({ title: 'Paged with a failure', model: 'demo-chat' });
      ids = store.append(long.id, exchange(120)).map((m) => m.id);
    });
    await page.openConversation('Paged with a failure');
    await page.messageById(ids[119]!).waitFor({ timeout: 8000 });
    gateOlder('fail');
    await page.scrollToTop();
    const alert = page.messageList().getByRole('alert');
    await expect
      .poll(() => alert.textContent({ timeout: 8000 }))
      .toContain('Earlier messages could not be loaded: The test refused the page.');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(alert.count()).resolves.toBe(0);
    await page.messageById(ids[69]!).waitFor({ timeout: 8000 });
    expect(numberOf((await page.mountedMessages())[0]!.text)).toBeLessThan(70);
  });

  it('jumps to a hit in the very first message of a long conversation, open or not', async () => {
    let ids: string[] = [];
    const page = await chat({}, (store) => {
      const long = store.create({ title: 'First words matter', model: 'demo-chat' });
      ids = store
        .append(long.id, exchange(300, { 0: 'Message number 0: the quokka smiled first.' }))
        .map((m) => m.id);
      const other = store.create({ title: 'Something else', model: 'demo-chat' });
      store.append(other.id, exchange(4));
    });
    const target = page.messageById(ids[0]!);
    const jump = async () => {
      await page.search.fill('quokka');
      const results = page.searchResults();
      await results.waitFor({ timeout: 8000 });
      await results.getByRole('option').first().click();
      await target.waitFor({ timeout: 8000 });
      await expect.poll(() => target.getAttribute('data-highlighted')).toBe('true');
      await expect.poll(() => page.isInView(target)).toBe(true);
      await expect(target.textContent()).resolves.toContain('the quokka smiled first');
    };

    // Not open yet: it opens at the hit.
    await jump();
    expect(await page.page.locator('article.chat-message').count()).toBeLessThan(60);

    // Already open at its newest page: the messages back to the hit are loaded, then shown.
    await page.search.fill('');
    await page.openConversation('Something else');
    await page.openConversation('First words matter');
    await page.messageById(ids[299]!).waitFor({ timeout: 8000 });
    await expect(target.count()).resolves.toBe(0);
    await jump();
    // Scrolling down from the hit meets every message in order.
    await expect
      .poll(async () => (await page.mountedMessages()).map((row) => numberOf(row.text))[0])
      .toBe(0);
  });

  it('sends, regenerates, edits, counts usage and exports with only part of the conversation loaded', async () => {
    let ids: string[] = [];
    const saved: string[] = [];
    const dialogs: Dialogs = {
      chooseSavePath: async ({ defaultName }) => {
        const path = join(suite.scratch, `partly-${defaultName}`);
        saved.push(path);
        return path;
      },
      chooseOpenPaths: async () => [],
    };
    const page = await chat({ dialogs }, (store) => {
      const long = store.create({ title: 'Partly loaded', model: 'demo-chat' });
      ids = store
        .append(
          long.id,
          exchange(200).map((m) =>
            m.role === 'assistant'
              ? { ...m, usage: { promptTokens: 4, completionTokens: 6, totalTokens: 10 } }
              : m,
          ),
        )
        .map((m) => m.id);
    });
    await page.openConversation('Partly loaded');
    await page.messageById(ids[199]!).waitFor({ timeout: 8000 });
    // The total counts the 100 replies of the conversation, not the 25 loaded.
    await expect(page.conversationUsage().textContent()).resolves.toBe(
      '1,000 tokens in this conversation',
    );

    await page.send('A new question at the end');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(page.lastReply().textContent()).resolves.toContain('A new question at the end');
    await page.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');

    const mine = page.page.locator('article.chat-message[data-role="user"]').last();
    await mine.getByRole('button', { name: 'Edit' }).click();
    await mine.getByLabel('Edit your message').fill('An edited question');
    await mine.getByRole('button', { name: 'Save and resend' }).click();
    await expect.poll(() => page.lastReply().textContent()).toContain('An edited question');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');

    // Main kept the 200 messages and every version after them: the question sent, its two
    // replies (regenerated), and the edited question beside it with its reply; the path shown
    // is the 200, then the edited question and its reply. Nothing lost, nothing doubled.
    const store = new ChatStore(suite.app.services.db);
    const id = store.list().find((c) => c.title === 'Partly loaded')!.id;
    const stored = store.allMessages(id);
    expect(stored).toHaveLength(205);
    expect(stored.slice(0, 200).map((m) => m.id)).toEqual(ids);
    expect(stored[200]!.content).toBe('A new question at the end');
    expect(stored[203]).toMatchObject({ content: 'An edited question', parentId: ids[199] });
    const shown = store.path(id).messages;
    expect(shown).toHaveLength(202);
    expect(shown.slice(0, 200).map((m) => m.id)).toEqual(ids);
    expect(shown[200]!.id).toBe(stored[203]!.id);
    await expect
      .poll(() => page.conversationUsage().textContent())
      .toMatch(/^([\d,]+) tokens in this conversation$/);
    const total = Number(
      /^([\d,]+)/.exec((await page.conversationUsage().textContent()) ?? '')![1]!.replace(/,/g, ''),
    );
    expect(total).toBe(store.get(id)!.usage.totalTokens);
    expect(total).toBeGreaterThanOrEqual(1000);

    // The export holds the whole conversation, not the part loaded in the page.
    await page.conversationAction('Partly loaded', 'Export', 'JSON (.json)');
    await expect.poll(() => saved.length).toBe(1);
    await page.notice(/^Saved the conversation to /).waitFor({ timeout: 8000 });
    const exported = JSON.parse(await readFile(saved[0]!, 'utf8')) as {
      conversations: { messages: { content: string }[] }[];
    };
    expect(exported.conversations[0]!.messages.map((m) => m.content)).toEqual(
      stored.map((m) => m.content),
    );
  });

  it('finds a message by its words, highlights the hit, and jumps to it', async () => {
    let targetId = '';
    const page = await chat({}, (store) => {
      const other = store.create({ title: 'Another chat', model: 'demo-chat' });
      store.append(other.id, exchange(4));
      const long = store.create({ title: 'A long history', model: 'demo-chat' });
      const messages = store.append(
        long.id,
        exchange(300, {
          41: '## The zeppelin **landed** at dawn\n\n- which `nobody` expected, [they said](https://example.com).',
        }),
      );
      targetId = messages[41]!.id;
    });
    await page.sidebar.getByText('A long history').waitFor({ timeout: 8000 });

    await page.search.fill('zeppelin');
    const results = page.searchResults();
    await results.waitFor({ timeout: 8000 });
    await expect(results.locator('li').count()).resolves.toBe(1);
    await expect(results.locator('mark').textContent()).resolves.toMatch(/^zeppelin$/i);
    await expect(results.textContent()).resolves.toContain('A long history');
    // The snippet is plain text: the reply's markdown is not shown as its markers.
    const snippet = await results.locator('.chat-hit-snippet').textContent();
    expect(snippet).toContain('The zeppelin landed at dawn');
    expect(snippet).toContain('which nobody expected, they said');
    expect(snippet).not.toMatch(/[#*`[\]]|https:/);

    await results.getByRole('option').first().click();
    const target = page.messageById(targetId);
    await target.waitFor({ timeout: 8000 });
    await expect.poll(() => target.getAttribute('data-highlighted')).toBe('true');
    await expect.poll(() => page.isInView(target)).toBe(true);
    await expect(target.textContent()).resolves.toContain('The zeppelin landed at dawn');
    // Only the rows near the message are mounted, not the 300 of the conversation.
    expect(await page.page.locator('article.chat-message').count()).toBeLessThan(60);
    await suite.app.screenshot('chat-search-jump');
  });

  it('exports a conversation to JSON and Markdown, and imports the JSON into a fresh app', async () => {
    const saved: string[] = [];
    const exportDialogs: Dialogs = {
      chooseSavePath: async ({ defaultName }) => {
        const path = join(suite.scratch, defaultName);
        saved.push(path);
        return path;
      },
      chooseOpenPaths: async () => [],
    };
    const page = await chat({ dialogs: exportDialogs });
    await page.newChat();
    await expect.poll(() => page.modelName()).toMatch(/^demo-chat/);
    await page.send('Export me, please');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const title = 'Export me, please';
    await page.sidebar.getByText(title).waitFor({ timeout: 8000 });

    await page.conversationAction(title, 'Export', 'JSON (.json)');
    await page.notice(/^Saved the conversation to /).waitFor({ timeout: 8000 });
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/\.json$/);
    const json = JSON.parse(await readFile(saved[0]!, 'utf8')) as {
      format: string;
      version: number;
      conversations: {
        title: string;
        model: string | null;
        messages: { role: string; content: string; status: string }[];
      }[];
    };
    expect(json.format).toBe('relay-desktop-chat');
    // Version 4: each message with its id and its parent's, the whole tree (since version 2),
    // and what it carries besides its text (files, a retrieval, tool calls).
    expect(json.version).toBe(4);
    expect(json.conversations).toHaveLength(1);
    const [exported] = json.conversations;
    expect(exported!.title).toBe(title);
    expect(exported!.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(exported!.messages[0]!.content).toBe('Export me, please');
    expect(exported!.messages[1]!.content).toContain('synthetic demo reply');

    await page.conversationAction(title, 'Export', 'Markdown (.md)');
    await expect.poll(() => saved.length).toBe(2);
    expect(saved[1]).toMatch(/\.md$/);
    await page.notice(/\.md\.$/).waitFor({ timeout: 8000 });
    const markdown = await readFile(saved[1]!, 'utf8');
    expect(markdown).toContain(`# ${title}`);
    expect(markdown).toContain('Export me, please');
    expect(markdown).toContain('synthetic demo reply');
    await suite.closeApp();

    // A fresh app, with nothing in it, imports the file.
    const importDialogs: Dialogs = {
      chooseSavePath: async () => undefined,
      chooseOpenPaths: async () => [saved[0]!],
    };
    const fresh = await chat({ dialogs: importDialogs });
    await expect(fresh.sidebar.locator('.chat-conversation').count()).resolves.toBe(0);
    await fresh.sidebar.getByRole('button', { name: 'Import' }).click();
    await fresh.notice('Imported one conversation.').waitFor({ timeout: 8000 });
    await fresh.sidebar.getByText(title).waitFor({ timeout: 8000 });
    await expect.poll(() => fresh.replies().count()).toBe(1);
    await expect(fresh.lastReply().getAttribute('data-status')).resolves.toBe('complete');
    await expect(fresh.lastReply().textContent()).resolves.toContain('synthetic demo reply');
    await expect(
      fresh.page.locator('article.chat-message[data-role="user"]').textContent(),
    ).resolves.toContain('Export me, please');
  });

  it('runs the ⋯ menu from the keyboard: pin (kept under "Pinned" after a restart), rename, delete', async () => {
    const userDataDir = await mkdtemp(join(suite.scratch, 'menu-'));
    const page = await chat({ userDataDir }, (store) => {
      for (const [title, day] of [
        ['Alpha notes', 1],
        ['Beta plans', 2],
        ['Gamma ideas', 3],
      ] as const) {
        const at = `2026-03-0${day}T09:00:00.000Z`;
        store.create({ title, model: 'demo-chat', createdAt: at, updatedAt: at });
      }
    });
    const keys = page.page.keyboard;
    const titles = page.sidebar.locator('.chat-conversation-title');
    const headings = page.sidebar.getByRole('heading');
    const focused = () => page.focused();
    const row = (title: string) =>
      page.sidebar.locator('.chat-conversation-open').filter({ hasText: title });
    await expect
      .poll(() => titles.allTextContents())
      .toEqual(['Gamma ideas', 'Beta plans', 'Alpha notes']);
    // All three from March 2026: one heading, the month's.
    await expect(headings.allTextContents()).resolves.toEqual(['March 2026']);

    // Shift+F10 on a focused row opens its menu on the first item; arrows move; Esc closes it
    // and focus is back on the row.
    await row('Beta plans').focus();
    await keys.press('Shift+F10');
    const menu = page.conversationMenu('Beta plans');
    await menu.waitFor();
    await expect.poll(focused).toEqual({ role: 'menuitem', text: 'Rename' });
    await keys.press('ArrowDown');
    await expect.poll(focused).toEqual({ role: 'menuitem', text: 'Pin' });
    await keys.press('ArrowUp');
    await keys.press('ArrowUp');
    await expect.poll(focused).toEqual({ role: 'menuitem', text: 'Delete' });
    // Export opens its submenu with Right, and Left goes back to it.
    await keys.press('ArrowUp');
    await keys.press('ArrowRight');
    await expect.poll(focused).toEqual({ role: 'menuitem', text: 'Markdown (.md)' });
    await keys.press('ArrowLeft');
    await expect.poll(focused).toEqual({ role: 'menuitem', text: 'Export' });
    await keys.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(focused).toEqual({ role: null, text: 'Beta plans' });

    // The context-menu key opens it too; Pin with Enter.
    await keys.press('ContextMenu');
    await menu.waitFor();
    await keys.press('ArrowDown');
    await keys.press('Enter');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => headings.allTextContents()).toEqual(['Pinned', 'March 2026']);
    await expect
      .poll(() => titles.allTextContents())
      .toEqual(['Beta plans', 'Gamma ideas', 'Alpha notes']);
    await suite.closeApp();

    // After a restart, it is still under "Pinned".
    const again = new ChatPage((await suite.openApp({ userDataDir })).page);
    await again.open();
    const titlesAgain = again.sidebar.locator('.chat-conversation-title');
    await expect
      .poll(() => titlesAgain.allTextContents())
      .toEqual(['Beta plans', 'Gamma ideas', 'Alpha notes']);
    await expect(again.sidebar.getByRole('heading').allTextContents()).resolves.toEqual([
      'Pinned',
      'March 2026',
    ]);
    await expect(
      again.sidebar.locator('.chat-conversation-row').first().getByRole('heading').textContent(),
    ).resolves.toBe('Pinned');

    // Rename from the ⋯ button: Enter opens the menu, Enter on Rename; the new title is saved
    // with Enter and focus is back on the row.
    const keysAgain = again.page.keyboard;
    await again.conversationMenuButton('Gamma ideas').focus();
    await keysAgain.press('Enter');
    await again.conversationMenu('Gamma ideas').waitFor();
    await keysAgain.press('Enter');
    const titleField = again.sidebar.getByLabel('Conversation title');
    await expect.poll(() => again.isFocused(titleField)).toBe(true);
    await titleField.fill('Gamma, renamed');
    await keysAgain.press('Enter');
    await expect
      .poll(() => titlesAgain.allTextContents())
      .toEqual(['Beta plans', 'Gamma, renamed', 'Alpha notes']);
    await expect.poll(() => again.focused()).toEqual({ role: null, text: 'Gamma, renamed' });

    // Delete from the menu (End goes to it): the row goes, focus goes to the row beside it, and
    // Undo, in a notice that F6 reaches, brings it back.
    await again.sidebar
      .locator('.chat-conversation-open')
      .filter({ hasText: 'Alpha notes' })
      .focus();
    await keysAgain.press('Shift+F10');
    await again.conversationMenu('Alpha notes').waitFor();
    await keysAgain.press('End');
    await keysAgain.press('Enter');
    await expect
      .poll(() => titlesAgain.allTextContents())
      .toEqual(['Beta plans', 'Gamma, renamed']);
    await expect.poll(() => again.focused()).toEqual({ role: null, text: 'Gamma, renamed' });
    await keysAgain.press('F6');
    const undo = again.page
      .getByRole('status', { name: 'Notifications' })
      .getByRole('button', { name: 'Undo' });
    await expect.poll(() => again.isFocused(undo)).toBe(true);
    await keysAgain.press('Enter');
    await expect
      .poll(() => titlesAgain.allTextContents())
      .toEqual(['Beta plans', 'Gamma, renamed', 'Alpha notes']);
  });

  it('keeps every conversation across a restart: titles, pins, messages and usage', async () => {
    const userDataDir = await mkdtemp(join(suite.scratch, 'restart-'));
    const page = await chat({ userDataDir });
    await page.newChat();
    await expect.poll(() => page.modelName()).toMatch(/^demo-chat/);
    await page.send('Remember this conversation');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.sidebar.getByText('Remember this conversation').waitFor({ timeout: 8000 });
    await page.conversationAction('Remember this conversation', 'Rename');
    await page.sidebar.getByLabel('Conversation title').fill('Kept across restarts');
    await page.sidebar.getByRole('button', { name: 'Save' }).click();
    await page.sidebar.getByText('Kept across restarts').waitFor({ timeout: 8000 });
    await page.conversationAction('Kept across restarts', 'Pin');
    await page.sidebar.getByLabel('Pinned').waitFor({ timeout: 8000 });

    await page.newChat();
    // Not streamed: the relay then reports the token counts, which are kept too.
    await page.setChatOption('Stream', false);
    await page.send('A second, newer one');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const replyBefore = await page.replyText();
    await expect
      .poll(() => page.conversationUsage().textContent({ timeout: 5000 }))
      .toMatch(/\d+ tokens in this conversation/);
    const usageBefore = await page.conversationUsage().textContent();
    await suite.closeApp();

    // Restart: the same user data folder, new services, a new page.
    const again = new ChatPage((await suite.openApp({ userDataDir })).page);
    await again.open();
    const titles = again.sidebar.locator('.chat-conversation-title');
    await expect
      .poll(() => titles.allTextContents())
      .toEqual(['Kept across restarts', 'A second, newer one']);
    await expect(again.sidebar.getByLabel('Pinned').count()).resolves.toBe(1);

    await again.openConversation('A second, newer one');
    await expect.poll(() => again.replies().count()).toBe(1);
    await expect(again.lastReply().getAttribute('data-status')).resolves.toBe('complete');
    await expect(again.replyText()).resolves.toBe(replyBefore);
    await expect(again.conversationUsage().textContent()).resolves.toBe(usageBefore);

    await again.openConversation('Kept across restarts');
    await expect
      .poll(() => again.page.locator('article.chat-message[data-role="user"]').textContent())
      .toContain('Remember this conversation');
    await expect(again.lastReply().textContent()).resolves.toContain('synthetic demo reply');
  });
});
