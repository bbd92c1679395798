/**
 * Chat errors against the demo relay's faults: each one shown on the failed reply with the action
 * that fixes it, and a stream cut midway that keeps its text marked interrupted.
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { e2eSuite, type ConnectedOptions } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Chat relay' });
const key = suite.key;
/** Handlers are called directly, as the trusted window would through the router. */
const SENDER = { url: 'app://relay/', isMainFrame: true, webContentsId: 1 };
const CONSOLE = 'https://console.example.com/billing';

const chat = (options: ConnectedOptions = {}) =>
  suite.connected(ChatPage, { consoleUrl: CONSOLE, ...options });

/** Chat requests that reached the relay, counted by a fetch that passes everything on. */
function countingChats(): { fetch: FetchLike; count(): number } {
  let chats = 0;
  return {
    fetch: (url, init) => {
      if (url.endsWith('/v1/chat/completions')) chats++;
      return fetch(url, init);
    },
    count: () => chats,
  };
}

describe('chat errors', () => {
  it('400: names the parameter the relay refused (a model it no longer has)', async () => {
    // A conversation that keeps a model the relay has since retired.
    const page = await chat({
      seed: async (app) => {
        await app.services.handlers.createConversation(
          { title: 'Poems', model: 'demo-chat-retired' },
          SENDER,
        );
      },
    });
    await page.openConversation('Poems');
    await expect.poll(() => page.modelName()).toBe('demo-chat-retired');
    await page.send('Hello?');
    await expect(page.finishedReplyStatus()).resolves.toBe('error');
    const alert = page.replyAlert();
    await expect(alert.getAttribute('data-kind')).resolves.toBe('bad_request');
    await expect(alert.locator('code').textContent()).resolves.toBe('model');
    await expect(alert.textContent()).resolves.toContain(
      "change it in this conversation's settings",
    );
    // Nothing to retry blindly: the parameter has to change first.
    await expect(alert.getByRole('button', { name: 'Retry' }).count()).resolves.toBe(0);

    // Choosing a model the relay has, then regenerating, works.
    await page.chooseModel('demo-chat');
    await expect.poll(() => page.modelName()).toMatch(/^demo-chat/);
    await page.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
  });

  it('401: opens key entry in place, and a corrected key then works', async () => {
    const page = await chat();
    // The key is revoked behind the page's back after the models were listed.
    const [connection] = await suite.app.services.connections.list();
    await suite.app.services.connections.update(connection!.id, { apiKey: `${key}-revoked` });
    await page.send('Still there?');
    await expect(page.finishedReplyStatus()).resolves.toBe('error');
    const alert = page.replyAlert();
    await expect(alert.getAttribute('data-kind')).resolves.toBe('unauthorized');
    // The shared failure view names the connection that refused the key.
    await expect(alert.getByRole('alert').first().textContent()).resolves.toMatch(
      /refused the key/,
    );
    const field = alert.getByLabel(/^API key for /);
    await field.fill(key);
    await alert.getByRole('button', { name: 'Save key and retry' }).click();
    await expect
      .poll(() => page.lastReply().getAttribute('data-status'), { timeout: 10_000 })
      .toBe('complete');
    await expect(page.lastReply().textContent()).resolves.toContain('synthetic demo reply');
    // The key went to main, never into the page's messages back.
    const [after] = await suite.app.services.connections.list();
    expect(JSON.stringify(after)).not.toContain(key);
  });

  it('402: explains the balance, links to the console, and Retry works after a top-up', async () => {
    const page = await chat();
    suite.relay.setBalance(key, 0);
    await page.send('One more, please');
    await expect(page.finishedReplyStatus()).resolves.toBe('error');
    const alert = page.replyAlert();
    await expect(alert.getAttribute('data-kind')).resolves.toBe('insufficient_balance');
    await expect(alert.textContent()).resolves.toContain('Your balance is used up');
    const link = alert.getByRole('link', { name: 'Top up in the console' });
    await expect(link.getAttribute('href')).resolves.toBe(CONSOLE);
    suite.relay.setBalance(key, 100);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
  });

  it('429: shows the countdown of the automatic retry, and Cancel stops it', async () => {
    const counter = countingChats();
    // The relay asks for a long wait, so the countdown is there to read and to cancel.
    const slow: FetchLike = async (url, init) => {
      const response = await counter.fetch(url, init);
      if (response.status !== 429) return response;
      const headers = new Headers(response.headers);
      headers.set('retry-after', '30');
      headers.set('retry-after-ms', '30000');
      return new Response(await response.text(), { status: 429, headers });
    };
    const page = await chat({ fetch: slow });
    suite.relay.setFaults({ status: 429 });
    await page.send('Busy?');
    const countdown = page.retryCountdown();
    await countdown.waitFor();
    await expect(countdown.textContent()).resolves.toMatch(
      /Trying again in (29|30) s \(attempt 2\)/,
    );
    await expect
      .poll(() => countdown.textContent(), { timeout: 5000 })
      .toMatch(/Trying again in 2[0-8] s/);
    const asked = counter.count();
    await countdown.getByRole('button', { name: 'Cancel' }).click();
    await countdown.waitFor({ state: 'detached' });
    const status = await page.finishedReplyStatus();
    expect(status === 'interrupted' || status === 'error').toBe(true);
    // No retry goes out after Cancel.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(counter.count()).toBe(asked);
  });

  it('429 once: the countdown runs out and the reply arrives by itself', async () => {
    const page = await chat();
    suite.relay.setFaults({ status: 429, failOnce: true });
    await page.send('Busy for a second?');
    await page.retryCountdown().waitFor();
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await expect(page.retryCountdown().count()).resolves.toBe(0);
  });

  it('a stream cut midway keeps its text, marked interrupted', async () => {
    const page = await chat();
    suite.relay.setFaults({ cutAfterChunks: 5 });
    await page.send('Tell me a long story');
    await expect(page.finishedReplyStatus()).resolves.toBe('interrupted');
    const reply = page.lastReply();
    await expect(reply.textContent()).resolves.toContain('Stopped');
    const kept = await page.replyText();
    expect(kept.trim().length).toBeGreaterThan(0);
    // What was shown is what main stored.
    const [conversation] = await suite.app.services.handlers.listConversations(undefined, SENDER);
    const stored = await suite.app.services.handlers.getConversation(
      { id: conversation!.id },
      SENDER,
    );
    const last = stored.messages.at(-1)!;
    expect(last.status).toBe('interrupted');
    expect(last.content.length).toBeGreaterThan(0);
    expect(kept).toContain(
      last.content
        .replace(/[#*`_>|-]/g, '')
        .trim()
        .slice(0, 10),
    );
  });
});
