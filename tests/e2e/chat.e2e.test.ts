/**
 * Chat against the demo relay: send and stream, stop, regenerate, edit and resend, errors on the
 * reply with their remedy, and hostile markdown that shows as text and runs nothing.
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { e2eSuite, type ConnectedOptions } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Chat relay' });
const chat = (options: ConnectedOptions = {}) => suite.connected(ChatPage, options);

/** Node's fetch, except that chat completions stream `reply` as the relay would. */
function replyingWith(reply: string): FetchLike {
  return (url, init) => {
    if (!url.endsWith('/v1/chat/completions')) return fetch(url, init);
    const chunks = reply.match(/[\s\S]{1,20}/g) ?? [];
    const events = chunks.map(
      (content) =>
        `data: ${JSON.stringify({
          id: 'chatcmpl-hostile',
          object: 'chat.completion.chunk',
          created: 0,
          model: 'demo-chat',
          choices: [{ index: 0, delta: { content }, finish_reason: null }],
        })}\n\n`,
    );
    events.push(
      `data: ${JSON.stringify({
        id: 'chatcmpl-hostile',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'demo-chat',
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      })}\n\n`,
      'data: [DONE]\n\n',
    );
    return Promise.resolve(
      new Response(events.join(''), {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      }),
    );
  };
}

