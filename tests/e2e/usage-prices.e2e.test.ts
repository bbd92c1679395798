/**
 * Prices and usage against the demo relay: a price entered on the Models screen (a bad one refused
 * beside its field), the cost of a reply and of the conversation in Chat, and the Usage screen's
 * chart (read with the keyboard) and tables, with "unknown" for a model without a price.
 */
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { ModelsPage } from './pages/models-page';
import { ShellPage } from './pages/shell-page';
import { callFromPage } from './harness/page-calls';

const suite = e2eSuite({ connectionName: 'Priced relay' });

describe('prices and usage', () => {
  it('costs replies at the price entered, and charts the usage per model and day', async () => {
    const models = await suite.connected(ModelsPage);
    const page = models.page;
    const shell = new ShellPage(page);
    await models.waitForModels();

    // Usage before any reply: the empty state.
    await shell.open('Usage');
    await page.getByText('No usage in the last 30 days').waitFor();
    await shell.open('Models');
    await models.waitForModels();

    await models.row('demo-chat').getByRole('button', { name: 'Set price of demo-chat' }).click();
    const form = page.getByRole('form', { name: 'Price of demo-chat' });
    const input = form.getByLabel('Input, per million tokens');
    const output = form.getByLabel('Output, per million tokens');
    await expect
      .poll(() =>
        input.evaluate(
          (e) =>
            e ===
            (globalThis as unknown as { document: { activeElement: unknown } }).document
              .activeElement,
        ),
      )
      .toBe(true);
    await input.fill('-1');
    await output.fill('ten');
    await form.getByRole('button', { name: 'Save price' }).click();
    await expect(form.locator('.field-error').allTextContents()).resolves.toEqual([
      'A price cannot be negative.',
      'The output price must be a number, such as 2.50.',
    ]);
    await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
    await input.fill('2.5');
    await output.fill('10');
    await form.getByRole('button', { name: 'Save price' }).click();
    await form.waitFor({ state: 'detached' });
    await expect(
      models
        .row('demo-chat')
        .getByRole('button', { name: /^Price of demo-chat: / })
        .textContent(),
    ).resolves.toMatch(/\$2\.50 in.*\$10\.00 out/);
    // Saved in main: a new read gives it back.
    await expect(callFromPage(page, 'listPrices')).resolves.toMatchObject({
      prices: { 'demo-chat': { inputPerMillion: 2.5, outputPerMillion: 10 } },
    });

    const chat = new ChatPage(page);
    await chat.open();
    await chat.ready();
    await chat.chooseModel('demo-chat');
    await chat.send('What does a token cost?');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await expect(chat.lastReply().locator('.chat-cost').textContent()).resolves.toMatch(
      /^\$0\.\d+$/,
    );
    await expect.poll(() => page.locator('.chat-header-cost').textContent()).toMatch(/^\$0\.\d+$/);

    // A reply of a model without a price: its cost is unknown, and so is part of the total.
    await chat.chooseModel('demo-chat-mini');
    await chat.send('And this one?');
    await chat.replyAfter('And this one?').waitFor();
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await expect(chat.lastReply().locator('.chat-cost').textContent()).resolves.toBe(
      'cost unknown',
    );
    await expect
      .poll(() => page.locator('.chat-header-cost').textContent())
      .toMatch(/\$0\.\d+ \+ unknown$/);

    await shell.open('Usage');
    const perModel = page.getByRole('region', { name: 'Per model' }).getByRole('table');
    const priced = perModel.getByRole('row', { name: /^demo-chat\b(?!-)/ });
    await expect(priced.getByRole('cell').last().textContent()).resolves.toMatch(/^\$0\.\d+$/);
    await expect(
      perModel
        .getByRole('row', { name: /demo-chat-mini/ })
        .getByRole('cell')
        .last()
        .textContent(),
    ).resolves.toBe('unknown');
    await page.getByText('Some models have no price').waitFor();

    const chart = page.getByRole('img', { name: /^Tokens per day over the last 30 days/ });
    await chart.locator('canvas').first().waitFor();
    await chart.focus();
    await chart.press('End');
    const today = new Date().toLocaleDateString(undefined, {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
    });
    const readout = page.locator('.usage-day');
    await expect.poll(() => readout.textContent()).toContain(`${today}:`);
    await expect(readout.textContent()).resolves.toMatch(/demo-chat \d[\d,]* tokens, \$0\.\d+/);
    await chart.press('ArrowLeft');
    await expect.poll(() => readout.textContent()).toMatch(/: nothing used\.$/);

    await page.getByRole('radio', { name: 'Cost' }).check();
    await page.getByRole('img', { name: /^Cost per day/ }).waitFor();
    expect(suite.app.pageErrors).toEqual([]);
    expect(suite.app.cspViolations).toEqual([]);
  });
});
