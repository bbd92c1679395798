/**
 * Reading and acting on messages, in a narrow and a wide window: a table keeps its words whole and
 * scrolls sideways in its own box; a message's actions are quiet icons that show on hover or
 * focus and stay reachable by keyboard; Edit keeps the typing where it goes, with the same Enter
 * rule as the message box (the compare box too).
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { heldChat, type HeldChat } from './pages/held-chat';
import { brokenWords, sidewaysFit } from './pages/layout';

const suite = e2eSuite({ connectionName: 'Reading relay' });

const SIZES = [
  { width: 900, height: 650 },
  { width: 1280, height: 800 },
] as const;

/** A comparison too wide for any window: long words, numbers with decimals and separators. */
const TABLE_PROMPT = 'Compare the vector stores in a table';
const TABLE_REPLY = [
  'Here is how they compare:',
  '',
  '| Store | Memory | Recall | Latency | Index | Updates | Filtering | Replication | Licence |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  '| pgvector | 12,480 MB | 0.95 | 3.75 ms | HNSW | incremental | metadata-aware | streaming | PostgreSQL |',
  '| Qdrant | 9,216 MB | 0.97 | 2.10 ms | HNSW | incremental | payload-indexed | Raft-based | Apache-2.0 |',
  '| Milvus | 15,872 MB | 0.96 | 4.05 ms | IVF_PQ | segment-sealed | expression-based | Kafka-backed | Apache-2.0 |',
  '',
  'Pick by what you already run.',
].join('\n');

async function chatWith(relay: HeldChat, size: { width: number; height: number }) {
  const page = await suite.connected(ChatPage, { fetch: relay.fetch });
  await page.page.setViewportSize(size);
  return page;
}

/** The element that scrolls a reply's table sideways: the table or the nearest box around it. */
async function tableScroller(page: ChatPage): Promise<string> {
  return page.page.evaluate(() => {
    interface El {
      tagName: string;
      parentElement: El | null;
      setAttribute(name: string, value: string): void;
      closest(selector: string): El | null;
    }
    const { document, getComputedStyle } = globalThis as unknown as {
      document: { querySelector(s: string): El | null };
      getComputedStyle(el: El): { overflowX: string };
    };
    let element = document.querySelector('article.chat-message[data-role="assistant"] table');
    while (element && !['auto', 'scroll'].includes(getComputedStyle(element).overflowX))
      element = element.parentElement;
    if (!element) return 'none';
    element.setAttribute('data-test-scroller', '');
    return element.closest('.markdown') ? 'inside the reply' : 'outside the reply';
  });
}

