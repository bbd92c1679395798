/**
 * The prompt library against the demo relay: a prompt with a mistake in its braces refused in
 * place, an assistant with a variable and a starter message a chat starts from, and a snippet
 * inserted with `/` in the message box, its variable asked for, then sent; the library exported
 * as JSON and imported into a fresh app, a bad entry refused by name.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Dialogs } from '../../electron/main/app-context';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { PromptsPage } from './pages/prompts-page';
import { callFromPage } from './harness/page-calls';

const suite = e2eSuite({ connectionName: 'Prompt relay', scratch: true });

function invoked(channel: string): unknown[] {
  return suite.app.messages
    .filter((m) => m.direction === 'invoke' && m.channel === channel)
    .map((m) => m.payload);
}

/**
 * The reply main started for the message sent with `text`. Rows are found by id, not counted:
 * the list is virtualized, so a long earlier reply can be unmounted once a new one is below it.
 */
function replyIdFor(text: string): string | undefined {
  const sent = suite.app.messages.find(
    (m) =>
      m.direction === 'invoke' &&
      m.channel === 'chat:send' &&
      (m.payload as { text?: string }).text === text,
  );
  if (sent?.direction !== 'invoke') return undefined;
  return (sent.result as { ok: boolean; value?: { replyId: string } }).value?.replyId;
}

