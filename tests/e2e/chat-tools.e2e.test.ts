/**
 * Tools in chat, end to end: the demo relay's `demo-tools` model and a real MCP server
 * (server-everything over stdio, started by main when first needed). The header's chip gives the
 * conversation the server; each call waits on an approval card (focused, its arguments as
 * indented text) for Allow once, Deny, or Allow for this conversation (the next call then runs
 * unasked); Stop ends a long call and the reply; the page read again shows the stored cards.
 * Then, with one app and one call, the approval card and the call card in every language: the
 * language switched in the settings, the cards' words checked against the catalogue, and each
 * card scanned for accessibility.
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
    const services = suite.app.services;
    await services.mcp.add({
      name: 'Everything',
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
    });
    await page.chooseModel('demo-tools');
    await page.send('Hello there');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');

    // The chip gives the conversation the server's tools.
    await app.getByRole('button', { name: 'Tools: none' }).click();
    await app.getByRole('checkbox', { name: 'Everything' }).check();
    await app.keyboard.press('Escape');
    await app.getByRole('button', { name: 'Tools: 1 server' }).waitFor();

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
    await services.mcp.add({
      name: 'Everything',
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
    });
    await page.chooseModel('demo-tools');
    await page.send('Hello there');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await app.getByRole('button', { name: 'Tools: none' }).click();
    await app.getByRole('checkbox', { name: 'Everything' }).check();
    await app.keyboard.press('Escape');
    await app.getByRole('button', { name: 'Tools: 1 server' }).waitFor();

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
