/**
 * Tools in chat, end to end: the demo relay's `demo-tools` model and a real MCP server
 * (server-everything over stdio, started by main when first needed). The header's chip gives the
 * conversation the server; each call waits on an approval card (focused, its arguments as
 * indented text) for Allow once, Deny, or Allow for this conversation (the next call then runs
 * unasked); Stop ends a long call and the reply; the page read again shows the stored cards.
 * Then, with one app and one call, the approval card and the call card in every language: the
 * language switched in the settings, the cards' words checked against the catalogue, and each
 * card scanned for accessibility.
 * The reply waiting on a card says "Writing…" at an AA contrast in both themes. In a new chat,
 * the servers chosen before the first send are those of the conversation it makes, and search
 * finds the reply by its call.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Dialogs } from '../../electron/main/app-context';
import { LOCALES, type Locale } from '../../electron/shared/locales';
import { e2eSuite } from './harness/suite';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { ChatPage } from './pages/chat-page';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const suite = e2eSuite({ connectionName: 'Tools relay' });

/** The chat screen's words in a language, from its catalogue. */
function chatWords(locale: Locale): Record<string, string> {
  return JSON.parse(
    readFileSync(join(root, `renderer/src/i18n/messages/${locale}/chat.json`), 'utf8'),
  ) as Record<string, string>;
}

/** A message with its simple `{name}` placeholders filled in. */
function filled(message: string, values: Record<string, string>): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The WCAG contrast ratio of two opaque colours as computed styles give them (`rgb(r, g, b)`). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m);
  return (x! + 0.05) / (y! + 0.05);
}

/**
 * server-everything added, the demo-tools model chosen, a first exchange made (the conversation),
 * and the header's chip giving it the server's tools.
 */
async function withEverythingChosen(page: ChatPage): Promise<void> {
  await suite.app.services.mcp.add({
    name: 'Everything',
    transport: 'stdio',
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
  });
  await page.chooseModel('demo-tools');
  await page.send('Hello there');
  await expect(page.finishedReplyStatus()).resolves.toBe('complete');
  await page.chooseToolServer('Everything');
}

/** The file dialogs cancelled; main's question before it starts a local server answered yes. */
const dialogs: Dialogs = {
  chooseSavePath: async () => undefined,
  chooseOpenPaths: async () => [],
  confirm: async () => true,
};

