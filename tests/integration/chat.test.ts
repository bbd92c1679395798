/**
 * Chat over the real router and bridge against the demo relay: sending and streaming, stop,
 * regenerate, edit, every relay error on the reply where it happened, search, export, import and
 * a restart.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { tokenize } from '../../electron/demo-relay/models/chat';
import { ChatStore } from '../../electron/main/services/chat/store';
import { chatExportSchema } from '../../electron/main/services/chat/transfer';
import { MAX_REPLY_CHARS } from '../../electron/shared/ipc/routes/chat';
import { openChatApp, type ChatApp } from '../fakes/chat-app';
import { startScriptedServer } from '../fakes/scripted-server';

const KEY = 'sk-demo-chat-test-5f1c0a9e';
const MODEL = 'demo-chat-fast';

let relay: DemoRelay;
let slowRelay: DemoRelay;
let dataDir: string;
let app: ChatApp;

async function connect(target: DemoRelay = relay) {
  await app.api.createConnection({ name: 'Local', baseUrl: target.url, apiKey: KEY });
}

/** Paced by the slow relay, so that there is time to stop it. */
const SLOW_MODEL = 'demo-chat';

async function newConversation(model = MODEL) {
  return app.api.createConversation({ model });
}

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
  slowRelay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 60 });
});
afterAll(async () => {
  await relay.close();
  await slowRelay.close();
});
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-chat-'));
  app = await openChatApp(dataDir);
  relay.setFaults(undefined);
  slowRelay.setFaults(undefined);
  relay.setBalance(KEY, 100);
});
afterEach(async () => {
  await app.services.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('sending and streaming', () => {
  it('streams a reply, stores both messages, and titles the conversation', async () => {
    await connect();
    const conversation = await newConversation();
    const sent = await app.api.sendMessage({
      conversationId: conversation.id,
      text: 'Tell me about tide pools',
    });
    const end = await app.finished(sent.replyId);
    expect(end.status).toBe('complete');
    expect(end.content.length).toBeGreaterThan(100);
    // The deltas add up to the reply, in order.
    expect(
      app
        .deltas(sent.replyId)
        .map((e) => e.payload.text)
        .join(''),
    ).toBe(end.content);

    const { conversation: stored, messages } = await app.api.getConversation({
      id: conversation.id,
    });
    expect(stored.title).toBe('Tell me about tide pools');
    expect(stored.messageCount).toBe(2);
    expect(messages.map((m) => [m.id, m.role, m.status])).toEqual([
      [sent.userMessageId, 'user', 'complete'],
      [sent.replyId, 'assistant', 'complete'],
    ]);
    expect(messages[1]?.content).toBe(end.content);
    expect(messages[1]?.model).toBe(MODEL);
    // The end carries the conversation's row as it now stands; the list is not asked to refresh.
    expect(end.conversation).toEqual(stored);
    expect(app.events.filter((e) => e.channel === 'chat:conversations-changed')).toEqual([]);
  });

  it('coalesces deltas: far fewer events than tokens, at most one per ~16 ms', async () => {
    const fast = await startDemoRelay({ keys: [KEY], tokensPerSecond: 2000 });
    try {
      await connect(fast);
      const conversation = await newConversation(SLOW_MODEL);
      const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
      const started = performance.now();
      const sent = await app.api.sendMessage({ conversationId: conversation.id, text: long });
      const end = await app.finished(sent.replyId);
      const elapsed = performance.now() - started;
      const deltas = app.deltas(sent.replyId);
      const tokens = tokenize(end.content).length;
      expect(tokens).toBeGreaterThan(150);
      expect(deltas.length).toBeLessThan(tokens / 4);
      expect(deltas.length).toBeLessThanOrEqual(Math.ceil(elapsed / 16) + 1);
      // The spacing between two deltas is the coalescer's, checked on a fake clock in
      // chat-units.test.ts: measured here on the wall clock it flaked on a loaded machine.
      expect(deltas.map((e) => e.payload.text).join('')).toBe(end.content);
    } finally {
      await fast.close();
    }
  });

  it('with streaming off, sends no deltas and one finish', async () => {
    await connect();
    const conversation = await newConversation();
    const sent = await app.api.sendMessage({
      conversationId: conversation.id,
      text: 'No stream please',
      options: { stream: false },
    });
    const end = await app.finished(sent.replyId);
    expect(end.status).toBe('complete');
    expect(end.content.length).toBeGreaterThan(0);
    expect(app.deltas(sent.replyId)).toHaveLength(0);
    // Usage, per reply and summed per conversation.
    expect(end.usage?.totalTokens).toBeGreaterThan(0);
    const { conversation: stored, messages } = await app.api.getConversation({
      id: conversation.id,
    });
    expect(messages[1]?.usage).toEqual(end.usage);
    expect(stored.usage.totalTokens).toBe(end.usage?.totalTokens);
  });

  it('sends the system prompt and history, with the conversation settings', async () => {
    await connect();
    const conversation = await newConversation();
    await app.api.updateConversationSettings({
      id: conversation.id,
      systemPrompt: 'Be brief.',
      temperature: 0.2,
      maxTokens: 4000,
    });
    const first = await app.api.sendMessage({ conversationId: conversation.id, text: 'alpha' });
    await app.finished(first.replyId);
    const second = await app.api.sendMessage({ conversationId: conversation.id, text: 'beta' });
    const end = await app.finished(second.replyId);
    expect(end.status).toBe('complete');
    const { conversation: stored } = await app.api.getConversation({ id: conversation.id });
    expect(stored).toMatchObject({ systemPrompt: 'Be brief.', temperature: 0.2, maxTokens: 4000 });
    expect(stored.messageCount).toBe(4);
  });

  it('refuses settings outside the spec before anything is sent', async () => {
    await connect();
    const conversation = await newConversation();
    await expect(
      app.api.updateConversationSettings({ id: conversation.id, temperature: 2.5 }),
    ).rejects.toMatchObject({ kind: 'invalid_request', param: 'temperature' });
    await expect(
      app.api.updateConversationSettings({ id: conversation.id, maxTokens: 0 }),
    ).rejects.toMatchObject({ kind: 'invalid_request', param: 'maxTokens' });
    await expect(
      app.api.sendMessage({ conversationId: conversation.id, text: '   ' }),
    ).rejects.toMatchObject({ kind: 'invalid_request', param: 'text' });
  });

  it('without a connection or a model, refuses and stores nothing', async () => {
    const conversation = await newConversation();
    await expect(
      app.api.sendMessage({ conversationId: conversation.id, text: 'hi' }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await connect();
    const bare = await app.api.createConversation();
    await expect(
      app.api.sendMessage({ conversationId: bare.id, text: 'hi' }),
    ).rejects.toMatchObject({ kind: 'invalid_request', message: expect.stringContaining('model') });
    expect((await app.api.getConversation({ id: conversation.id })).messages).toHaveLength(0);
    expect((await app.api.getConversation({ id: bare.id })).messages).toHaveLength(0);
  });
});

describe('stop, regenerate, edit', () => {
  it('stop aborts in main and keeps the text as interrupted', async () => {
    await connect(slowRelay);
    const conversation = await newConversation(SLOW_MODEL);
    const sent = await app.api.sendMessage({
      conversationId: conversation.id,
      text: 'a long answer please',
    });
    await app.until(() => (app.deltas(sent.replyId).length >= 2 ? true : undefined));
    expect(await app.api.stopReply({ replyId: sent.replyId })).toEqual({ stopped: true });
    const end = await app.finished(sent.replyId);
    expect(end.status).toBe('interrupted');
    expect(end.error).toBeUndefined();
    expect(end.content.length).toBeGreaterThan(0);
    const { messages } = await app.api.getConversation({ id: conversation.id });
    expect(messages[1]).toMatchObject({ status: 'interrupted', content: end.content });
    expect(await app.api.stopReply({ replyId: sent.replyId })).toEqual({ stopped: false });
  });

  it('refuses a second send while a reply is being written', async () => {
    await connect(slowRelay);
    const conversation = await newConversation(SLOW_MODEL);
    const sent = await app.api.sendMessage({ conversationId: conversation.id, text: 'one' });
    await expect(
      app.api.sendMessage({ conversationId: conversation.id, text: 'two' }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    await app.api.stopReply({ replyId: sent.replyId });
    await app.finished(sent.replyId);
  });

  it('regenerate replaces the last reply', async () => {
    await connect();
    const conversation = await newConversation();
    const sent = await app.api.sendMessage({ conversationId: conversation.id, text: 'again' });
    await app.finished(sent.replyId);
    const again = await app.api.regenerateReply({ conversationId: conversation.id });
    expect(again.userMessageId).toBe(sent.userMessageId);
    expect(again.replyId).not.toBe(sent.replyId);
    const end = await app.finished(again.replyId);
    expect(end.status).toBe('complete');
    const { messages } = await app.api.getConversation({ id: conversation.id });
    expect(messages.map((m) => m.id)).toEqual([sent.userMessageId, again.replyId]);
  });

  it('edit adds a new version beside the message, and the path follows it; nothing is dropped', async () => {
    await connect();
    const conversation = await newConversation();
    const first = await app.api.sendMessage({ conversationId: conversation.id, text: 'first' });
    const firstReply = await app.finished(first.replyId);
    const second = await app.api.sendMessage({ conversationId: conversation.id, text: 'second' });
    await app.finished(second.replyId);
    const edited = await app.api.editMessage({
      messageId: first.userMessageId,
      text: 'first, edited',
    });
    expect(edited.userMessageId).not.toBe(first.userMessageId);
    const end = await app.finished(edited.replyId);
    expect(end.content).toContain('edited');
    const { messages } = await app.api.getConversation({ id: conversation.id });
    expect(messages.map((m) => [m.role, m.content.slice(0, 13)])).toEqual([
      ['user', 'first, edited'],
      ['assistant', end.content.slice(0, 13)],
    ]);
    expect(messages[0]!.branch).toEqual({
      index: 1,
      count: 2,
      previousId: first.userMessageId,
      nextId: null,
    });
    // The first version is still there, with everything after it.
    const back = await app.api.showVersion({ messageId: first.userMessageId });
    expect(back.messages.map((m) => m.content.slice(0, 6))).toEqual([
      'first',
      firstReply.content.slice(0, 6),
      'second',
      expect.any(String),
    ]);
    await expect(
      app.api.editMessage({ messageId: edited.replyId, text: 'nope' }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
  });
});

describe('continue a reply that stopped', () => {
  /** A reply cut after five chunks, and the same prompt's whole reply for comparison. */
  async function cutReply(text: string) {
    const whole = await app.api.createConversation({ model: MODEL });
    const full = await app.finished(
      (await app.api.sendMessage({ conversationId: whole.id, text })).replyId,
    );
    relay.setFaults({ cutAfterChunks: 5 });
    const conversation = await newConversation();
    const sent = await app.api.sendMessage({ conversationId: conversation.id, text });
    const stopped = await app.finished(sent.replyId);
    relay.setFaults(undefined);
    expect(stopped.status).toBe('interrupted');
    expect(stopped.content.length).toBeGreaterThan(0);
    expect(full.content.startsWith(stopped.content)).toBe(true);
    return { conversation, sent, stopped, full };
  }

  it('asks for the rest with the reply so far, and adds it to the same reply, saved whole', async () => {
    await connect();
    const { conversation, sent, stopped, full } = await cutReply('Carry on where you stopped');
    const deltasBefore = app.deltas(sent.replyId).length;
    const continued = await app.api.continueReply({ replyId: sent.replyId });
    expect(continued).toEqual({ userMessageId: sent.userMessageId, replyId: sent.replyId });
    const end = await app.finished(sent.replyId, 2);
    expect(end.status).toBe('complete');
    // The demo relay writes the rest only when the request ends with the reply so far.
    expect(end.content).toBe(full.content);
    const rest = app
      .deltas(sent.replyId)
      .slice(deltasBefore)
      .map((e) => e.payload.text)
      .join('');
    expect(stopped.content + rest).toBe(full.content);
    expect(end.usage?.completionTokens).toBe(tokenize(rest).length);
    const { conversation: stored, messages } = await app.api.getConversation({
      id: conversation.id,
    });
    expect(stored.messageCount).toBe(2);
    expect(messages.map((m) => [m.id, m.status])).toEqual([
      [sent.userMessageId, 'complete'],
      [sent.replyId, 'complete'],
    ]);
    expect(messages[1]?.content).toBe(full.content);
    expect(messages[1]?.branch).toBeUndefined();
  });

  it('a continuation that fails keeps the text, still stopped, and can be continued again', async () => {
    await connect();
    const { sent, stopped, full } = await cutReply('Fail then carry on');
    relay.setFaults({ status: 500 });
    await app.api.continueReply({ replyId: sent.replyId });
    const failed = await app.finished(sent.replyId, 2);
    expect(failed).toMatchObject({ status: 'interrupted', content: stopped.content });
    expect(failed.error?.kind).toBe('server_error');
    relay.setFaults(undefined);
    await app.api.continueReply({ replyId: sent.replyId });
    const end = await app.finished(sent.replyId, 3);
    expect(end).toMatchObject({ status: 'complete', content: full.content });
    expect(end.error).toBeUndefined();
  });

  it('refuses what cannot be continued, and changes nothing', async () => {
    await connect();
    const { conversation, sent } = await cutReply('Refusals');
    const refuse = (replyId: string, message: RegExp) =>
      expect(app.api.continueReply({ replyId })).rejects.toMatchObject({
        kind: 'invalid_request',
        message: expect.stringMatching(message),
      });
    await refuse(sent.userMessageId, /Only a reply/);
    // A whole reply has nothing left to write.
    const other = await newConversation();
    const done = await app.api.sendMessage({ conversationId: other.id, text: 'done' });
    await app.finished(done.replyId);
    await refuse(done.replyId, /stopped before its end/);
    // Not the last reply of the path any more.
    const later = await app.api.sendMessage({ conversationId: conversation.id, text: 'later' });
    await app.finished(later.replyId);
    await refuse(sent.replyId, /last reply/);
    await expect(
      app.api.continueReply({ replyId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    const { messages } = await app.api.getConversation({ id: conversation.id });
    expect(messages[1]).toMatchObject({ id: sent.replyId, status: 'interrupted' });
  });

  it('refuses while a reply is being written in the conversation', async () => {
    await connect(slowRelay);
    const conversation = await newConversation(SLOW_MODEL);
    const sent = await app.api.sendMessage({ conversationId: conversation.id, text: 'slow one' });
    await app.until(() => (app.deltas(sent.replyId).length >= 1 ? true : undefined));
    await expect(app.api.continueReply({ replyId: sent.replyId })).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringMatching(/still being written/),
    });
    await app.api.stopReply({ replyId: sent.replyId });
    const stopped = await app.finished(sent.replyId);
    expect(stopped.status).toBe('interrupted');
    // Stopped by the person, then continued: it streams again from where it stopped.
    const before = app.deltas(sent.replyId).length;
    await app.api.continueReply({ replyId: sent.replyId });
    await app.until(() => (app.deltas(sent.replyId).length >= before + 2 ? true : undefined));
    await app.api.stopReply({ replyId: sent.replyId });
    const again = await app.finished(sent.replyId, 2);
    expect(again.status).toBe('interrupted');
    expect(again.content.startsWith(stopped.content)).toBe(true);
    expect(again.content.length).toBeGreaterThan(stopped.content.length);
  });
});

describe('relay errors, on the reply', () => {
  async function failingReply(text = 'hello') {
    const conversation = await newConversation();
    const sent = await app.api.sendMessage({ conversationId: conversation.id, text });
    const end = await app.finished(sent.replyId);
    const { messages } = await app.api.getConversation({ id: conversation.id });
    return { end, stored: messages[1]!, sent, conversation };
  }

  it('400 names the parameter', async () => {
    await connect();
    const conversation = await newConversation('no-such-model');
    const sent = await app.api.sendMessage({ conversationId: conversation.id, text: 'hi' });
    const end = await app.finished(sent.replyId);
    expect(end).toMatchObject({
      status: 'error',
      error: { kind: 'bad_request', param: 'model', status: 400 },
    });
    const { messages } = await app.api.getConversation({ id: conversation.id });
    expect(messages[1]).toMatchObject({ status: 'error', error: { param: 'model' } });
  });

  it('401 and 402 end the reply with their kind, without retrying', async () => {
    await connect();
    relay.setFaults({ status: 401 });
    const unauthorized = await failingReply();
    expect(unauthorized.end.error).toMatchObject({ kind: 'unauthorized', status: 401 });
    relay.setFaults(undefined);
    relay.setBalance(KEY, 0);
    const broke = await failingReply();
    expect(broke.end.error).toMatchObject({ kind: 'insufficient_balance', status: 402 });
    expect(broke.stored.status).toBe('error');
    expect(app.events.filter((e) => e.channel === 'relay:retry-scheduled')).toHaveLength(0);
  });

  it('429 reports the retry countdown under the reply id, then succeeds', async () => {
    await connect();
    relay.setFaults({ status: 429, failOnce: true });
    const { end, sent } = await failingReply();
    const retry = app.events.find((e) => e.channel === 'relay:retry-scheduled');
    expect(retry?.payload).toMatchObject({
      requestId: sent.replyId,
      kind: 'rate_limited',
      delayMs: 1000,
    });
    expect(end.status).toBe('complete');
  });

  it('5xx is retried, and after the last retry the reply fails with server_error', async () => {
    await connect();
    relay.setFaults({ status: 503, failOnce: true });
    const recovered = await failingReply();
    expect(recovered.end.status).toBe('complete');
    expect(
      app.events.some(
        (e) =>
          e.channel === 'relay:retry-scheduled' && e.payload.requestId === recovered.sent.replyId,
      ),
    ).toBe(true);
    relay.setFaults({ status: 500 });
    const failed = await failingReply();
    expect(failed.end).toMatchObject({ status: 'error', error: { kind: 'server_error' } });
  }, 30_000);

  it('a cut stream keeps its text and is marked interrupted', async () => {
    await connect();
    relay.setFaults({ cutAfterChunks: 5 });
    const { end, stored } = await failingReply('cut me off please');
    expect(end.status).toBe('interrupted');
    expect(end.content.length).toBeGreaterThan(0);
    expect(stored).toMatchObject({ status: 'interrupted', content: end.content });
  });

  it('a stream that ends early is interrupted; an error mid-stream keeps the text', async () => {
    await connect();
    relay.setFaults({ endAfterChunks: 5 });
    const ended = await failingReply('end early');
    expect(ended.end.status).toBe('interrupted');
    expect(ended.end.content.length).toBeGreaterThan(0);
    relay.setFaults({ errorAfterChunks: 5 });
    const errored = await failingReply('error midway');
    expect(errored.end.status).toBe('error');
    expect(errored.end.error?.message.length).toBeGreaterThan(0);
    expect(errored.end.content.length).toBeGreaterThan(0);
    expect(errored.stored.content).toBe(errored.end.content);
  });

  it('regenerate after a failure adds a new reply beside the failed one', async () => {
    await connect();
    relay.setFaults({ status: 401 });
    const { conversation, sent } = await failingReply();
    relay.setFaults(undefined);
    const retried = await app.api.regenerateReply({ conversationId: conversation.id });
    expect(retried.userMessageId).toBe(sent.userMessageId);
    expect((await app.finished(retried.replyId)).status).toBe('complete');
  });
});

describe('a reply that never ends', () => {
  it('is cut at 10 M characters: interrupted with a note, the request aborted, the text saved', async () => {
    const server = await startScriptedServer();
    try {
      let written = 0;
      let closed = false;
      const piece = 'endless '.repeat(8192);
      const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`;
      server.handle((_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.on('close', () => (closed = true));
        // Writes as fast as the client reads, for ever.
        const pump = () => {
          while (!res.destroyed && res.write(event)) written += piece.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      await app.api.createConnection({ name: 'Endless', baseUrl: server.url, apiKey: KEY });
      const conversation = await newConversation('endless-model');
      const sent = await app.api.sendMessage({ conversationId: conversation.id, text: 'go on' });
      const end = await app.finished(sent.replyId);

      expect(end.status).toBe('interrupted');
      expect(end.content.length).toBe(MAX_REPLY_CHARS);
      expect(end.content.startsWith('endless endless')).toBe(true);
      expect(end.error?.message).toMatch(/10,000,000 characters/);
      // The request was given up, so the relay could not keep filling main's memory.
      await expect.poll(() => closed).toBe(true);
      const settled = written;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(written).toBe(settled);
      expect(written).toBeLessThan(MAX_REPLY_CHARS * 2);

      const stored = (await app.api.getConversation({ id: conversation.id })).messages[1];
      expect(stored?.status).toBe('interrupted');
      expect(stored?.content.length).toBe(MAX_REPLY_CHARS);
      expect(stored?.error?.message).toMatch(/10,000,000 characters/);
    } finally {
      await server.close();
    }
  });
});

async function nextMillisecond(): Promise<void> {
  const start = Date.now();
  while (Date.now() === start) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('the list, search, export and import', () => {
  it('orders by activity with pinned first; rename; delete with undo', async () => {
    await connect();
    const a = await app.api.createConversation({ title: 'A', model: MODEL });
    const b = await app.api.createConversation({ title: 'B', model: MODEL });
    // Activity is kept to the millisecond and a tie is broken by the random id: C must be
    // created in a later millisecond than B for "C is newer" to be a fact.
    await nextMillisecond();
    const c = await app.api.createConversation({ title: 'C', model: MODEL });
    const sent = await app.api.sendMessage({ conversationId: a.id, text: 'bump' });
    await app.finished(sent.replyId);
    expect((await app.api.listConversations()).map((x) => x.title)).toEqual(['A', 'C', 'B']);
    await app.api.setConversationPinned({ id: b.id, pinned: true });
    await app.api.renameConversation({ id: c.id, title: '  Renamed  ' });
    const list = await app.api.listConversations();
    expect(list.map((x) => x.title)).toEqual(['B', 'A', 'Renamed']);
    expect(list[1]).toMatchObject({ messageCount: 2, model: MODEL });

    await app.api.deleteConversation({ id: a.id });
    expect((await app.api.listConversations()).map((x) => x.id)).not.toContain(a.id);
    expect(await app.api.searchMessages({ query: 'bump' })).toEqual([]);
    await app.api.restoreConversation({ id: a.id });
    expect((await app.api.getConversation({ id: a.id })).messages).toHaveLength(2);
    await expect(app.api.renameConversation({ id: 'nope', title: 'x' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    // Pinning a conversation that is gone, or with a payload the route does not take.
    await expect(app.api.setConversationPinned({ id: 'nope', pinned: true })).rejects.toMatchObject(
      { kind: 'not_found' },
    );
    for (const bad of [
      { id: b.id, pinned: 'yes' },
      { id: b.id },
      { id: b.id, pinned: false, title: 'sneaked in' },
    ]) {
      await expect(
        app.api.setConversationPinned(bad as unknown as { id: string; pinned: boolean }),
      ).rejects.toMatchObject({ kind: 'invalid_request' });
    }
    expect((await app.api.listConversations())[0]).toMatchObject({ id: b.id, pinned: true });
    await app.api.setConversationPinned({ id: b.id, pinned: false });
    expect((await app.api.listConversations()).map((x) => x.title)).toEqual(['A', 'Renamed', 'B']);
  });

  it('pages a long conversation from the end', async () => {
    const conversation = await newConversation();
    const store = new ChatStore(app.services.db);
    store.append(
      conversation.id,
      Array.from({ length: 1000 }, (_, i) => ({
        role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: `message ${i}`,
        status: 'complete' as const,
      })),
    );
    const last = await app.api.getConversation({ id: conversation.id, limit: 50 });
    expect(last.messages).toHaveLength(50);
    expect(last.messages[49]?.content).toBe('message 999');
    expect(last.hasOlder).toBe(true);
    const before = await app.api.getConversation({
      id: conversation.id,
      limit: 50,
      beforeId: last.messages[0]!.id,
    });
    expect(before.messages[49]?.content).toBe('message 949');
    expect((await app.api.getConversation({ id: conversation.id })).messages).toHaveLength(1000);
  });

  it('searches every message with plain highlight segments', async () => {
    await connect();
    const conversation = await newConversation();
    const sent = await app.api.sendMessage({
      conversationId: conversation.id,
      text: 'Where do <b>axolotls</b> live? "NEAR(" AND *',
    });
    await app.finished(sent.replyId);
    const hits = await app.api.searchMessages({ query: 'axolotl' });
    expect(hits.length).toBeGreaterThanOrEqual(1);
    const hit = hits.find((h) => h.messageId === sent.userMessageId);
    expect(hit).toMatchObject({ conversationId: conversation.id, role: 'user', seq: 0 });
    expect(hit?.snippet.filter((s) => s.hit).map((s) => s.text.toLowerCase())).toContain(
      'axolotls',
    );
    expect(hit?.snippet.map((s) => s.text).join('')).toContain('<b>');
    // Query syntax typed by the person is plain text, never an FTS5 error.
    expect(await app.api.searchMessages({ query: '"NEAR( AND *' })).toBeInstanceOf(Array);
    expect(await app.api.searchMessages({ query: '   ' })).toEqual([]);
  });

  it('exports markdown, json and a zip, and imports the json back', async () => {
    await connect();
    const one = await app.api.createConversation({ title: 'First/../talk', model: MODEL });
    const sent = await app.api.sendMessage({
      conversationId: one.id,
      text: 'export me',
      options: { stream: false },
    });
    const reply = await app.finished(sent.replyId);
    const two = await app.api.createConversation({ title: 'Second', model: MODEL });
    await app.api.updateConversationSettings({ id: two.id, systemPrompt: 'Sys', temperature: 0 });

    const md = join(dataDir, 'one.md');
    app.dialogs.savePaths.push(md);
    const exported = await app.api.exportConversations({ ids: [one.id], format: 'markdown' });
    expect(exported).toEqual({ saved: true, path: md, savedId: expect.any(String), count: 1 });
    expect(app.dialogs.saveRequests[0]?.defaultName).toBe('First-talk.md');
    // "Show in folder" shows the file just saved, by the id its answer gave, and nothing else.
    await app.api.showSavedFile({ id: exported.savedId! });
    expect(app.shown).toEqual([md]);
    await expect(app.api.showSavedFile({ id: 'AAAAAAAAAAAAAAAAAAAAAAAA' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(app.shown).toEqual([md]);
    const markdown = await readFile(md, 'utf8');
    expect(markdown).toContain('# First/../talk');
    expect(markdown).toContain('export me');
    expect(markdown).toContain(reply.content.slice(0, 40));

    const json = join(dataDir, 'one.json');
    app.dialogs.savePaths.push(json);
    await app.api.exportConversations({ ids: [one.id], format: 'json' });
    const document = chatExportSchema.parse(JSON.parse(await readFile(json, 'utf8')));
    expect(document.conversations[0]?.messages.map((m) => m.content)).toEqual([
      'export me',
      reply.content,
    ]);

    const zip = join(dataDir, 'both.zip');
    app.dialogs.savePaths.push(zip);
    await app.api.exportConversations({ ids: [one.id, two.id], format: 'json' });
    const files = unzipSync(new Uint8Array(await readFile(zip)));
    expect(Object.keys(files).sort()).toEqual(['1-First-talk.json', '2-Second.json']);
    const second = chatExportSchema.parse(JSON.parse(strFromU8(files['2-Second.json']!)));
    expect(second.conversations[0]).toMatchObject({ systemPrompt: 'Sys', temperature: 0 });

    app.dialogs.savePaths.push(undefined);
    expect(await app.api.exportConversations({ ids: [one.id], format: 'json' })).toMatchObject({
      saved: false,
    });

    // Import: a new conversation with the same content.
    app.dialogs.openPaths.push([json]);
    const imported = await app.api.importConversations();
    expect(imported.conversationIds).toHaveLength(1);
    const back = await app.api.getConversation({ id: imported.conversationIds[0]! });
    expect(back.conversation.title).toBe('First/../talk');
    expect(back.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'export me', 'complete'],
      ['assistant', reply.content, 'complete'],
    ]);
    expect(back.conversation.usage.totalTokens).toBe(reply.usage?.totalTokens);
    expect((await app.api.searchMessages({ query: 'export' })).length).toBeGreaterThanOrEqual(2);
  });

  it('exports through a fresh, unguessable temp file, and leaves nothing behind when it fails', async () => {
    const conversation = await app.api.createConversation({ title: 'Private', model: MODEL });
    const folder = join(dataDir, 'exports');
    await mkdir(folder);
    const path = join(folder, 'talk.md');
    // Links planted where a predictable temp file would be: nothing may be written through them.
    const victim = join(dataDir, 'victim.txt');
    await writeFile(victim, 'keep me');
    for (const guess of [`${path}.${process.pid}.tmp`, `${path}.tmp`]) await symlink(victim, guess);
    app.dialogs.savePaths.push(path);
    await app.api.exportConversations({ ids: [conversation.id], format: 'markdown' });
    expect(await readFile(victim, 'utf8')).toBe('keep me');
    expect(await readFile(path, 'utf8')).toContain('# Private');
    expect((await readdir(folder)).filter((name) => !name.startsWith('talk.md.'))).toEqual([
      'talk.md',
    ]);

    // The rename at the end fails (a folder has the chosen name): an error, and no temp file.
    const taken = join(folder, 'taken.json');
    await mkdir(taken);
    const before = await readdir(folder);
    app.dialogs.savePaths.push(taken);
    await expect(
      app.api.exportConversations({ ids: [conversation.id], format: 'json' }),
    ).rejects.toMatchObject({
      kind: 'internal',
      message: expect.stringMatching(/could not be written to .*taken\.json \(E[A-Z]+\)/),
    });
    expect((await readdir(folder)).sort()).toEqual(before.sort());
    expect(await readdir(taken)).toEqual([]);
  });

  it('imports a zip of JSON exports, refusing the bad entries by name and keeping the rest', async () => {
    const one = await app.api.createConversation({ title: 'Zip one', model: MODEL });
    const two = await app.api.createConversation({ title: 'Zip two', model: MODEL });
    const store = new ChatStore(app.services.db);
    store.append(one.id, [
      { role: 'user', content: 'zipped question', status: 'complete' },
      {
        role: 'assistant',
        content: 'zipped answer',
        status: 'complete',
        usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
      },
    ]);
    const zip = join(dataDir, 'both.zip');
    app.dialogs.savePaths.push(zip);
    await app.api.exportConversations({ ids: [one.id, two.id], format: 'json' });

    // Our own zip comes back whole.
    app.dialogs.openPaths.push([zip]);
    const back = await app.api.importConversations();
    expect(back.refused).toEqual([]);
    expect(back.conversationIds).toHaveLength(2);
    const first = await app.api.getConversation({ id: back.conversationIds[0]! });
    expect(first.conversation.title).toBe('Zip one');
    expect(first.messages.map((m) => m.content)).toEqual(['zipped question', 'zipped answer']);
    expect(first.conversation.usage.totalTokens).toBe(7);

    // A zip with a note and a broken entry beside a good one: the good one, and what was refused.
    const files = unzipSync(new Uint8Array(await readFile(zip)));
    const mixed = join(dataDir, 'mixed.zip');
    await writeFile(
      mixed,
      zipSync({
        'good.json': files['1-Zip-one.json']!,
        'notes.txt': strToU8('not an export'),
        'broken.json': strToU8('{"format": '),
      }),
    );
    const before = (await app.api.listConversations()).length;
    app.dialogs.openPaths.push([mixed]);
    const partly = await app.api.importConversations();
    expect(partly.conversationIds).toHaveLength(1);
    // Each reason with its key and values, so the page shows it in the person's language.
    expect(partly.refused).toEqual([
      {
        name: 'mixed.zip › notes.txt',
        reason: expect.stringMatching(/not a JSON chat export/),
        messageId: 'import.zip.notJson',
        values: { name: 'mixed.zip › notes.txt' },
      },
      {
        name: 'mixed.zip › broken.json',
        reason: expect.stringMatching(/not a JSON file/),
        messageId: 'import.chat.notJson',
        values: { name: 'mixed.zip › broken.json' },
      },
    ]);
    expect(await app.api.listConversations()).toHaveLength(before + 1);

    // Nothing importable at all: refused with every reason, nothing written.
    const fake = join(dataDir, 'fake.zip');
    await writeFile(fake, 'plain text');
    app.dialogs.openPaths.push([fake, join(dataDir, 'gone.json')]);
    await expect(app.api.importConversations()).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringMatching(
        /fake\.zip is not a zip file.*gone\.json could not be read \(ENOENT\).*Nothing was imported\./,
      ),
    });
    expect(await app.api.listConversations()).toHaveLength(before + 1);
  });

  it('refuses a corrupt or hostile file with a specific error and imports nothing', async () => {
    const before = (await app.api.listConversations()).length;
    const cases: Array<[string, string, RegExp]> = [
      ['broken.json', '{"format": "relay-desktop-chat", ', /not a JSON file/],
      ['other.json', '{"hello": 1}', /not a Relay Desktop chat export/],
      [
        'newer.json',
        JSON.stringify({
          format: 'relay-desktop-chat',
          version: 99,
          exportedAt: '',
          conversations: [],
        }),
        /newer version/,
      ],
      [
        'hostile.json',
        JSON.stringify({
          format: 'relay-desktop-chat',
          version: 1,
          exportedAt: '2026-01-01T00:00:00.000Z',
          conversations: [
            {
              title: 'ok',
              createdAt: '2026-01-01T00:00:00.000Z',
              updatedAt: '2026-01-01T00:00:00.000Z',
              pinned: false,
              model: null,
              systemPrompt: '',
              temperature: null,
              maxTokens: null,
              messages: [
                {
                  role: 'system',
                  content: 'x',
                  status: 'complete',
                  createdAt: '2026-01-01T00:00:00.000Z',
                },
              ],
            },
          ],
          __proto__: { polluted: true },
        }),
        /conversations\[0\]\.messages\[0\]\.role/,
      ],
    ];
    for (const [name, text, message] of cases) {
      const path = join(dataDir, name);
      await writeFile(path, text);
      // A good file alongside a bad one: all or nothing.
      app.dialogs.openPaths.push([path]);
      await expect(app.api.importConversations()).rejects.toMatchObject({
        kind: 'invalid_request',
        message: expect.stringMatching(message),
      });
    }
    expect(await app.api.listConversations()).toHaveLength(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    app.dialogs.openPaths.push([]);
    expect(await app.api.importConversations()).toEqual({
      cancelled: true,
      conversationIds: [],
      refused: [],
    });
  });
});

describe('restart', () => {
  it('keeps conversations, messages, settings and search after closing and reopening', async () => {
    await connect();
    const conversation = await newConversation();
    await app.api.updateConversationSettings({ id: conversation.id, systemPrompt: 'Stay' });
    await app.api.setConversationPinned({ id: conversation.id, pinned: true });
    const sent = await app.api.sendMessage({ conversationId: conversation.id, text: 'persist me' });
    const reply = await app.finished(sent.replyId);
    const before = await app.api.getConversation({ id: conversation.id });
    await app.services.close();

    app = await openChatApp(dataDir, app.secrets);
    const after = await app.api.getConversation({ id: conversation.id });
    expect(after).toEqual(before);
    expect(after.messages[1]?.content).toBe(reply.content);
    expect(
      (await app.api.searchMessages({ query: 'persist' })).map((hit) => hit.messageId),
    ).toContain(sent.userMessageId);
    expect(app.services.db.integrityCheck()).toBe('ok');
  });

  it('closing while a reply streams saves it as interrupted', async () => {
    await connect(slowRelay);
    const conversation = await newConversation(SLOW_MODEL);
    const sent = await app.api.sendMessage({ conversationId: conversation.id, text: 'long one' });
    await app.until(() => (app.deltas(sent.replyId).length >= 2 ? true : undefined));
    await app.services.close();
    app = await openChatApp(dataDir, app.secrets);
    const { messages } = await app.api.getConversation({ id: conversation.id });
    expect(messages[1]?.status).toBe('interrupted');
    expect(messages[1]?.content.length).toBeGreaterThan(0);
  });
});