describe.each(SIZES)('messages at $width×$height', (size) => {
  it('a wide table keeps whole words and numbers, and scrolls sideways in its own box', async () => {
    const relay = heldChat();
    relay.script(TABLE_PROMPT, TABLE_REPLY);
    const page = await chatWith(relay, size);
    await page.send(TABLE_PROMPT);
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const reply = page.lastReply();
    await reply.locator('table').waitFor();

    await expect(brokenWords(page.page, '.markdown th, .markdown td')).resolves.toEqual([]);
    // Too wide for the reply: the table's own box scrolls, not the conversation.
    await expect(tableScroller(page)).resolves.toBe('inside the reply');
    const box = await sidewaysFit(page.page, '[data-test-scroller]');
    expect(box.scrollWidth).toBeGreaterThan(box.clientWidth);
    const message = await sidewaysFit(page.page, 'article.chat-message[data-role="assistant"]');
    expect(box.right).toBeLessThanOrEqual(message.right + 1);
    const list = await sidewaysFit(page.page, '.chat-messages');
    expect(list.scrollWidth).toBeLessThanOrEqual(list.clientWidth + 1);
    // The box takes the keyboard (arrows scroll it), and says what it holds.
    const scroller = page.page.locator('[data-test-scroller]');
    await scroller.focus();
    await expect(page.isFocused(scroller)).resolves.toBe(true);
    await page.page.keyboard.press('ArrowRight');
    await expect
      .poll(() => scroller.evaluate((el) => (el as unknown as { scrollLeft: number }).scrollLeft))
      .toBeGreaterThan(0);
  });

  it("a message's actions are quiet icons that show on hover and on focus", async () => {
    const page = await chatWith(heldChat(), size);
    await page.send('Where do rivers begin?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.send('And where do they end?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');

    const question = page.page.locator('article.chat-message[data-role="user"]').first();
    const copy = question.getByRole('button', { name: 'Copy', exact: true });
    const edit = question.getByRole('button', { name: 'Edit', exact: true });
    const branch = question.getByRole('button', { name: 'Branch from here', exact: true });
    // At rest (the pointer and the focus elsewhere): not shown.
    await page.message.focus();
    await page.page.mouse.move(1, size.height - 1);
    for (const button of [copy, edit, branch]) {
      await expect.poll(() => shown(button)).toBe(false);
      // An icon with a name and a tooltip, no word and no border.
      await expect(button.textContent()).resolves.toBe('');
      await expect(button.getAttribute('title')).resolves.toBeTruthy();
      await expect(button.locator('svg').count()).resolves.toBe(1);
      await expect(
        button.evaluate(
          (el) =>
            (
              globalThis as unknown as {
                getComputedStyle(e: unknown): { borderTopStyle: string; borderTopWidth: string };
              }
            ).getComputedStyle(el).borderTopWidth,
        ),
      ).resolves.toBe('0px');
    }
    // On hover: shown.
    await question.hover();
    await expect.poll(() => shown(copy)).toBe(true);
    await expect.poll(() => shown(edit)).toBe(true);
    await page.page.mouse.move(1, size.height - 1);
    await expect.poll(() => shown(copy)).toBe(false);

    // By keyboard: Shift+Tab back from the message box reaches the actions, which show.
    await page.message.focus();
    let reached = false;
    for (let press = 0; press < 40 && !reached; press += 1) {
      await page.page.keyboard.press('Shift+Tab');
      reached = await page.isFocused(copy);
    }
    expect(reached).toBe(true);
    await expect.poll(() => shown(copy)).toBe(true);
    await expect.poll(() => shown(branch)).toBe(true);

    // The version switcher: a comfortable target.
    await page.lastReply().hover();
    await page.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const versions = page.lastReply().getByRole('group', { name: 'Version 2 of 2' });
    for (const name of ['Previous version', 'Next version']) {
      const target = await versions.getByRole('button', { name }).boundingBox();
      expect(target?.width).toBeGreaterThanOrEqual(24);
      expect(target?.height).toBeGreaterThanOrEqual(24);
    }
  });

  it('Edit puts the cursor at the end of the text, keeps Ctrl+A inside, and sends with Enter', async () => {
    const page = await chatWith(heldChat(), size);
    await page.send('Where do rivers begin?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    // The question last sent, as stored (its row may be scrolled out of the list).
    const lastQuestion = async () =>
      (
        await suite.app.services.db.all<{ content: string }>(
          "SELECT content FROM chat_messages WHERE role = 'user' ORDER BY created_at DESC, rowid DESC LIMIT 1",
        )
      )[0]?.content;

    const question = page.page.locator('article.chat-message[data-role="user"]').last();
    await question.hover();
    await question.getByRole('button', { name: 'Edit', exact: true }).click();
    const box = question.getByLabel('Edit your message');
    await expect.poll(() => page.isFocused(box)).toBe(true);
    await expect(selection(box)).resolves.toEqual({ start: 22, end: 22, length: 22 });
    // Typing goes on where the text ends.
    await page.page.keyboard.type(' And lakes?');
    await expect(box.inputValue()).resolves.toBe('Where do rivers begin? And lakes?');
    // Ctrl+A selects the text of the box, not the window.
    await page.page.keyboard.press('Control+A');
    await expect(selection(box)).resolves.toEqual({ start: 0, end: 33, length: 33 });
    await expect(page.isFocused(box)).resolves.toBe(true);
    await page.page.keyboard.press('End');
    // Shift+Enter breaks the line; Enter sends, as in the message box.
    await page.page.keyboard.press('Shift+Enter');
    await page.page.keyboard.type('Briefly.');
    await expect(box.inputValue()).resolves.toBe('Where do rivers begin? And lakes?\nBriefly.');
    await page.page.keyboard.press('Enter');
    await expect.poll(lastQuestion).toBe('Where do rivers begin? And lakes?\nBriefly.');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    // The edit is a second version of the question.
    const questions = page.page.locator('article.chat-message[data-role="user"]');
    await page.scrollToTop();
    await questions.last().getByRole('group', { name: 'Version 2 of 2' }).waitFor();

    // With "Enter sends" off, Enter breaks the line there too, and Ctrl+Enter sends.
    await page.setChatOption('Enter sends', false);
    const again = page.page.locator('article.chat-message[data-role="user"]').last();
    await again.hover();
    await again.getByRole('button', { name: 'Edit', exact: true }).click();
    const second = again.getByLabel('Edit your message');
    await expect.poll(() => page.isFocused(second)).toBe(true);
    await page.page.keyboard.press('Enter');
    await page.page.keyboard.type('Thanks.');
    await expect(second.inputValue()).resolves.toBe(
      'Where do rivers begin? And lakes?\nBriefly.\nThanks.',
    );
    await page.page.keyboard.press('Control+Enter');
    await expect.poll(lastQuestion).toBe('Where do rivers begin? And lakes?\nBriefly.\nThanks.');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.scrollToTop();
    await questions.last().getByRole('group', { name: 'Version 3 of 3' }).waitFor();
    await page.setChatOption('Enter sends', true);
  });

  it('the compare box sends with Enter, as the message box does', async () => {
    const page = await chatWith(heldChat(), size);
    await page.page.getByRole('button', { name: 'Compare models…' }).click();
    const form = page.page.getByRole('form', { name: 'Compare models' });
    const text = form.getByLabel('Message to compare');
    await text.fill('Where do rivers begin?');
    await text.press('Shift+Enter');
    await page.page.keyboard.type('Briefly.');
    await expect(text.inputValue()).resolves.toBe('Where do rivers begin?\nBriefly.');
    await text.press('Enter');
    const columns = page.page
      .getByRole('region', { name: 'Replies side by side' })
      .getByRole('article');
    await expect.poll(() => columns.count()).toBe(2);
  });
});

/** Whether the element shows: not hidden, not transparent. */
function shown(element: Locator): Promise<boolean> {
  return element.evaluate((el) =>
    (el as unknown as { checkVisibility(o: object): boolean }).checkVisibility({
      opacityProperty: true,
      visibilityProperty: true,
    }),
  );
}

/** The selection in a text box, and the length of its text. */
function selection(box: Locator): Promise<{ start: number; end: number; length: number }> {
  return box.evaluate((el) => {
    const area = el as unknown as { selectionStart: number; selectionEnd: number; value: string };
    return { start: area.selectionStart, end: area.selectionEnd, length: area.value.length };
  });
}