describe('chat', () => {
  it('sends a message and streams the markdown reply, with its usage', async () => {
    const page = await chat();
    await page.send('Tell me about streaming relays');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const reply = page.lastReply();
    await expect(reply.textContent()).resolves.toContain('synthetic demo reply');
    // GFM table, code block with its copy button, all rendered from markdown.
    await expect(reply.locator('table').count()).resolves.toBe(1);
    await expect(reply.getByRole('button', { name: 'Copy code' }).count()).resolves.toBe(1);
    await suite.app.screenshot('chat-reply');

    // Streaming off: one answer, with the token counts the relay reports, per reply and in all.
    await page.setChatOption('Stream', false);
    await page.send('Now without streaming');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(page.replies().count()).resolves.toBe(2);
    await expect(
      page.lastReply().locator('.chat-usage').textContent({ timeout: 5000 }),
    ).resolves.toMatch(/= \d+ tokens/);
    await expect(
      page.page.getByLabel('Tokens in this conversation').textContent({ timeout: 5000 }),
    ).resolves.toMatch(/\d+ tokens in this conversation/);
  });

  it('stops a reply that hangs, keeping it marked interrupted', async () => {
    const page = await chat();
    suite.relay.setFaults({ stallAfterHeaders: true });
    await page.send('Wait for me');
    await page.lastReply().waitFor();
    await page.page.keyboard.press('Escape');
    await expect(page.finishedReplyStatus()).resolves.toBe('interrupted');
    await expect(page.lastReply().textContent()).resolves.toContain('Stopped');
  });

  it('regenerates the last reply and edits a sent message', async () => {
    const page = await chat();
    await page.send('First question');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(page.replies().count()).resolves.toBe(1);

    const mine = page.page.locator('article.chat-message[data-role="user"]').last();
    await mine.getByRole('button', { name: 'Edit' }).click();
    await mine.getByLabel('Edit your message').fill('A different question entirely');
    await mine.getByRole('button', { name: 'Save and resend' }).click();
    await expect
      .poll(() => page.lastReply().textContent())
      .toContain('A different question entirely');
    await expect(page.replies().count()).resolves.toBe(1);
  });

  it('shows a server error on the reply and Retry asks again', async () => {
    const page = await chat();
    suite.relay.setFaults({ status: 500 });
    await page.send('Are you there?');
    await expect(page.finishedReplyStatus()).resolves.toBe('error');
    suite.relay.setFaults(undefined);
    const alert = page.lastReply().getByRole('alert');
    await expect(alert.textContent()).resolves.toContain('The relay had a problem');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
  });

  it('shows hostile markdown as text: no script, no javascript: link, no remote image', async () => {
    const hostile = [
      'Hello <script>window.__pwned = 1</script> there.',
      '',
      '<img src="https://tracker.example/pixel.png" onerror="window.__pwned = 2">',
      '',
      '[click me](javascript:window.__pwned=3) and [safe](https://example.com/docs)',
      '',
      '![remote picture](https://tracker.example/cat.png)',
      '',
      '```html',
      '<script>window.__pwned = 4</script><b>bold?</b>',
      '```',
    ].join('\n');
    const page = await chat({ fetch: replyingWith(hostile) });
    await page.send('Anything');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const reply = page.lastReply();
    await expect(reply.locator('script, img, iframe, b').count()).resolves.toBe(0);
    const text = await reply.textContent();
    expect(text).toContain('<script>window.__pwned = 4</script>');
    expect(text).toContain('[Image: remote picture]');
    const hrefs = await reply
      .locator('a')
      .evaluateAll((links: Array<{ getAttribute(name: string): string | null }>) =>
        links.map((a) => a.getAttribute('href')),
      );
    expect(hrefs).toEqual(['https://example.com/docs', 'https://tracker.example/cat.png']);
    await expect(
      page.page.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
    ).resolves.toBeUndefined();
  });

  it('fetches KaTeX and a grammar only for a reply that needs them, and reopens there after a reload', async () => {
    const reply = ['The energy is $E = mc^2$.', '', '```python', 'print("hello")', '```'].join(
      '\n',
    );
    const page = await chat({ fetch: replyingWith(reply) });
    const fetched: string[] = [];
    page.page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    // The chat screen is up and ready to type in: no KaTeX, no highlighting fetched yet.
    expect(fetched.filter((path) => /katex|\/core-|python-/i.test(path))).toEqual([]);
    await page.send('Math and code, please');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    // Fetched now, and the formula is rendered once it has arrived.
    await expect.poll(() => page.lastReply().locator('.katex').count()).toBe(1);
    expect(fetched.some((path) => /\/katex-chunk-[\w-]+\.js$/.test(path))).toBe(true);
    expect(fetched.some((path) => /\/katex-chunk-[\w-]+\.css$/.test(path))).toBe(true);
    await expect.poll(() => page.lastReply().locator('code.hljs .hljs-built_in').count()).toBe(1);
    expect(fetched.some((path) => /\/python-[\w-]+\.js$/.test(path))).toBe(true);

    // The next start opens where the person was: this conversation, ready to type in.
    const title = await page.sidebar.locator('[aria-current="page"]').textContent();
    await page.page.reload();
    await page.message.waitFor();
    await expect(page.sidebar.locator('[aria-current="page"]').textContent()).resolves.toBe(title);
    await expect
      .poll(() =>
        page.page.evaluate(() =>
          (
            globalThis as unknown as {
              document: { activeElement: { getAttribute(name: string): string | null } | null };
            }
          ).document.activeElement?.getAttribute('aria-label'),
        ),
      )
      .toBe('Message');
    await expect.poll(() => page.lastReply().locator('.katex').count()).toBe(1);
  });

  it('resolves reference-style links across blocks, and a javascript: definition stays dead', async () => {
    const reply = [
      'Read [the guide][guide] first, then [the FAQ][faq].',
      '',
      'And do not click [this][bad].',
      '',
      '```text',
      'code mentions [guide] but stays code',
      '```',
      '',
      '[guide]: https://example.com/guide "Guide"',
      '[faq]: https://example.com/faq',
      '[bad]: javascript:window.__pwned=5',
    ].join('\n');
    const page = await chat({ fetch: replyingWith(reply) });
    await page.send('Links please');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const last = page.lastReply();
    const hrefs = await last
      .locator('a')
      .evaluateAll((links: Array<{ getAttribute(name: string): string | null }>) =>
        links.map((a) => a.getAttribute('href')),
      );
    expect(hrefs).toEqual(['https://example.com/guide', 'https://example.com/faq']);
    await expect(last.locator('pre').textContent()).resolves.toContain(
      'code mentions [guide] but stays code',
    );
    await expect(last.textContent()).resolves.not.toContain('[guide]:');
    await expect(
      page.page.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
    ).resolves.toBeUndefined();
  });
});
