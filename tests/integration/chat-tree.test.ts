/**
 * Conversations as trees over the real router, services and the demo relay: regenerate and edit
 * as versions, what the model is asked with (the path, never another branch), switching, search
 * on another branch, "Branch from here", comparing models with one column failing, usage and
 * cost at the person's prices, and JSON and Markdown exports of a tree.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const KEY = 'sk-demo-tree-test-7d2e91b0';
const MODEL = 'demo-chat-fast';

let relay: DemoRelay;
let slowRelay: DemoRelay;
let dataDir: string;
let app: ChatApp;
/** The messages of every chat request sent, in order. */
let asked: Array<{ model: string; temperature?: number; messages: { content: string }[] }>;

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
  slowRelay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 40 });
});
afterAll(async () => {
  await relay.close();
  await slowRelay.close();
});
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-tree-'));
  asked = [];
  app = await openChatApp(dataDir, undefined, {
    fetch: async (url, init) => {
      if (url.endsWith('/chat/completions') && typeof init.body === 'string')
        asked.push(JSON.parse(init.body) as (typeof asked)[number]);
      return fetch(url, init);
    },
  });
  relay.setFaults(undefined);
  slowRelay.setFaults(undefined);
});
afterEach(async () => {
  await app.services.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function connect(target: DemoRelay = relay) {
  await app.api.createConnection({ name: 'Local', baseUrl: target.url, apiKey: KEY });
}

async function exchange(conversationId: string, text: string) {
  const sent = await app.api.sendMessage({ conversationId, text });
  await app.finished(sent.replyId);
  return sent;
}

const contents = (messages: { content: string }[]) => messages.map((m) => m.content.slice(0, 12));

describe('versions', () => {
  it('regenerates a reply in the middle: a version beside it, asked with the path before it only', async () => {
    await connect();
    const { id } = await app.api.createConversation({ model: MODEL });
    const one = await exchange(id, 'question one');
    await exchange(id, 'question two');
    asked = [];

    const again = await app.api.regenerateReply({ conversationId: id, replyId: one.replyId });
    expect(again.userMessageId).toBe(one.userMessageId);
    await app.finished(again.replyId);
    expect(asked.map((r) => r.messages.map((m) => m.content))).toEqual([['question one']]);

    const { messages } = await app.api.getConversation({ id });
    expect(messages.map((m) => m.id)).toEqual([one.userMessageId, again.replyId]);
    expect(messages[1]!.branch).toEqual({
      index: 1,
      count: 2,
      previousId: one.replyId,
      nextId: null,
    });
    expect(messages[1]!.timing?.durationMs).toBeGreaterThanOrEqual(0);
    expect(messages[1]!.temperature).toBe(1);

    // Back to the first version: question two and its reply come back with it.
    const shown = await app.api.showVersion({ messageId: one.replyId });
    expect(shown.messages.map((m) => m.id)[0]).toBe(one.replyId);
    expect(contents(shown.messages).slice(1, 2)).toEqual(['question two']);
    const whole = await app.api.getConversation({ id });
    expect(whole.messages).toHaveLength(4);

    // A new message goes under the path's end, and is asked with that path only.
    asked = [];
    await exchange(id, 'question three');
    expect(asked[0]!.messages.map((m) => m.content.slice(0, 12))).toEqual([
      'question one',
      expect.any(String),
      'question two',
      expect.any(String),
      'question thr',
    ]);
    const summary = (await app.api.listConversations()).find((c) => c.id === id)!;
    expect(summary.messageCount).toBe(7);
  });

  it('a switch answers the first page of the path from the version, and the rest pages forward', async () => {
    await connect();
    const { id } = await app.api.createConversation({ model: MODEL });
    const one = await exchange(id, 'question one');
    const two = await exchange(id, 'question two');
    const three = await exchange(id, 'question three');
    const again = await app.api.regenerateReply({ conversationId: id, replyId: one.replyId });
    await app.finished(again.replyId);
    await exchange(id, 'question four');

    const shown = await app.api.showVersion({ messageId: one.replyId, limit: 2 });
    expect(shown.messages.map((m) => m.id)).toEqual([one.replyId, two.userMessageId]);
    expect(shown.messages[0]!.branch).toMatchObject({ index: 0, count: 2 });
    expect(shown).toMatchObject({ hasNewer: true, leafId: three.replyId });

    const next = await app.api.getConversation({ id, limit: 2, afterId: two.userMessageId });
    expect(next.messages.map((m) => m.id)).toEqual([two.replyId, three.userMessageId]);
    expect(next).toMatchObject({ hasNewer: true, hasOlder: true });
    const last = await app.api.getConversation({ id, limit: 2, afterId: three.userMessageId });
    expect(last.messages.map((m) => m.id)).toEqual([three.replyId]);
    expect(last.hasNewer).toBe(false);

    // Without a limit, all of it (as before); the newest page never says there is more.
    const whole = await app.api.showVersion({ messageId: one.replyId });
    expect(whole.messages).toHaveLength(5);
    expect(whole.hasNewer).toBe(false);
    expect((await app.api.getConversation({ id, limit: 50 })).hasNewer).toBe(false);

    // A message of the other branch is not on the path: said, not answered with a wrong page.
    await expect(
      app.api.getConversation({ id, limit: 2, afterId: again.replyId }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await expect(
      app.api.getConversation({ id, limit: 2, afterId: one.replyId, beforeId: three.replyId }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
  });

  it('a switch whose path ends in a reply still being written answers that reply too', async () => {
    await connect();
    const { id } = await app.api.createConversation({ model: MODEL });
    const one = await exchange(id, 'question one');
    await exchange(id, 'question two');
    const again = await app.api.regenerateReply({ conversationId: id, replyId: one.replyId });
    await app.finished(again.replyId);
    // A finished path end beyond the page: nothing more than the page.
    const finished = await app.api.showVersion({ messageId: one.replyId, limit: 2 });
    expect(finished.hasNewer).toBe(true);
    expect(finished.end).toBeUndefined();

    // A reply that goes on streaming at the end of the first version's path.
    relay.setFaults({ stallAfterHeaders: true, failOnce: true });
    const live = await app.api.sendMessage({ conversationId: id, text: 'question three' });
    await app.api.showVersion({ messageId: again.replyId });
    const shown = await app.api.showVersion({ messageId: one.replyId, limit: 2 });
    expect(shown).toMatchObject({ hasNewer: true, leafId: live.replyId });
    expect(shown.end).toMatchObject({ id: live.replyId, status: 'streaming', role: 'assistant' });
    // The whole path reaches it anyway: it is not given twice.
    expect((await app.api.showVersion({ messageId: one.replyId })).end).toBeUndefined();

    await app.api.stopReply({ replyId: live.replyId });
    await app.finished(live.replyId);
  });

  it('a search hit on another branch shows that branch', async () => {
    await connect();
    const { id } = await app.api.createConversation({ model: MODEL });
    const first = await exchange(id, 'the walrus question');
    await app.finished(
      (await app.api.editMessage({ messageId: first.userMessageId, text: 'the otter question' }))
        .replyId,
    );
    const hit = (await app.api.searchMessages({ query: 'walrus' })).find((h) => h.role === 'user');
    expect(hit).toMatchObject({ conversationId: id, messageId: first.userMessageId });
    expect(contents((await app.api.getConversation({ id })).messages)[0]).toBe('the otter qu');
    await app.api.showVersion({ messageId: hit!.messageId });
    const page = await app.api.getConversation({ id, limit: 50, fromId: hit!.messageId });
    expect(contents(page.messages)).toEqual(['the walrus q', expect.any(String)]);
  });

  it('regenerate refuses a reply of another conversation, and a missing one', async () => {
    await connect();
    const a = await app.api.createConversation({ model: MODEL });
    const b = await app.api.createConversation({ model: MODEL });
    const sent = await exchange(a.id, 'hello');
    await expect(
      app.api.regenerateReply({ conversationId: b.id, replyId: sent.replyId }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(
      app.api.regenerateReply({ conversationId: a.id, replyId: 'gone' }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await expect(app.api.showVersion({ messageId: 'gone' })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});

describe('branch from here', () => {
  it('forks a copy of the path up to a message, with the settings; each lives without the other', async () => {
    await connect();
    const source = await app.api.createConversation({ model: MODEL, systemPrompt: 'Be kind.' });
    const one = await exchange(source.id, 'first');
    await exchange(source.id, 'second');
    const fork = await app.api.forkConversation({ messageId: one.replyId });
    expect(fork).toMatchObject({
      title: 'first (branch)',
      systemPrompt: 'Be kind.',
      model: MODEL,
      forkedFrom: { conversationId: source.id, messageId: one.replyId, title: 'first' },
    });
    const forked = await app.api.getConversation({ id: fork.id });
    expect(forked.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    await exchange(fork.id, 'only in the branch');
    expect((await app.api.getConversation({ id: source.id })).messages).toHaveLength(4);

    await app.api.deleteConversation({ id: source.id });
    expect((await app.api.getConversation({ id: fork.id })).messages).toHaveLength(4);
  });

  it('refuses a reply still being written', async () => {
    await connect(slowRelay);
    const { id } = await app.api.createConversation({ model: 'demo-chat' });
    const sent = await app.api.sendMessage({ conversationId: id, text: 'a long one' });
    await expect(app.api.forkConversation({ messageId: sent.replyId })).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringMatching(/still being written/),
    });
    await app.api.stopReply({ replyId: sent.replyId });
    await app.finished(sent.replyId);
  });
});

describe('compare', () => {
  it('asks several models at once; one fails alone; continue makes the choice the path', async () => {
    await connect(slowRelay);
    const { id } = await app.api.createConversation({ model: 'demo-chat' });
    await exchange(id, 'warm up');
    slowRelay.setFaults({ status: 400, models: ['demo-chat-fast'] });
    const started = await app.api.compareMessage({
      conversationId: id,
      text: 'Compare these',
      targets: [
        { model: 'demo-chat' },
        { model: 'demo-chat-mini' },
        { model: 'demo-chat-fast' },
        { model: 'demo-chat-mini', temperature: 0.2 },
      ],
    });
    expect(started.replyIds).toHaveLength(4);
    // All four were sent before any finished: they run at once.
    await app.until(() => (asked.length >= 4 ? true : undefined));
    const ends = await Promise.all(started.replyIds.map((r) => app.finished(r)));
    expect(ends.map((e) => e.status)).toEqual(['complete', 'complete', 'error', 'complete']);
    expect(ends[2]!.error).toMatchObject({ status: 400 });
    // Each asked with the same path, and its own model and temperature.
    expect(
      asked
        .slice(-4)
        .map((r) => `${r.model} ${r.temperature}`)
        .sort(),
    ).toEqual(['demo-chat 1', 'demo-chat-fast 1', 'demo-chat-mini 0.2', 'demo-chat-mini 1']);
    expect(new Set(asked.slice(-4).map((r) => JSON.stringify(r.messages))).size).toBe(1);
    // The models read differently, and so do the two temperatures.
    expect(ends[0]!.content).toContain('## ');
    expect(ends[1]!.content).not.toContain('## ');
    expect(ends[1]!.content.length).toBeLessThan(ends[0]!.content.length / 2);
    expect(ends[3]!.content).not.toBe(ends[1]!.content);

    const open = await app.api.getConversation({ id });
    expect(open.messages.at(-1)).toMatchObject({ id: started.userMessageId, role: 'user' });
    expect(open.compare?.replies.map((r) => r.id)).toEqual(started.replyIds);
    expect(new Set(open.compare?.replies.map((r) => r.batchId)).size).toBe(1);
    // Nothing new until a reply is chosen.
    await expect(app.api.sendMessage({ conversationId: id, text: 'next' })).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringMatching(/Choose the reply to continue with/),
    });

    await app.api.continueWith({ replyId: started.replyIds[1]! });
    const chosen = await app.api.getConversation({ id });
    expect(chosen.compare).toBeUndefined();
    expect(chosen.messages.at(-1)).toMatchObject({
      id: started.replyIds[1],
      branch: { index: 1, count: 4 },
    });
    slowRelay.setFaults(undefined);
    asked = [];
    await exchange(id, 'next');
    expect(asked[0]!.messages.at(-2)!.content).toBe(ends[1]!.content);
  });

  it('stops one column alone; continue stops the others still being written, keeping their text', async () => {
    await connect(slowRelay);
    const { id } = await app.api.createConversation({ model: 'demo-chat' });
    const started = await app.api.compareMessage({
      conversationId: id,
      text: 'Race',
      targets: [
        { model: 'demo-chat' },
        { model: 'demo-chat', temperature: 0.5 },
        { model: 'demo-chat-mini' },
      ],
    });
    const [slow, slower, quick] = started.replyIds as [string, string, string];
    await app.until(() => (app.deltas(slow).length > 0 ? true : undefined));
    await app.api.stopReply({ replyId: slow });
    expect((await app.finished(slow)).status).toBe('interrupted');
    expect((await app.finished(quick)).status).toBe('complete');
    expect(
      app.events.some((e) => e.channel === 'chat:reply-finished' && e.payload.replyId === slower),
    ).toBe(false);

    await app.api.continueWith({ replyId: quick });
    const end = await app.finished(slower);
    expect(end.status).toBe('interrupted');
    expect(end.content.length).toBeGreaterThan(0);
    expect((await app.api.getConversation({ id })).messages.at(-1)!.id).toBe(quick);
  });

  it('continues with the chosen column’s model, and its temperature when the compare was over temperatures', async () => {
    await connect();
    const { id } = await app.api.createConversation({ model: 'demo-chat' });
    const models = await app.api.compareMessage({
      conversationId: id,
      text: 'Two models',
      targets: [{ model: 'demo-chat' }, { model: 'demo-chat-mini' }],
    });
    await Promise.all(models.replyIds.map((r) => app.finished(r)));
    await app.api.continueWith({ replyId: models.replyIds[1]! });
    let open = await app.api.getConversation({ id });
    // The model follows the choice; the temperature, the same in both columns, stays unset.
    expect(open.conversation).toMatchObject({ model: 'demo-chat-mini', temperature: null });
    asked = [];
    await exchange(id, 'next');
    expect(asked[0]).toMatchObject({ model: 'demo-chat-mini' });

    const temperatures = await app.api.compareMessage({
      conversationId: id,
      text: 'Two temperatures',
      targets: [
        { model: 'demo-chat-mini', temperature: 0.2 },
        { model: 'demo-chat-mini', temperature: 1.5 },
      ],
    });
    await Promise.all(temperatures.replyIds.map((r) => app.finished(r)));
    await app.api.continueWith({ replyId: temperatures.replyIds[1]! });
    open = await app.api.getConversation({ id });
    expect(open.conversation).toMatchObject({ model: 'demo-chat-mini', temperature: 1.5 });
    asked = [];
    await exchange(id, 'and after');
    expect(asked[0]).toMatchObject({ model: 'demo-chat-mini', temperature: 1.5 });
  });

  it('a 429 on one column counts down there, the others go on, and it finishes after its wait', async () => {
    await connect(slowRelay);
    const { id } = await app.api.createConversation({ model: 'demo-chat' });
    slowRelay.setFaults({ status: 429, models: ['demo-chat-mini'], failOnce: true });
    const started = await app.api.compareMessage({
      conversationId: id,
      text: 'Rate limits',
      targets: [{ model: 'demo-chat' }, { model: 'demo-chat-mini' }],
    });
    const [steady, limited] = started.replyIds as [string, string];
    const retry = await app.until(
      () => app.events.find((e) => e.channel === 'relay:retry-scheduled')?.payload,
    );
    expect(retry).toMatchObject({ requestId: limited, attempt: 1, delayMs: 1000 });
    const ends = await Promise.all([app.finished(steady), app.finished(limited)]);
    expect(ends.map((e) => e.status)).toEqual(['complete', 'complete']);
    // The other column streamed during the wait.
    expect(app.deltas(steady)[0]!.at).toBeLessThan(app.deltas(limited)[0]!.at - 500);
    expect(
      app.events.filter(
        (e) => e.channel === 'relay:retry-scheduled' && e.payload.requestId === steady,
      ),
    ).toEqual([]);
  });

  it('sends every streaming reply in one delta event per frame', async () => {
    await connect(slowRelay);
    const { id } = await app.api.createConversation({ model: 'demo-chat' });
    const started = await app.api.compareMessage({
      conversationId: id,
      text: 'Side by side',
      targets: [{ model: 'demo-chat' }, { model: 'demo-chat', temperature: 0.3 }],
    });
    await Promise.all(started.replyIds.map((r) => app.finished(r)));
    const together = app.events.filter(
      (e) => e.channel === 'chat:delta' && (e.payload.deltas as unknown[]).length === 2,
    );
    expect(together.length).toBeGreaterThan(0);
  });

  it('refuses fewer than two or more than four columns', async () => {
    await connect();
    const { id } = await app.api.createConversation({ model: MODEL });
    await expect(
      app.api.compareMessage({ conversationId: id, text: 'x', targets: [{ model: MODEL }] }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(
      app.api.compareMessage({
        conversationId: id,
        text: 'x',
        targets: Array.from({ length: 5 }, () => ({ model: MODEL })),
      }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
  });
});

describe('usage and prices', () => {
  it('prices a conversation, every branch, and shows usage per model and day', async () => {
    await connect();
    const { id } = await app.api.createConversation({ model: MODEL });
    const sent = await exchange(id, 'count my tokens');
    await app.finished((await app.api.regenerateReply({ conversationId: id })).replyId);
    await app.finished(
      (
        await app.api.compareMessage({
          conversationId: id,
          text: 'and these',
          targets: [{ model: MODEL }, { model: 'demo-chat-mini' }],
        })
      ).replyIds[1]!,
    );
    await app.until(() =>
      app.events.filter((e) => e.channel === 'chat:reply-finished').length >= 4 ? true : undefined,
    );

    const unpriced = await app.api.getConversationCost({ id });
    expect(unpriced.amount).toBeNull();
    expect(unpriced.unpriced.sort()).toEqual(['demo-chat-fast', 'demo-chat-mini']);
    const fast = unpriced.byModel.find((m) => m.model === MODEL)!;
    expect(fast.replies).toBe(3);

    await app.api.setModelPrice({
      modelId: MODEL,
      price: { inputPerMillion: 2, outputPerMillion: 10 },
    });
    const priced = await app.api.getConversationCost({ id });
    expect(priced.amount).toBeCloseTo(
      (fast.promptTokens * 2 + fast.completionTokens * 10) / 1e6,
      12,
    );
    expect(priced.unpriced).toEqual(['demo-chat-mini']);
    expect(priced.currency).toBe('USD');

    // Deleting the conversation keeps what was spent in the usage.
    await app.api.deleteConversation({ id });
    const usage = await app.api.getUsage({ days: 30 });
    expect(usage.days).toHaveLength(30);
    const today = usage.days.at(-1)!;
    expect(today.byModel.map((m) => m.model).sort()).toEqual(['demo-chat-fast', 'demo-chat-mini']);
    expect(usage.byModel.find((m) => m.model === MODEL)).toMatchObject({
      replies: 3,
      promptTokens: fast.promptTokens,
      completionTokens: fast.completionTokens,
      cost: priced.amount,
    });
    expect(usage.days.slice(0, -1).every((d) => d.byModel.length === 0)).toBe(true);
    expect(sent.replyId).toBeTruthy();
  });

  it('imports a price list, refusing a bad one whole with where it is wrong', async () => {
    const good = join(dataDir, 'prices.json');
    await writeFile(
      good,
      JSON.stringify({
        'model-a': { input: 1, output: 2 },
        'model-b': { input: 0.5, output: 0.5 },
      }),
    );
    app.dialogs.openPaths.push([good]);
    const imported = await app.api.importPrices();
    expect(imported).toMatchObject({ cancelled: false, imported: 2 });
    expect(imported.prices.prices['model-a']).toEqual({ inputPerMillion: 1, outputPerMillion: 2 });

    const bad = join(dataDir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({
        format: 'relay-desktop-prices',
        version: 1,
        currency: 'EUR',
        prices: { 'model-a': { inputPerMillion: 3, outputPerMillion: -1 } },
      }),
    );
    app.dialogs.openPaths.push([bad]);
    await expect(app.api.importPrices()).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringMatching(/bad\.json cannot be imported: .*negative.*prices.*model-a/),
    });
    const after = await app.api.listPrices();
    expect(after).toEqual({
      currency: 'USD',
      prices: {
        'model-a': { inputPerMillion: 1, outputPerMillion: 2 },
        'model-b': { inputPerMillion: 0.5, outputPerMillion: 0.5 },
      },
    });

    const saved = join(dataDir, 'out.json');
    app.dialogs.savePaths.push(saved);
    await app.api.setPriceCurrency({ currency: 'eur' });
    await app.api.exportPrices();
    app.dialogs.openPaths.push([saved]);
    await app.api.setModelPrice({ modelId: 'model-b', price: null });
    expect((await app.api.importPrices()).prices).toEqual({ ...after, currency: 'EUR' });
    expect(JSON.parse(await readFile(saved, 'utf8'))).toMatchObject({
      format: 'relay-desktop-prices',
      version: 1,
    });
  });
});

describe('exports of a tree', () => {
  it('JSON keeps every version and the path shown; Markdown holds the path and says so', async () => {
    await connect();
    const { id } = await app.api.createConversation({ model: MODEL });
    const one = await exchange(id, 'first version');
    await app.finished(
      (await app.api.editMessage({ messageId: one.userMessageId, text: 'second version' })).replyId,
    );
    await app.api.showVersion({ messageId: one.userMessageId });

    const json = join(dataDir, 'tree.json');
    app.dialogs.savePaths.push(json);
    await app.api.exportConversations({ ids: [id], format: 'json' });
    const markdown = join(dataDir, 'tree.md');
    app.dialogs.savePaths.push(markdown);
    await app.api.exportConversations({ ids: [id], format: 'markdown' });

    const text = await readFile(markdown, 'utf8');
    expect(text).toContain('first version');
    expect(text).not.toContain('second version');
    expect(text).toMatch(/the path shown in Relay Desktop: 2 of the conversation's 4 messages/);

    app.dialogs.openPaths.push([json]);
    const [copy] = (await app.api.importConversations()).conversationIds;
    const imported = await app.api.getConversation({ id: copy! });
    expect(contents(imported.messages)).toEqual(['first versio', expect.any(String)]);
    expect(imported.messages[0]!.branch).toMatchObject({ index: 0, count: 2 });
    const other = await app.api.showVersion({ messageId: imported.messages[0]!.branch!.nextId! });
    expect(contents(other.messages)[0]).toBe('second versi');
    // New ids: the same file imported twice gives two conversations.
    expect(imported.messages[0]!.id).not.toBe(one.userMessageId);
  });

  it('refuses a tree whose parent comes after its child, saying where', async () => {
    const file = join(dataDir, 'broken.json');
    const at = '2026-01-01T00:00:00.000Z';
    await writeFile(
      file,
      JSON.stringify({
        format: 'relay-desktop-chat',
        version: 2,
        exportedAt: at,
        conversations: [
          {
            title: 'Broken',
            createdAt: at,
            updatedAt: at,
            pinned: false,
            model: null,
            systemPrompt: '',
            temperature: null,
            maxTokens: null,
            messages: [
              {
                id: 'b',
                parentId: 'a',
                role: 'assistant',
                content: 'x',
                status: 'complete',
                createdAt: at,
              },
              {
                id: 'a',
                parentId: null,
                role: 'user',
                content: 'y',
                status: 'complete',
                createdAt: at,
              },
            ],
          },
        ],
      }),
    );
    app.dialogs.openPaths.push([file]);
    await expect(app.api.importConversations()).rejects.toMatchObject({
      message: expect.stringMatching(
        /broken\.json cannot be imported: the parentId "a" names no message before this one \(at conversations\[0\]\.messages\[0\]\.parentId\)/,
      ),
    });
  });
});
