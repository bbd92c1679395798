/**
 * Compare side by side against the demo relay: one message to two models, one column failing
 * alone while the other streams to its end, and "Continue with this one" making that reply the
 * path, with the failed one kept as its other version.
 */
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Compare relay' });

describe('compare models', () => {
  it('streams two models in columns, one failing alone, and continues with the other', async () => {
    const page = await suite.connected(ChatPage);
    suite.relay.setFaults({ status: 402, models: ['demo-chat-mini'] });
    // A text file pasted into the message box goes with the compared message to every model.
    await page.page.evaluate(`(() => {
      const data = new DataTransfer();
      data.items.add(new File(['Spring tides at Brest.'], 'tides.txt', { type: 'text/plain' }));
      document
        .querySelector('textarea[aria-label="Message"]')
        .dispatchEvent(new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: data }));
    })()`);
    const chips = page.page.getByRole('list', { name: 'Attached files' });
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
    await page.page.getByRole('button', { name: 'Compare models…' }).click();
    const form = page.page.getByRole('form', { name: 'Compare models' });
    await form.getByLabel('Model of column 1').selectOption('demo-chat');
    await form.getByLabel('Model of column 2').selectOption('demo-chat-mini');
    await form.getByLabel('Message to compare').fill('Why is the sky blue?');
    await form.getByText('With the file attached below: tides.txt').waitFor();
    await form.getByRole('button', { name: 'Send to all' }).click();

    const columns = page.page.getByRole('region', { name: 'Replies side by side' });
    // Each column is named by its model and the temperature it was asked with.
    const good = columns.getByRole('article', { name: /^demo-chat · temperature/ });
    const failed = columns.getByRole('article', { name: /^demo-chat-mini · temperature/ });
    await failed.getByRole('alert').waitFor();
    await expect.poll(() => good.getAttribute('data-status'), { timeout: 20_000 }).toBe('complete');
    await expect(good.textContent()).resolves.toContain('synthetic demo reply');
    await expect(good.textContent()).resolves.toContain('begins: “Spring tides at Brest.”');
    await expect(chips.getByRole('listitem').count()).resolves.toBe(0);
    await expect(good.locator('.chat-usage').textContent()).resolves.toMatch(/\d+ tokens/);
    await expect(failed.getAttribute('data-status')).resolves.toBe('error');
    await suite.app.screenshot('chat-compare');

    const chosen = await good.getAttribute('data-message-id');
    await good.getByRole('button', { name: 'Continue with this one' }).click();
    await columns.waitFor({ state: 'detached' });
    await expect.poll(() => page.lastReply().getAttribute('data-message-id')).toBe(chosen);
    await page.lastReply().getByRole('group', { name: 'Version 1 of 2' }).waitFor();
    // The conversation goes on from the reply chosen.
    suite.relay.setFaults(undefined);
    await page.send('And at sunset?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
  });
});
