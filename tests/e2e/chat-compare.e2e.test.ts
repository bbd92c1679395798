/**
 * Compare side by side against the demo relay: one message to two models, one column failing
 * alone while the other streams to its end, and "Continue with this one" making that reply the
 * path, with the failed one kept as its other version.
 */
import { describe, expect, it } from 'vitest';
import { startDemoRelay } from '../../electron/demo-relay/index';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
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

  it('continues with the chosen column’s model: the chip shows it and the next reply is its', async () => {
    const page = await suite.connected(ChatPage);
    await expect(page.model.inputValue()).resolves.toBe('demo-chat');
    await page.page.getByRole('button', { name: 'Compare models…' }).click();
    const form = page.page.getByRole('form', { name: 'Compare models' });
    await form.getByLabel('Model of column 1').selectOption('demo-chat');
    await form.getByLabel('Model of column 2').selectOption('demo-chat-mini');
    await form.getByLabel('Message to compare').fill('Which is the faster model?');
    await form.getByRole('button', { name: 'Send to all' }).click();

    const columns = page.page.getByRole('region', { name: 'Replies side by side' });
    const mini = columns.getByRole('article', { name: /^demo-chat-mini · temperature/ });
    await expect.poll(() => mini.getAttribute('data-status'), { timeout: 20_000 }).toBe('complete');
    await mini.getByRole('button', { name: 'Continue with this one' }).click();
    await columns.waitFor({ state: 'detached' });

    await expect.poll(() => page.model.inputValue()).toBe('demo-chat-mini');
    await page.send('And then?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const last = page.lastReply().locator('.chat-message-role');
    await expect(last.textContent()).resolves.toBe('demo-chat-mini');
    // The smaller model's brief reply, not the structured one.
    await expect(page.replyText()).resolves.toMatch(/^(In short|Briefly|The gist|Quick take):/);
  });

  it('shows every column a message of deltas carries at once, none a frame behind the others', async () => {
    // A relay of its own for the replies: 3,000 tokens each at 2,000 a second.
    const fast = await startDemoRelay({
      keys: [suite.key],
      tokensPerSecond: 2000,
      replyTokens: 3000,
      ratePerMinute: 1000,
    });
    const viaFast: FetchLike = (url, init) =>
      fetch(url.endsWith('/v1/chat/completions') ? `${fast.url}/v1/chat/completions` : url, init);
    try {
      const page = await suite.connected(ChatPage, { fetch: viaFast });
      await page.page.getByRole('button', { name: 'Compare models…' }).click();
      const form = page.page.getByRole('form', { name: 'Compare models' });
      for (const [index, temperature] of ['0.2', '1'].entries()) {
        await form.getByLabel(`Model of column ${index + 1}`).selectOption('demo-chat');
        await form.getByLabel(`Temperature of column ${index + 1}`).fill(temperature);
      }
      await form.getByLabel('Message to compare').fill('Two long replies at once');
      // Each message of deltas as the page receives it (after the app's own listener): which of
      // the columns it carries words for had grown once the render it caused was committed.
      await page.page.evaluate(`(() => {
        const seen = (globalThis.__compareDeltas = []);
        const lengths = () => new Map(
          Array.from(document.querySelectorAll('article.chat-compare-column'), (c) => [
            c.getAttribute('data-message-id'),
            c.querySelector('.markdown')?.textContent.length ?? 0,
          ]),
        );
        window.relay.onChatDelta(({ deltas }) => {
          const before = lengths();
          const words = deltas.filter((d) => /[A-Za-z0-9]/.test(d.text)).map((d) => d.replyId);
          // React commits a store change in a microtask queued before this one.
          queueMicrotask(() => {
            const after = lengths();
            seen.push(words.map((id) => after.get(id) !== before.get(id)));
          });
        });
      })()`);
      await form.getByRole('button', { name: 'Send to all' }).click();
      const columns = page.page.getByRole('region', { name: 'Replies side by side' });
      const articles = columns.getByRole('article');
      await expect.poll(() => articles.count()).toBe(2);
      for (const column of [articles.nth(0), articles.nth(1)])
        await expect
          .poll(() => column.getAttribute('data-status'), { timeout: 20_000 })
          .toBe('complete');

      const seen = (await page.page.evaluate('globalThis.__compareDeltas')) as boolean[][];
      // Messages carrying both columns' words, shown at once (not waiting for a frame).
      const both = seen.filter((grew) => grew.length === 2 && grew.some(Boolean));
      expect(both.length).toBeGreaterThanOrEqual(5);
      // Split: one column shown now, the other a frame later (or words hidden for a moment as
      // half-written markup, which the relay's plain paragraphs seldom have).
      const split = both.filter((grew) => !grew.every(Boolean));
      expect(split.length).toBeLessThanOrEqual(Math.floor(both.length / 10));
    } finally {
      await fast.close();
    }
  });
});
