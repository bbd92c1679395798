/**
 * Chat history against the demo relay: search and jump to the message, export and import through
 * scripted dialogs, and a restart that keeps every conversation as it was.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoRelay } from '../../electron/demo-relay/index';
import type { Dialogs } from '../../electron/main/app-context';
import { ChatStore, type NewMessage } from '../../electron/main/services/chat/store';
import { expectHealthyPage } from './harness/checks';
import {
  startE2e,
  type AppUnderTest,
  type E2eSession,
  type OpenAppOptions,
} from './harness/harness';
import { newKey, startRelay } from './harness/relay';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';

let e2e: E2eSession;
let relay: DemoRelay;
let app: AppUnderTest | undefined;
let scratch: string;
const key = newKey();

beforeAll(async () => {
  [e2e, relay, scratch] = await Promise.all([
    startE2e(),
    startRelay([key]),
    mkdtemp(join(tmpdir(), 'relay-e2e-chat-history-')),
  ]);
});
beforeEach(() => {
  relay.setFaults(undefined);
  relay.setBalance(key, 100);
});
afterEach(async () => {
  if (app) expectHealthyPage(app);
  await app?.close();
  app = undefined;
});
afterAll(async () => {
  await Promise.all([e2e?.close(), relay?.close()]);
  await rm(scratch, { recursive: true, force: true });
});

/** Opens the app and connects; `seed` runs on main's chat store before the chat screen opens. */
async function chat(
  options: OpenAppOptions = {},
  seed?: (store: ChatStore) => void,
): Promise<ChatPage> {
  app = await e2e.openApp(options);
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.connect({ name: 'Chat relay', baseUrl: relay.url, apiKey: key });
  seed?.(new ChatStore(app.services.db));
  const page = new ChatPage(app.page);
  await page.open();
  return page;
}

/** A long exchange of plain messages; `special` (by index) replaces the text of some. */
function exchange(count: number, special: Record<number, string> = {}): NewMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: special[i] ?? `Message number ${i} about ordinary things, nothing to see here.`,
    status: 'complete' as const,
  }));
}

describe('chat history', () => {
  it('finds a message by its words, highlights the hit, and jumps to it', async () => {
    let targetId = '';
    const page = await chat({}, (store) => {
      const other = store.create({ title: 'Another chat', model: 'demo-chat' });
      store.append(other.id, exchange(4));
      const long = store.create({ title: 'A long history', model: 'demo-chat' });
      const messages = store.append(
        long.id,
        exchange(300, { 41: 'The zeppelin landed at dawn, which nobody expected.' }),
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

    await results.getByRole('button').first().click();
    const target = page.messageById(targetId);
    await target.waitFor({ timeout: 8000 });
    await expect.poll(() => target.getAttribute('data-highlighted')).toBe('true');
    await expect.poll(() => page.isInView(target)).toBe(true);
    await expect(target.textContent()).resolves.toContain('The zeppelin landed at dawn');
    // Only the rows near the message are mounted, not the 300 of the conversation.
    expect(await page.page.locator('article.chat-message').count()).toBeLessThan(60);
    await app!.screenshot('chat-search-jump');
  });

  it('exports a conversation to JSON and Markdown, and imports the JSON into a fresh app', async () => {
    const saved: string[] = [];
    const exportDialogs: Dialogs = {
      chooseSavePath: async ({ defaultName }) => {
        const path = join(scratch, defaultName);
        saved.push(path);
        return path;
      },
      chooseOpenPaths: async () => [],
    };
    const page = await chat({ dialogs: exportDialogs });
    await page.newChat();
    await expect.poll(() => page.model.inputValue()).toMatch(/^demo-chat/);
    await page.send('Export me, please');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const title = 'Export me, please';
    await page.sidebar.getByText(title).waitFor({ timeout: 8000 });

    await page.sidebar.getByRole('button', { name: `Export ${title} as JSON` }).click();
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
    expect(json.version).toBe(1);
    expect(json.conversations).toHaveLength(1);
    const [exported] = json.conversations;
    expect(exported!.title).toBe(title);
    expect(exported!.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(exported!.messages[0]!.content).toBe('Export me, please');
    expect(exported!.messages[1]!.content).toContain('synthetic demo reply');

    await page.sidebar.getByRole('button', { name: `Export ${title} as Markdown` }).click();
    await expect.poll(() => saved.length).toBe(2);
    expect(saved[1]).toMatch(/\.md$/);
    await page.notice(/\.md\.$/).waitFor({ timeout: 8000 });
    const markdown = await readFile(saved[1]!, 'utf8');
    expect(markdown).toContain(`# ${title}`);
    expect(markdown).toContain('Export me, please');
    expect(markdown).toContain('synthetic demo reply');
    expectHealthyPage(app!);
    await app!.close();

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

  it('keeps every conversation across a restart: titles, pins, messages and usage', async () => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'relay-e2e-chat-restart-'));
    try {
      const page = await chat({ userDataDir });
      await page.newChat();
      await expect.poll(() => page.model.inputValue()).toMatch(/^demo-chat/);
      await page.send('Remember this conversation');
      await expect(page.finishedReplyStatus()).resolves.toBe('complete');
      await page.sidebar.getByText('Remember this conversation').waitFor({ timeout: 8000 });
      await page.sidebar.getByRole('button', { name: 'Rename Remember this conversation' }).click();
      await page.sidebar.getByLabel('Conversation title').fill('Kept across restarts');
      await page.sidebar.getByRole('button', { name: 'Save' }).click();
      await page.sidebar.getByText('Kept across restarts').waitFor({ timeout: 8000 });
      await page.sidebar.getByRole('button', { name: 'Pin Kept across restarts' }).click();
      await page.sidebar.getByLabel('Pinned').waitFor({ timeout: 8000 });

      await page.newChat();
      // Not streamed: the relay then reports the token counts, which are kept too.
      await page.page.getByLabel('Stream', { exact: true }).uncheck();
      await page.send('A second, newer one');
      await expect(page.finishedReplyStatus()).resolves.toBe('complete');
      const replyBefore = await page.replyText();
      await expect
        .poll(() => page.conversationUsage().textContent({ timeout: 5000 }))
        .toMatch(/\d+ tokens in this conversation/);
      const usageBefore = await page.conversationUsage().textContent();
      expectHealthyPage(app!);
      await app!.close();

      // Restart: the same user data folder, new services, a new page.
      app = await e2e.openApp({ userDataDir });
      const again = new ChatPage(app.page);
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
    } finally {
      await app?.close();
      app = undefined;
      await rm(userDataDir, { recursive: true, force: true });
    }
  });
});
