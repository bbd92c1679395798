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

/** The little of the DOM the page-side checks use (the tests compile without the DOM library). */
interface Doc {
  elementFromPoint(x: number, y: number): { closest(selector: string): unknown } | null;
}

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
    await expect(page.modelName()).resolves.toBe('demo-chat');
    await page.page.getByRole('button', { name: 'Compare models…' }).click();
    const form = page.page.getByRole('form', { name: 'Compare models' });
    await form.getByLabel('Model of column 1').selectOption('demo-chat');
    await form.getByLabel('Model of column 2').selectOption('demo-chat-mini');
    await form.getByLabel('Message to compare').fill('Which is the faster model?');
    await form.getByRole('button', { name: 'Send to all' }).click();

    const columns = page.page.getByRole('region', { name: 'Replies side by side' });
    const mini = columns.getByRole('article', { name: /^demo-chat-mini · temperature/ });
    await expect.poll(() => mini.getAttribute('data-status'), { timeout: 20_000 }).toBe('complete');
    const other = columns.getByRole('article', { name: /^demo-chat · temperature/ });
    await expect
      .poll(() => other.getAttribute('data-status'), { timeout: 20_000 })
      .toBe('complete');
    // Sending before a reply is chosen says what to do, under the box: no refusal, text kept.
    await page.send('Too soon');
    await expect(page.composerHint().textContent()).resolves.toBe(
      'Choose the reply to go on with first: “Continue with this one” under its column.',
    );
    await expect(page.page.getByText('Check the form').count()).resolves.toBe(0);
    await expect(page.message.inputValue()).resolves.toBe('Too soon');
    await page.message.fill('');
    await mini.getByRole('button', { name: 'Continue with this one' }).click();
    await columns.waitFor({ state: 'detached' });

    await expect.poll(() => page.modelName()).toBe('demo-chat-mini');
    await page.send('And then?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const last = page.lastReply().locator('.chat-message-role');
    await expect(last.textContent()).resolves.toBe('demo-chat-mini');
    // The smaller model's brief reply, not the structured one.
    await expect(page.replyText()).resolves.toMatch(/^(In short|Briefly|The gist|Quick take):/);
  });

  it(
    'lays three columns side by side at 1280 px, each scrolling on its own and following its end',
    { timeout: 60_000 },
    async () => {
      // Long replies, paced, so that they overflow their columns while they stream.
      const paced = await startDemoRelay({
        keys: [suite.key],
        tokensPerSecond: 300,
        replyTokens: 6000,
        ratePerMinute: 1000,
      });
      const viaPaced: FetchLike = (url, init) =>
        fetch(
          url.endsWith('/v1/chat/completions') ? `${paced.url}/v1/chat/completions` : url,
          init,
        );
      try {
        const page = await suite.connected(ChatPage, { fetch: viaPaced });
        await page.page.setViewportSize({ width: 1280, height: 800 });
        await page.page.getByRole('button', { name: 'Compare models…' }).click();
        const form = page.page.getByRole('form', { name: 'Compare models' });
        await form.getByLabel('Model of column 1').waitFor();
        await form.getByRole('button', { name: 'Add a column' }).click();
        // Each field says what it is where a person sees it, not only in a placeholder.
        await form.getByRole('columnheader', { name: 'Model', exact: true }).waitFor();
        await form.getByRole('columnheader', { name: 'Temperature', exact: true }).waitFor();
        await expect(
          form.getByLabel('Temperature of column 1').getAttribute('placeholder'),
        ).resolves.toBe('1 (default)');
        for (const [index, model] of ['demo-chat', 'demo-chat-mini', 'demo-chat'].entries())
          await form.getByLabel(`Model of column ${index + 1}`).selectOption(model);
        await form.getByLabel('Message to compare').fill('Three at once');
        await form.getByRole('button', { name: 'Send to all' }).click();

        const columns = page.page.getByRole('region', { name: 'Replies side by side' });
        const articles = columns.getByRole('article');
        await expect.poll(() => articles.count()).toBe(3);
        // One row: the three columns start at the same height, none wrapped under another.
        const tops = await Promise.all(
          [0, 1, 2].map(async (i) => (await articles.nth(i).boundingBox())!.y),
        );
        expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(1);
        const region = (await columns.boundingBox())!;
        for (const i of [0, 1, 2]) {
          const box = (await articles.nth(i).boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(region.x + region.width + 1);
        }

        // A streaming column taller than its box scrolls on its own, at its end.
        const body = articles.nth(0).locator('.chat-compare-body');
        const metrics = () =>
          body.evaluate((element) => {
            const e = element as unknown as {
              scrollTop: number;
              scrollHeight: number;
              clientHeight: number;
            };
            return { top: e.scrollTop, height: e.scrollHeight, view: e.clientHeight };
          });
        await expect
          .poll(async () => {
            const m = await metrics();
            return m.height > m.view * 2;
          })
          .toBe(true);
        await expect(articles.nth(0).getAttribute('data-status')).resolves.toBe('streaming');
        await expect
          .poll(async () => {
            const m = await metrics();
            return m.height - m.top - m.view;
          })
          .toBeLessThanOrEqual(30);
        // The person scrolls up to read: the column stays where they are while the text grows.
        await body.hover();
        await page.page.mouse.wheel(0, -400);
        await expect.poll(async () => (await metrics()).top).toBeLessThan((await metrics()).height);
        const reading = (await metrics()).top;
        const grownFrom = (await metrics()).height;
        await expect.poll(async () => (await metrics()).height).toBeGreaterThan(grownFrom + 50);
        expect(Math.abs((await metrics()).top - reading)).toBeLessThan(2);
        // The page itself does not scroll: the compare keeps to the window.
        const overflow = await page.page.evaluate(
          'document.scrollingElement.scrollHeight - window.innerHeight',
        );
        expect(overflow).toBeLessThanOrEqual(0);
        for (const i of [0, 1, 2])
          await articles
            .nth(i)
            .getByRole('button', { name: 'Stop' })
            .click({ timeout: 2000 })
            .catch(() => undefined);
      } finally {
        await paced.close();
      }
    },
  );

  it('keeps all of a new chat’s welcome reachable above the compare form at 900 px', async () => {
    const page = await suite.connected(ChatPage);
    await page.page.setViewportSize({ width: 900, height: 650 });
    await page.page.getByRole('button', { name: 'Compare models…' }).click();
    const form = page.page.getByRole('form', { name: 'Compare models' });
    await form.getByLabel('Model of column 1').waitFor();
    await form.getByRole('button', { name: 'Add a column' }).click();
    const suggestions = page.page.getByRole('list', { name: 'Suggestions' }).getByRole('button');
    await expect.poll(() => suggestions.count()).toBeGreaterThan(0);
    const formBox = (await form.boundingBox())!;
    // Each part of the welcome (its heading first, then the suggestions) scrolls wholly into view
    // above the form: none is cut off at the top, out of reach, or under the form.
    const parts = page.page.locator('.chat-welcome > *:not([aria-hidden="true"])');
    const welcome = (await page.page.locator('.chat-welcome').boundingBox())!;
    for (const part of await parts.all()) {
      await part.scrollIntoViewIfNeeded();
      expect((await part.boundingBox())!.y).toBeGreaterThanOrEqual(welcome.y - 1);
    }
    for (const suggestion of await suggestions.all()) {
      await suggestion.scrollIntoViewIfNeeded();
      const box = (await suggestion.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(welcome.y - 1);
      expect(box.y + box.height).toBeLessThanOrEqual(formBox.y + 1);
    }
    for (const suggestion of await suggestions.all()) {
      await suggestion.scrollIntoViewIfNeeded();
      const box = (await suggestion.boundingBox())!;
      const hit = await page.page.evaluate(
        ([x, y]) => {
          const doc = (globalThis as unknown as { document: Doc }).document;
          return doc.elementFromPoint(x!, y!)?.closest('.chat-suggestion') !== null;
        },
        [box.x + box.width / 2, box.y + box.height / 2],
      );
      expect(hit).toBe(true);
    }
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