describe.each(['light', 'dark'] as const)('tools in chat (%s)', (colorScheme) => {
  it('asks before each call, runs, denies and allows for the conversation; Stop ends a call; the cards are kept', async () => {
    const page = await suite.connected(ChatPage, { colorScheme, dialogs });
    const app = page.page;
    await withEverythingChosen(page);

    // Allow once: the card takes the focus and shows the arguments as indented JSON.
    await page.send('What is the sum of 2 and 3?');
    const card = app.getByRole('group', { name: /^Run the tool get-sum on Everything\?$/ });
    await card.waitFor({ timeout: 60_000 });
    await expect.poll(() => page.isFocused(card)).toBe(true);
    await expect(card.locator('pre').textContent()).resolves.toMatch(
      /\{\n {2}"a": 2,\n {2}"b": 3\n\}/,
    );
    const violations = blocking(await scanPage(app, '.chat-tool-approval'));
    expect(violations, describeViolations('the approval card', violations)).toEqual([]);
    // The reply waiting on the card says it is being written, readable in both themes.
    const writing = page.lastReply().locator('.chat-badge-live');
    await expect(writing.textContent()).resolves.toBe('Writing…');
    const badge = await scanPage(app, '.chat-badge-live');
    expect(badge.filter((v) => v.id === 'color-contrast')).toEqual([]);
    const [text, background] = await writing.evaluate((element) => {
      const style = (
        globalThis as unknown as {
          getComputedStyle(e: unknown): { color: string; backgroundColor: string };
        }
      ).getComputedStyle(element);
      return [style.color, style.backgroundColor];
    });
    expect(contrast(text!, background!)).toBeGreaterThanOrEqual(4.5);
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const done = page.lastReply().locator('.chat-tool-call');
    await expect(done.getAttribute('data-state')).resolves.toBe('done');
    await expect(done.getAttribute('open')).resolves.toBeNull();
    await expect(done.locator('summary').textContent()).resolves.toContain('get-sum');
    await expect(page.lastReply().textContent()).resolves.toContain('5');

    // Deny: the model is told, and the card says so.
    await page.send('What is the sum of 4 and 5?');
    await card.waitFor();
    await card.getByRole('button', { name: 'Deny' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(
      page.lastReply().locator('.chat-tool-call').getAttribute('data-state'),
    ).resolves.toBe('denied');

    // Allow for this conversation: the next call to the tool runs without asking.
    await page.send('What is the sum of 6 and 7?');
    await card.waitFor();
    await card.getByRole('button', { name: 'Allow for this conversation' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.send('What is the sum of 10 and 20?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(
      page.lastReply().locator('.chat-tool-call').getAttribute('data-state'),
    ).resolves.toBe('done');
    await expect(page.lastReply().textContent()).resolves.toContain('30');

    // Stop during a long call: the call and the reply end, said on the card.
    await page.send('Run a long running operation with a duration of 60 seconds');
    const long = app.getByRole('group', { name: /^Run the tool trigger-long-running-operation/ });
    await long.waitFor();
    await long.getByRole('button', { name: 'Allow once' }).click();
    const running = page.lastReply().locator('.chat-tool-call[data-state="running"]');
    await running.waitFor();
    await app.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('interrupted');
    const stopped = page.lastReply().locator('.chat-tool-call');
    await expect(stopped.getAttribute('data-state')).resolves.toBe('failed');
    await stopped.locator('summary').click();
    await expect(stopped.textContent()).resolves.toContain('stopped this call');

    // Read again from main: every reply's cards as they were stored.
    await app.reload();
    await page.sidebar.locator('.chat-conversation-open').first().waitFor();
    await page.openConversation('Hello there');
    const states = () =>
      app
        .locator('.chat-tool-call')
        .evaluateAll((cards) =>
          cards.map((c) =>
            (c as unknown as { getAttribute(name: string): string | null }).getAttribute(
              'data-state',
            ),
          ),
        );
    // The latest messages' cards first; the oldest ones' once the list is scrolled to its top.
    await expect.poll(states).toEqual(['done', 'done', 'failed']);
    await expect
      .poll(async () => (await page.scrollToTop(), (await states()).slice(0, 2)))
      .toEqual(['done', 'denied']);
  });
});

describe('the approval card and the call card in every language', { timeout: 240_000 }, () => {
  it('says their words in each language and passes the accessibility scan', async () => {
    const page = await suite.connected(ChatPage, { colorScheme: 'light', dialogs });
    const app = page.page;
    const services = suite.app.services;
    await withEverythingChosen(page);

    // A language a turn: chosen, the page read again, a call asked for and allowed.
    const box = app.locator('textarea.chat-input');
    for (const [index, language] of LOCALES.entries()) {
      await services.settings.update({ language });
      await app.reload();
      await app.locator(`html[lang="${language}"]`).waitFor();
      // The sidebar's name is in the language shown: found by its class.
      await app.locator('.chat-conversation-open', { hasText: 'Hello there' }).first().click();
      await box.waitFor();
      const words = chatWords(language);
      await box.fill(`What is the sum of ${index} and 3?`);
      await box.press('Enter');
      const title = filled(words['chat.tools.approve']!, { tool: 'get-sum', server: 'Everything' });
      const approval = app.getByRole('group', { name: title, exact: true });
      await approval.waitFor({ timeout: 60_000 });
      for (const key of [
        'chat.tools.allowConversation',
        'chat.tools.allowAlways',
        'chat.tools.deny',
      ])
        await approval.getByRole('button', { name: words[key]!, exact: true }).waitFor();
      await expect(approval.textContent()).resolves.toContain(words['chat.tools.arguments']);
      const asked = blocking(await scanPage(app, '.chat-tool-approval'));
      expect(asked, describeViolations(`the approval card (${language})`, asked)).toEqual([]);
      await approval
        .getByRole('button', { name: words['chat.tools.allowOnce']!, exact: true })
        .click();
      await expect(page.finishedReplyStatus()).resolves.toBe('complete');

      const call = page.lastReply().locator('.chat-tool-call');
      const summary = call.locator('summary');
      await expect.poll(() => summary.textContent()).toContain(words['chat.tools.state.done']);
      await expect(summary.textContent()).resolves.toContain(
        filled(words['chat.tools.onServer']!, { server: 'Everything' }),
      );
      await summary.click();
      await expect.poll(() => call.getAttribute('open')).not.toBeNull();
      const body = await call.textContent();
      expect(body).toContain(words['chat.tools.arguments']);
      expect(body).toContain(words['chat.tools.result']);
      const shown = blocking(await scanPage(app, '.chat-tool-call'));
      expect(shown, describeViolations(`the call card (${language})`, shown)).toEqual([]);
    }
  });
});

// A server started, a tool turn and a search: more than the default 30 s on a busy machine.
describe('tools in a new chat', { timeout: 60_000 }, () => {
  it('keeps the servers chosen before the first send, and the conversation made by it uses them', async () => {
    const page = await suite.connected(ChatPage, { dialogs });
    const app = page.page;
    const server = await suite.app.services.mcp.add({
      name: 'Everything',
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
    });
    await page.chooseModel('demo-tools');
    // No conversation yet: the chip is there, and its choice is kept with the new chat.
    await page.chooseToolServer('Everything');
    const saved = () =>
      suite.app.services.db.all<{ tool_servers: string | null }>(
        'SELECT tool_servers FROM chat_conversations',
      );
    expect(saved()).toEqual([]);

    // The first send makes the conversation with the server: its first reply calls the tool.
    await page.send('What is the sum of 2 and 3?');
    const card = app.getByRole('group', { name: /^Run the tool get-sum on Everything\?$/ });
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(
      page.lastReply().locator('.chat-tool-call').getAttribute('data-state'),
    ).resolves.toBe('done');
    expect(saved()).toEqual([{ tool_servers: JSON.stringify([server.id]) }]);
    await app.getByRole('button', { name: 'Tools: 1 server' }).waitFor();

    // Search finds the reply by its call (the server's name is in no message's text): the
    // palette shows the hit, its snippet led by the tool's name.
    await page.message.focus();
    await app.keyboard.press('Control+k');
    await expect.poll(() => page.isFocused(page.search)).toBe(true);
    await app.keyboard.type('Everything');
    const hit = page.searchResults().getByRole('option');
    await hit.first().waitFor();
    await expect(hit.count()).resolves.toBe(1);
    await expect(hit.locator('.chat-hit-snippet').textContent()).resolves.toMatch(/^get-sum: /);
    await expect(hit.locator('mark').allTextContents()).resolves.toEqual(['Everything']);
    await app.keyboard.press('Escape');

    // The next new chat starts with none.
    await page.newChat();
    await app.getByRole('button', { name: 'Tools: none' }).waitFor();
  });
});
