/**
 * Everyday polish, each at 900×650 and 1280×800: the token count shown once, "New chat" putting
 * the focus in the message box, a reply cut off mid-word still reading as text, display math
 * shown whole, the knowledge X-ray in a bounded box of its own, an unfinished compare explained,
 * the default model shown on Models, and the first-run screen's demo button and Save in reach.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';
import { KnowledgePage } from './pages/knowledge-page';
import { ModelsPage } from './pages/models-page';
import { heldChat } from './pages/held-chat';

const suite = e2eSuite({ connectionName: 'Polish relay', scratch: true });

/** An element as the page-side code sees it (the tests compile without the DOM library). */
interface Boxed {
  className: string;
  getBoundingClientRect(): { top: number; bottom: number; width: number; height: number };
}

/** Whether the element has the focus (page-side). */
const isActive = (node: unknown) =>
  node ===
  (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement;

const SIZES = [
  { width: 900, height: 650 },
  { width: 1280, height: 800 },
] as const;

describe.each(SIZES)('at $width×$height', (size) => {
  it('shows the conversation’s token count once', async () => {
    const chat = await suite.connected(ChatPage);
    await chat.page.setViewportSize(size);
    await chat.send('Count my tokens');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await expect.poll(() => chat.conversationUsage().textContent()).toMatch(/\d+ tokens/);
    // Outside the messages (each says its own), the conversation's total is said once.
    const totals = chat.page.locator('.chat-main').getByText(/^\d[\d,]* tokens?\b/);
    await expect(totals.count()).resolves.toBe(1);
  });

  it('puts the focus in the message box when "New chat" is pressed', async () => {
    const chat = await suite.connected(ChatPage);
    await chat.page.setViewportSize(size);
    await chat.send('A first message');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await chat.sidebar.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => chat.isFocused(chat.message)).toBe(true);
    await expect(chat.replies().count()).resolves.toBe(0);
  });

  it('shows a reply stopped mid-emphasis or mid-code as text, without its open markers', async () => {
    const relay = heldChat();
    const chat = await suite.connected(ChatPage, { fetch: relay.fetch });
    await chat.page.setViewportSize(size);
    const reply = relay.hold('Which word is longest?');
    await chat.send('Which word is longest?');
    await reply.asked;
    reply.push('The **Longest word is `anti');
    await expect.poll(() => chat.replyText()).toContain('anti');
    await chat.page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(chat.finishedReplyStatus()).resolves.toBe('interrupted');
    const text = await chat.lastReply().locator('.markdown').textContent();
    expect(text).toContain('The Longest word is anti');
    expect(text).not.toMatch(/[*`]/);
  });

  it('shows display math whole, nothing cut off at its top or bottom', async () => {
    const relay = heldChat();
    relay.script(
      'Show me a tall formula',
      'Here:\n\n$$\n\\sum_{i=1}^{n} \\frac{\\sqrt{a_i^{2^k}}}{\\prod_{j=1}^{m} b_j} = \\int_0^1 \\frac{x^2}{\\sqrt{1-x^2}} \\,dx\n$$\n\nDone.',
    );
    const chat = await suite.connected(ChatPage, { fetch: relay.fetch });
    await chat.page.setViewportSize(size);
    await chat.send('Show me a tall formula');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    const display = chat.lastReply().locator('.katex-display').first();
    await display.waitFor();
    const clipped = await display.evaluate((node: unknown) => {
      const root = node as Boxed & { querySelectorAll(selector: string): ArrayLike<Boxed> };
      const box = root.getBoundingClientRect();
      const out: string[] = [];
      for (const child of Array.from(root.querySelectorAll('.katex-html *'))) {
        const r = child.getBoundingClientRect();
        if (r.height === 0 || r.width === 0) continue;
        if (r.top < box.top - 0.5) out.push(`top ${box.top - r.top}px: ${child.className}`);
        if (r.bottom > box.bottom + 0.5)
          out.push(`bottom ${r.bottom - box.bottom}px: ${child.className}`);
      }
      return out;
    });
    expect(clipped).toEqual([]);
  });

  it(
    'says the compare is unfinished when a message is sent before choosing a reply',
    { timeout: 60_000 },
    async () => {
      const chat = await suite.connected(ChatPage);
      await chat.page.setViewportSize(size);
      await chat.page.getByRole('button', { name: 'Compare models…' }).click();
      const form = chat.page.getByRole('form', { name: 'Compare models' });
      await form.getByLabel('Model of column 1').selectOption('demo-chat');
      await form.getByLabel('Model of column 2').selectOption('demo-chat-mini');
      await form.getByLabel('Message to compare').fill('Which is faster?');
      await form.getByRole('button', { name: 'Send to all' }).click();
      const columns = chat.page.getByRole('region', { name: 'Replies side by side' });
      const column = columns.getByRole('article').first();
      await expect
        .poll(() => column.getAttribute('data-status'), { timeout: 20_000 })
        .toBe('complete');
      await expect
        .poll(() => columns.getByRole('article').last().getAttribute('data-status'), {
          timeout: 20_000,
        })
        .toBe('complete');

      // Sending before a reply is chosen says what is unfinished, at the message box, and sends
      // nothing: no refusal titled "Check the form".
      await chat.send('And then?');
      const hint = chat.page.locator('.chat-composer-hint');
      await expect
        .poll(() => hint.textContent())
        .toBe('Choose the reply to go on with first: “Continue with this one” under its column.');
      await expect(chat.page.locator('.chat-main .notice').count()).resolves.toBe(0);
      await expect(chat.page.getByText('Check the form').count()).resolves.toBe(0);
      await expect(chat.message.inputValue()).resolves.toBe('And then?');
    },
  );

  it('shows on Models the chat model a new chat uses, before any is chosen', async () => {
    const { page } = await suite.connect();
    await page.setViewportSize(size);
    const chat = new ChatPage(page);
    await chat.open();
    await chat.ready();
    const used = await chat.modelName();
    const models = new ModelsPage(page);
    await models.open();
    await models.waitForModels();
    await expect(models.row(used).getByRole('radio').isChecked()).resolves.toBe(true);
    await expect(models.group('Chat').locator('.model-group-hint').textContent()).resolves.toBe(
      `Default: ${used}`,
    );
  });

  it('puts the demo button early in the first-run tab order, and Save in the window', async () => {
    const app = await suite.openApp();
    await app.page.setViewportSize(size);
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    const save = app.page.getByRole('button', { name: 'Save', exact: true });
    await expect(save.isVisible()).resolves.toBe(true);
    const bottom = await save.evaluate((node: unknown) => {
      return (node as Boxed).getBoundingClientRect().bottom;
    });
    expect(bottom).toBeLessThanOrEqual(size.height);
    // The form's first field has the focus; the demo button comes just before it.
    await expect.poll(() => connect.form.name.evaluate(isActive)).toBe(true);
    await app.page.keyboard.press('Shift+Tab');
    await expect(connect.tryDemo.evaluate(isActive)).resolves.toBe(true);
  });
});

describe('the retrieval X-ray', () => {
  it('stays in a bounded box that scrolls, with a caption of its own', async () => {
    const folder = join(suite.scratch, 'samples');
    await cp(join(import.meta.dirname, '../../resources/knowledge-samples'), folder, {
      recursive: true,
    });
    const dialogs = new ScriptedDialogs();
    dialogs.folders.push(folder);
    const knowledge = await suite.connected(KnowledgePage, { dialogs });
    const page = knowledge.page;
    await page.setViewportSize({ width: 900, height: 650 });
    await knowledge.create('Samples');
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');
    const chat = new ChatPage(page);
    await chat.open();
    await chat.ready();
    await page.getByRole('button', { name: 'Knowledge bases', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Knowledge bases' })
      .getByRole('checkbox', { name: /^Samples/ })
      .check();
    await page.keyboard.press('Escape');
    await chat.send('When does the ferry leave the pier?');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    const reply = chat.lastReply();
    await reply.getByRole('button', { name: 'Sources', exact: true }).click();
    const xray = reply.getByRole('region', { name: 'Retrieval X-ray' });
    const map = xray.getByRole('region', { name: 'Map of the question and the chunks' });
    await map.locator('canvas').first().waitFor();
    const box = await map.evaluate((node: unknown) => {
      const el = node as Boxed & { scrollHeight: number; clientHeight: number };
      return {
        height: el.getBoundingClientRect().height,
        scrolls: el.scrollHeight > el.clientHeight,
      };
    });
    expect(box.height).toBeLessThanOrEqual(650 * 0.6);
    expect(box.scrolls).toBe(true);
    await expect(map.getAttribute('tabindex')).resolves.toBe('0');
    const caption = await xray.textContent();
    expect(caption).not.toContain('vectors table');
    expect(caption).toContain('The question and the chunks found for it');
  }, 60_000);
});
