/**
 * The prompt library against the demo relay: a prompt with a mistake in its braces refused in
 * place, an assistant with a variable and a starter message a chat starts from, and a snippet
 * inserted with `/` in the message box, its variable asked for, then sent.
 */
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { PromptsPage } from './pages/prompts-page';

const suite = e2eSuite({ connectionName: 'Prompt relay' });

function invoked(channel: string): unknown[] {
  return suite.app.messages
    .filter((m) => m.direction === 'invoke' && m.channel === channel)
    .map((m) => m.payload);
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
    await expect.poll(() => chat.replies().count()).toBe(1);
    expect(invoked('chat:create').at(-1)).toMatchObject({
      title: 'Trip planner',
      systemPrompt: 'You plan trips to Lisbon.',
    });
    expect(invoked('chat:send').at(-1)).toMatchObject({ text: 'Where should I go first?' });
    const [link] = invoked('prompts:link-conversation') as Array<{ conversationId: string }>;
    expect(
      await page.evaluate(
        (id) =>
          (
            globalThis as unknown as {
              relay: { getConversationPrompt(r: unknown): Promise<unknown> };
            }
          ).relay.getConversationPrompt({ conversationId: id }),
        link!.conversationId,
      ),
    ).toMatchObject({ name: 'Trip planner' });

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
    await expect.poll(() => chat.replies().count()).toBe(2);
    expect(invoked('chat:send').at(-1)).toMatchObject({ text: 'Write a warm hello to Ada.' });
  });
});