describe('prompt library', () => {
  it('saves prompts with variables, starts a chat from one and inserts a snippet with /', async () => {
    const prompts = await suite.connected(PromptsPage);
    const page = prompts.page;

    // A typo in the braces is refused by position, and nothing is saved.
    await prompts.fillNew('snippet', { name: 'Greeting', text: 'Write a hello to {{name' });
    await prompts.save();
    await expect
      .poll(() => prompts.editor.locator('.field-error').textContent())
      .toBe('Prompt text: The {{ at line 1, column 18 is not closed with }}.');
    await prompts.editor
      .getByLabel('Text to insert')
      .fill('Write a {{tone=warm}} hello to {{name}}.');
    await prompts.save();
    await prompts.card('Greeting').waitFor();

    // An assistant: its variable filled and its starter chosen before the chat starts.
    await prompts.fillNew('assistant', {
      name: 'Trip planner',
      text: 'You plan trips to {{city}}.',
      starters: 'Where should I go first?',
    });
    await prompts.save();
    await prompts
      .card('Trip planner')
      .getByRole('button', { name: 'Start chat with Trip planner' })
      .click();
    await prompts.startDialog.waitFor();
    await prompts.startDialog.getByLabel('city').fill('Lisbon');
    expect(await prompts.startDialog.locator('.prompt-variables-text').textContent()).toBe(
      'You plan trips to Lisbon.',
    );
    await prompts.startDialog.getByLabel('Where should I go first?').check();
    await prompts.startDialog.getByRole('button', { name: 'Start chat' }).click();

    const chat = new ChatPage(page);
    await chat.message.waitFor();
    await expect
      .poll(() => replyIdFor('Where should I go first?'), { timeout: 10_000 })
      .toBeDefined();
    await chat.messageById(replyIdFor('Where should I go first?')!).waitFor();
    // The starter's reply written to its end: a send meanwhile would be asked to wait.
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    expect(invoked('chat:create').at(-1)).toMatchObject({
      title: 'Trip planner',
      systemPrompt: 'You plan trips to Lisbon.',
    });
    expect(invoked('chat:send').at(-1)).toMatchObject({ text: 'Where should I go first?' });
    const [link] = invoked('prompts:link-conversation') as Array<{ conversationId: string }>;
    expect(
      await callFromPage(page, 'getConversationPrompt', { conversationId: link!.conversationId }),
    ).toMatchObject({ name: 'Trip planner' });
    // The header says which prompt the conversation came from; the message box offers `/`.
    const origin = page.locator('.chat-header .chat-prompt-origin');
    await expect.poll(() => origin.textContent()).toContain('Trip planner');
    await expect
      .poll(() => chat.message.getAttribute('placeholder'))
      .toContain('type / for snippets');

    // Quick insert: `/` lists the snippets, Enter picks one, its variable is asked for.
    await chat.message.fill('/gree');
    const option = page.getByRole('option', { name: /Greeting/ });
    await option.waitFor();
    await chat.message.press('Enter');
    const form = page.locator('.snippet-fill');
    await form.waitFor();
    await form.getByRole('button', { name: 'Insert' }).click();
    await expect.poll(() => form.locator('.field-error').textContent()).toBe('Fill in name.');
    await form.getByLabel('name').fill('Ada');
    await form.getByLabel('name').press('Enter');
    await expect.poll(() => chat.message.inputValue()).toBe('Write a warm hello to Ada.');
    await chat.message.press('Enter');
    await expect
      .poll(() => replyIdFor('Write a warm hello to Ada.'), { timeout: 10_000 })
      .toBeDefined();
    await chat.messageById(replyIdFor('Write a warm hello to Ada.')!).waitFor();
    expect(invoked('chat:send').at(-1)).toMatchObject({ text: 'Write a warm hello to Ada.' });

    // A conversation whose prompt was deleted since shows no prompt, and a plain one none.
    await prompts.open();
    await prompts.card('Trip planner').getByRole('button', { name: 'Delete Trip planner' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await prompts.card('Trip planner').waitFor({ state: 'detached' });
    await chat.open();
    await chat.openConversation('Trip planner');
    await chat.message.waitFor();
    await expect.poll(() => origin.count()).toBe(0);
    await chat.newChat();
    await expect.poll(() => origin.count()).toBe(0);
  });

  it('exports the library as JSON and imports it into a fresh app, refusing a bad entry by name', async () => {
    const exported = join(suite.scratch, 'prompts.json');
    // What the open dialog answers: nothing chosen until the file is ready.
    const chosen: string[] = [];
    const dialogs: Dialogs = {
      chooseSavePath: async () => exported,
      chooseOpenPaths: async () => chosen,
    };
    const prompts = await suite.connected(PromptsPage, { dialogs });
    await prompts.fillNew('snippet', { name: 'Sign-off', text: 'Best, {{name=Ada}}' });
    await prompts.save();
    await prompts.card('Sign-off').waitFor();
    await prompts.fillNew('assistant', { name: 'Prose tightener', text: 'You tighten prose.' });
    await prompts.save();
    await prompts.card('Prose tightener').waitFor();
    await prompts.page.getByRole('button', { name: 'Export…' }).click();
    await expect.poll(() => readFile(exported, 'utf8').catch(() => '')).toContain('Sign-off');
    const file = JSON.parse(await readFile(exported, 'utf8')) as {
      format: string;
      prompts: Array<{ name: string; text: string }>;
    };
    expect(file.format).toBe('relay-desktop.prompts');
    expect(file.prompts.map((p) => p.name).sort()).toEqual(['Prose tightener', 'Sign-off']);
    await suite.closeApp();

    // The same file, with one broken entry added, into an app with a fresh library.
    const opened = join(suite.scratch, 'prompts-with-a-bad-one.json');
    file.prompts.push({ name: 'Half-written', text: 'Summarise {{topic' });
    await writeFile(opened, JSON.stringify(file));
    chosen.push(opened);
    const fresh = await suite.connected(PromptsPage, { dialogs });
    await fresh.page.getByRole('button', { name: 'Import…' }).click();
    const notice = fresh.page.locator('.notice', { hasText: 'Imported:' });
    await expect
      .poll(() => notice.locator('.notice-title').textContent())
      .toBe('Imported: 2 prompts added, 1 refused');
    await expect(notice.locator('.prompt-refused li').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^“Half-written” \(entry 3\): /),
    ]);
    await fresh.card('Sign-off').waitFor();
    await fresh.card('Prose tightener').waitFor();
    await expect(fresh.card('Half-written').count()).resolves.toBe(0);
  });
});
