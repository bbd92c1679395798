/**
 * The conversation view while replies arrive: it follows the conversation (a new message, a reply
 * growing) until the person scrolls away; sending is simply unavailable while a reply streams;
 * half-written markdown never shows its markers; a stopped reply can be continued; the header
 * holds the model and the chat options; and an empty chat offers suggestions.
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { startDemoRelay } from '../../electron/demo-relay/index';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { heldChat, longReply, type HeldChat } from './pages/held-chat';

const suite = e2eSuite({ connectionName: 'Chat relay' });
const SENDER = { url: 'app://relay/', isMainFrame: true, webContentsId: 1 };

async function chatWith(relay: HeldChat, viewport = { width: 1280, height: 800 }) {
  const page = await suite.connected(ChatPage, { fetch: relay.fetch });
  await page.page.setViewportSize(viewport);
  return page;
}

describe('chat view', () => {
  it('follows a new message and its growing reply, and holds still once the person scrolls up', async () => {
    const relay = heldChat();
    relay.script('Tell me a long story', longReply(40));
    const page = await chatWith(relay, { width: 900, height: 650 });
    await page.send('Tell me a long story');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');

    const reply = relay.hold('And now a second one');
    await page.send('And now a second one');
    await reply.asked;
    const mine = page.page
      .locator('article.chat-message[data-role="user"]')
      .filter({ hasText: 'And now a second one' });
    // Sending scrolls to the message just sent.
    await expect.poll(() => page.isInView(mine), { timeout: 5000 }).toBe(true);

    // The reply grows (the last row gets taller, no row is added): the view follows it.
    for (let i = 1; i <= 6; i++) {
      reply.push(`Line ${i} of the second reply, long enough to wrap on a narrow window.\n\n`);
      await expect.poll(() => page.lastReply().textContent()).toContain(`Line ${i} of`);
      await expect.poll(() => page.isEndInView(page.lastReply()), { timeout: 5000 }).toBe(true);
    }
    await expect(page.jumpToLatest().count()).resolves.toBe(0);

    // Scrolling up stops the following: the place holds while the reply grows, and a button
    // offers the way back.
    await page.messageList().hover();
    await page.page.mouse.wheel(0, -600);
    await expect.poll(() => page.isEndInView(page.lastReply())).toBe(false);
    const held = await page.scrollTop();
    for (let i = 7; i <= 9; i++) {
      reply.push(`Line ${i} of the second reply, arriving while the person reads above.\n\n`);
      await expect.poll(() => page.lastReply().textContent()).toContain(`Line ${i} of`);
    }
    await page.jumpToLatest().waitFor();
    expect(Math.abs((await page.scrollTop()) - held)).toBeLessThanOrEqual(2);

    await page.jumpToLatest().click();
    await expect.poll(() => page.isEndInView(page.lastReply()), { timeout: 5000 }).toBe(true);
    reply.end();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
  });

  it('Enter while a reply streams sends nothing and says why, quietly', async () => {
    const relay = heldChat();
    const page = await chatWith(relay);
    const reply = relay.hold('Take your time');
    await page.send('Take your time');
    await reply.asked;
    reply.push('Thinking it over');

    await page.message.fill('A follow-up question');
    await page.message.press('Enter');
    await page.composerHint().waitFor();
    await expect(page.composerHint().textContent()).resolves.toContain(
      'Wait for the reply, or press Esc to stop',
    );
    // No error, nothing sent, the text kept, and one Stop button (Send became Stop).
    await expect(page.page.locator('.chat-main [role="alert"]').count()).resolves.toBe(0);
    const sends = suite.app.messages.filter((m) => m.channel === 'chat:send');
    expect(sends).toHaveLength(1);
    await expect(page.message.inputValue()).resolves.toBe('A follow-up question');
    await expect(
      page.page.getByRole('button', { name: 'Stop', exact: true }).count(),
    ).resolves.toBe(1);

    reply.end();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect.poll(() => page.composerHint().count()).toBe(0);
  });

  it('never shows half-written markdown: an open emphasis or code fence waits for its end', async () => {
    const relay = heldChat();
    const page = await chatWith(relay);
    const reply = relay.hold('Which word is longest?');
    await page.send('Which word is longest?');
    await reply.asked;
    reply.push('The **Longest');
    await expect.poll(() => page.replyText()).toContain('Longest');
    await expect(page.replyText()).resolves.not.toContain('*');
    reply.push(' word** is here.\n\n```ts\nconst longest = "');
    await expect.poll(() => page.replyText()).toContain('const longest');
    await expect(page.replyText()).resolves.not.toContain('`');
    await expect(page.lastReply().locator('strong').textContent()).resolves.toBe('Longest word');
    // A caret marks the end of the text while it streams.
    await expect(page.lastReply().locator('.markdown[data-streaming]').count()).resolves.toBe(1);
    reply.push('antidisestablishmentarianism";\n```\n');
    reply.end();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(page.lastReply().locator('pre').textContent()).resolves.toContain(
      'const longest = "antidisestablishmentarianism";',
    );
    await expect(page.lastReply().locator('.markdown[data-streaming]').count()).resolves.toBe(0);
  });

  it("a long reply at 2,000 tokens a second, paced by the page's frames, is shown whole", async () => {
    // A relay of its own for the chat replies: 3,000 tokens at 2,000 a second (1.5 s).
    const fast = await startDemoRelay({
      keys: [suite.key],
      tokensPerSecond: 2000,
      replyTokens: 3000,
      ratePerMinute: 1000,
    });
    const viaFast: FetchLike = (url, init) =>
      fetch(url.endsWith('/v1/chat/completions') ? `${fast.url}/v1/chat/completions` : url, init);
    let streamedMs = 0;
    try {
      const page = await suite.connected(ChatPage, { fetch: viaFast });
      // Whether, while the reply streamed, a full group of its blocks was left to be skipped
      // out of view, and whether the last, filling one ever was.
      await page.page.evaluate(`(() => {
        const seen = (globalThis.__groupsSkippable = { full: false, filling: false });
        new MutationObserver(() => {
          const groups = document.querySelectorAll('.markdown[data-streaming] > .md-group');
          groups.forEach((group, index) => {
            if (getComputedStyle(group).contentVisibility !== 'auto') return;
            if (index < groups.length - 1) seen.full = true;
            else seen.filling = true;
          });
        }).observe(document.body, { childList: true, subtree: true });
      })()`);
      const started = Date.now();
      await page.send('Stream a long reply, fast');
      await expect(page.finishedReplyStatus()).resolves.toBe('complete');
      streamedMs = Date.now() - started;
      await expect(page.page.evaluate('globalThis.__groupsSkippable')).resolves.toEqual({
        full: true,
        filling: false,
      });
      // Finished, nothing is skipped, and the space between two groups is the space between two
      // paragraphs inside one: a group's edges change nothing in the text's layout.
      const gaps = (await page.page.evaluate(`(() => {
        const groups = [...document.querySelectorAll('.markdown > .md-group')];
        const skipped = groups.filter((g) => getComputedStyle(g).contentVisibility === 'auto');
        const [first, second] = groups;
        const last = first.lastElementChild.getBoundingClientRect();
        const beforeLast = first.lastElementChild.previousElementSibling.getBoundingClientRect();
        return {
          groups: groups.length,
          skipped: skipped.length,
          inside: last.top - beforeLast.bottom,
          across: second.firstElementChild.getBoundingClientRect().top - last.bottom,
        };
      })()`)) as { groups: number; skipped: number; inside: number; across: number };
      expect(gaps.groups).toBeGreaterThan(1);
      expect(gaps.skipped).toBe(0);
      expect(Math.abs(gaps.across - gaps.inside)).toBeLessThan(0.5);
    } finally {
      await fast.close();
    }
    const { messages } = suite.app;
    const finished = messages.find(
      (m) => m.direction === 'event' && m.channel === 'chat:reply-finished',
    );
    const content = (finished?.payload as { content?: string } | undefined)?.content ?? '';
    // The relay's padding: numbered plain paragraphs, shown exactly as written, to the last word.
    const prose = content.slice(content.indexOf('\n\nParagraph 1 '));
    expect(prose.length).toBeGreaterThan(10_000);
    const shown = (await new ChatPage(suite.app.page).replyText()).replace(/\s+/g, '');
    expect(shown.endsWith(prose.replace(/\s+/g, ''))).toBe(true);

    // The page told main of its frames, one way (nothing answered them), and main sent the
    // deltas on them: after the first, each one follows a frame of the page's, or main's wait
    // for a silent page (250 ms) ran out.
    const frames = messages.filter((m) => m.channel === 'chat:frame-ready');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((m) => m.direction === 'send')).toBe(true);
    let unpaced = 0;
    let sinceFrame = true;
    for (const m of messages) {
      if (m.channel === 'chat:frame-ready') sinceFrame = true;
      else if (m.channel === 'chat:delta') {
        if (!sinceFrame) unpaced++;
        sinceFrame = false;
      }
    }
    const deltas = messages.filter((m) => m.channel === 'chat:delta').length;
    expect(deltas).toBeGreaterThan(5);
    // Unpaced: the few before the page's first frame reached main, and one per 250 ms that the
    // page (starved on a loaded machine) said nothing.
    expect(unpaced).toBeLessThanOrEqual(4 + Math.ceil(streamedMs / 250));
  });

  it('a stopped reply ends with a Stopped line; Continue grows it from there, saved whole', async () => {
    const relay = heldChat();
    const page = await chatWith(relay);
    const first = relay.hold('Write me a short poem');
    await page.send('Write me a short poem');
    await first.asked;
    const partial = 'Roses are red,\n\nviolets';
    first.push(partial);
    await expect.poll(() => page.replyText()).toContain('violets');
    await page.page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('interrupted');
    const stopped = page.lastReply().getByRole('group', { name: 'Reply stopped' });
    await expect(stopped.textContent()).resolves.toContain('Stopped');
    await expect(stopped.getByRole('button').allTextContents()).resolves.toEqual([
      'Continue',
      'Regenerate',
    ]);

    // Continue asks with the reply so far as the last message, and the rest goes on after it.
    const rest = relay.hold(partial);
    await stopped.getByRole('button', { name: 'Continue' }).click();
    await rest.asked;
    expect(relay.requests.at(-1)?.slice(-2)).toEqual([
      { role: 'user', content: 'Write me a short poem' },
      { role: 'assistant', content: partial },
    ]);
    await expect.poll(() => page.lastReply().getAttribute('data-status')).toBe('streaming');
    await expect(page.replyText()).resolves.toContain('violets');
    rest.push(' are blue.');
    await expect.poll(() => page.replyText()).toContain('violets are blue.');
    rest.end();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(page.replies().count()).resolves.toBe(1);
    await expect(page.lastReply().locator('.chat-stopped').count()).resolves.toBe(0);

    // Saved whole: the reopened conversation shows one reply with all of it.
    await page.page.reload();
    await page.lastReply().waitFor();
    await expect(page.lastReply().getAttribute('data-status')).resolves.toBe('complete');
    await expect(page.replyText()).resolves.toMatch(/Roses are red,\s*violets are blue\./);
    await expect(page.replies().count()).resolves.toBe(1);
  });

  it('the header shows the model as a chip that changes it; Chat options hold Stream and Enter sends', async () => {
    const relay = heldChat();
    const page = await chatWith(relay, { width: 900, height: 650 });
    const header = page.page.locator('.chat-header');
    await expect.poll(() => page.modelName()).toMatch(/^demo-chat/);
    // The model choice is the chip: another model, kept for the conversation its first message
    // makes.
    const other = (await page.modelName()) === 'demo-chat-mini' ? 'demo-chat' : 'demo-chat-mini';
    await page.chooseModel(other);
    relay.script('Which model is this?', 'This one.');
    await page.send('Which model is this?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect
      .poll(async () => {
        const [open] = await suite.app.services.handlers.listConversations(undefined, SENDER);
        return open?.model;
      })
      .toBe(other);
    await expect(header.locator('.chat-model-chip').isVisible()).resolves.toBe(true);

    // Chat options, by keyboard: the panel takes the focus, Escape closes it and gives it back.
    const button = header.getByRole('button', { name: 'Chat options', exact: true });
    await button.focus();
    await page.page.keyboard.press('Enter');
    const panel = page.page.getByRole('dialog', { name: 'Chat options' });
    await panel.waitFor();
    const enterSends = panel.getByLabel('Enter sends', { exact: true });
    await expect(page.isFocused(panel.getByLabel('Stream', { exact: true }))).resolves.toBe(true);
    await page.page.keyboard.press('Tab');
    await page.page.keyboard.press('Space');
    await expect(enterSends.isChecked()).resolves.toBe(false);
    await page.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await expect(page.isFocused(button)).resolves.toBe(true);
    await expect(button.getAttribute('aria-expanded')).resolves.toBe('false');

    // Enter sends off: Enter breaks the line, Ctrl+Enter sends.
    await page.message.fill('Two');
    await page.message.press('Enter');
    await page.message.pressSequentially('lines');
    await expect(page.message.inputValue()).resolves.toBe('Two\nlines');
    await page.message.press('Control+Enter');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(
      page.page
        .locator('article.chat-message[data-role="user"] .chat-user-text')
        .last()
        .textContent(),
    ).resolves.toContain('Two');
    // A click outside closes the panel too; the choice is kept.
    await button.click();
    await panel.waitFor();
    await expect(enterSends.isChecked()).resolves.toBe(false);
    await page.message.click();
    await panel.waitFor({ state: 'detached' });
    await page.setChatOption('Enter sends', true);
  });

  it('with no conversation, offers three suggestions that fill the message box of the new chat', async () => {
    const page = await suite.connected(ChatPage, { ready: false });
    const welcome = page.page.getByRole('region', { name: 'Start a conversation' });
    await expect.poll(() => welcome.textContent()).toMatch(/Replies come from demo-chat/);
    const suggestions = welcome.getByRole('list', { name: 'Suggestions' }).getByRole('button');
    await expect(suggestions.count()).resolves.toBe(3);
    const prompt = await suggestions.nth(1).locator('.chat-suggestion-prompt').textContent();
    await suggestions.nth(1).click();
    // The suggestion in the message box, ready to edit or send; nothing is made until it is sent.
    await expect.poll(() => page.message.inputValue()).toBe(prompt);
    await expect.poll(() => page.isFocused(page.message)).toBe(true);
    await expect(page.sidebar.locator('.chat-conversation').count()).resolves.toBe(0);
    await page.message.press('Enter');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(welcome.count()).resolves.toBe(0);
    await expect.poll(() => page.sidebar.locator('.chat-conversation').count()).toBe(1);
    await expect(
      page.page
        .locator('article.chat-message[data-role="user"] .chat-user-text')
        .last()
        .textContent(),
    ).resolves.toBe(prompt);
  });

  it('when the relay in use offers no chat model, says so and offers the demo relay', async () => {
    // The test relay lists only an embedding model; the demo relay, started here, is left alone.
    const fetchLike: FetchLike = async (url, init) => {
      if (!url.startsWith(suite.relay.url) || !url.endsWith('/v1/models')) return fetch(url, init);
      return Response.json({
        object: 'list',
        data: [{ id: 'text-embed-small', owned_by: 'acme' }],
      });
    };
    const page = await suite.connected(ChatPage, { ready: false, fetch: fetchLike });
    const welcome = page.page.getByRole('region', { name: 'Start a conversation' });
    const problem = welcome.getByRole('alert');
    await expect
      .poll(() => problem.textContent())
      .toContain('Chat relay: This relay offers no chat model.');
    await expect(welcome.getByRole('list', { name: 'Suggestions' }).count()).resolves.toBe(0);
    await welcome.getByRole('button', { name: 'Try the demo relay' }).click();
    await expect
      .poll(() => welcome.textContent(), { timeout: 10_000 })
      .toMatch(/Replies come from demo-chat on Demo relay/);
    await expect(problem.count()).resolves.toBe(0);
    await expect(
      welcome.getByRole('list', { name: 'Suggestions' }).getByRole('button').count(),
    ).resolves.toBe(3);
  });

  it("marks pinned conversations with the app's own icon, not an emoji", async () => {
    const relay = heldChat();
    const page = await chatWith(relay);
    await page.send('Pin me');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.sidebar.getByText('Pin me').first().waitFor();
    await page.conversationAction('Pin me', 'Pin');
    await page.sidebar.locator('.chat-pin-mark svg').waitFor();
    await expect(page.sidebar.textContent()).resolves.not.toMatch(/\p{Extended_Pictographic}/u);
  });
});
