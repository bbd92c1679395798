/**
 * Asking with knowledge bases, through the real router and bridge, against the demo relay and a
 * real SQLite file: a conversation linked to a base gets the retrieved chunks in its prompt as
 * numbered sources, and each reply keeps the record of its retrieval (scores, ranks, what went
 * in and what the budget cut) across a restart; pinning, excluding and asking again make a new
 * version beside the reply; a deleted base or a refused question embedding stops the message
 * before anything is written.
 */
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { migrate, openDatabase } from '../../electron/main/services/database';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import {
  KNOWLEDGE_DOMAIN,
  KNOWLEDGE_MIGRATIONS,
} from '../../electron/main/services/knowledge/migrations';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const FIXTURE = join(import.meta.dirname, '../fixtures/data-0.1');
const SAMPLES = join(import.meta.dirname, '../../resources/knowledge-samples');
const KEY = 'sk-demo-knowledge-ask-51b0';

let relay: DemoRelay;
let dir: string;
let app: ChatApp | undefined;
let secrets: MemorySecretStore;
/** The chat requests' bodies, in order. */
const chats: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];
/** The embeddings requests' inputs, in order. */
const embeddings: string[][] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url.endsWith('/chat/completions') && typeof init?.body === 'string')
    chats.push(JSON.parse(init.body) as (typeof chats)[number]);
  if (url.endsWith('/embeddings') && typeof init?.body === 'string') {
    const { input: inputs } = JSON.parse(init.body) as { input: string | string[] };
    embeddings.push(Array.isArray(inputs) ? inputs : [inputs]);
  }
  return fetch(input, init);
};

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 10_000 });
});
afterAll(async () => {
  await relay.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-knowledge-ask-'));
  chats.length = 0;
  embeddings.length = 0;
  secrets = new MemorySecretStore();
  relay.setBalance(KEY, 100);
  relay.setFaults(undefined);
});
afterEach(async () => {
  await app?.services.close();
  app = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function open(userData = join(dir, 'user-data')): Promise<ChatApp> {
  app = await openChatApp(userData, secrets, {
    picturesDir: join(dir, 'Pictures'),
    fetch: recordingFetch as never,
  });
  return app;
}

/** A connection, a base built from the shipped samples, and a conversation linked to it. */
async function linked(a: ChatApp, connect = true) {
  if (connect) await a.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
  const base = await a.api.createKnowledgeBase({ name: 'Samples', model: 'demo-embedding' });
  a.dialogs.folders.push(SAMPLES);
  const from = a.events.length;
  await a.api.addKnowledgeSources({ id: base.id, kind: 'folder' });
  await a.until(() =>
    a.events
      .slice(from)
      .find((e) => e.channel === 'knowledge:index-ended' && e.payload.kbId === base.id),
  );
  const { id } = await a.api.createConversation({ model: 'demo-chat-fast' });
  const settings = await a.api.setConversationKnowledge({ conversationId: id, kbIds: [base.id] });
  return { base, conversationId: id, settings };
}

describe('asking with a knowledge base', () => {
  it('puts the top chunks in the prompt as numbered sources and keeps the record across a restart', async () => {
    const a = await open();
    const { base, conversationId, settings } = await linked(a);
    expect(settings).toMatchObject({
      bases: [{ id: base.id, name: 'Samples', missing: false }],
      topK: 6,
      pinned: [],
      excluded: [],
    });

    const question = 'When does the ferry leave the pier?';
    const sent = await a.api.sendMessage({ conversationId, text: question });
    const reply = await a.finished(sent.replyId);
    expect(reply.status).toBe('complete');

    // The request: the instructions after the system prompt, the sources after the question.
    const request = chats.at(-1)!;
    const system = request.messages.find((m) => m.role === 'system');
    expect(system?.content).toContain('cite each source you use as [n]');
    const asked = request.messages.at(-1)!;
    expect(asked.role).toBe('user');
    expect(
      asked.content.startsWith(`${question}\n\n<knowledge-sources>\n[1] harbour-office.md`),
    ).toBe(true);
    // The demo model quotes the source that answers, and cites it.
    expect(reply.content).toContain('### From your sources');
    expect(reply.content).toContain(
      '“The ferry to the island leaves the pier every hour from seven in the morning.” [1]',
    );

    const record = await a.api.getRetrieval({ messageId: sent.replyId });
    expect(record).not.toBeNull();
    expect(record!.question).toBe(question);
    expect(record!.chunks[0]).toMatchObject({
      rank: 1,
      fileName: 'harbour-office.md',
      placement: 'prompt',
      source: 1,
      pinned: false,
      kbName: 'Samples',
      position: { headings: ['Harbour office handbook', 'Ferry timetable'] },
    });
    const scores = record!.chunks.map((c) => c.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(record!.chunks.length).toBeLessThanOrEqual(6);
    // Each source in the prompt is numbered as the record says.
    for (const chunk of record!.chunks.filter((c) => c.placement === 'prompt'))
      expect(asked.content).toContain(`[${chunk.source}] ${chunk.fileName} · `);
    expect(record!.map?.question).toHaveLength(256);
    expect(record!.map?.chunks).toHaveLength(record!.chunks.length);
    expect(await a.api.listRetrievals({ conversationId })).toEqual([sent.replyId]);

    // A reply asked before linking, or in another conversation, has none.
    expect(await a.api.getRetrieval({ messageId: sent.userMessageId })).toBeNull();

    await a.services.close();
    const b = await open();
    expect(await b.api.getRetrieval({ messageId: sent.replyId })).toEqual(record);
    expect((await b.api.getConversationKnowledge({ conversationId })).bases).toHaveLength(1);
  });

  it('cuts the lowest-ranked sources at the token budget and leaves out those under the threshold', async () => {
    const a = await open();
    const { conversationId } = await linked(a);
    await a.api.setConversationKnowledge({ conversationId, budgetTokens: 200, minScore: 0 });
    const sent = await a.api.sendMessage({ conversationId, text: 'How is sourdough bread baked?' });
    await a.finished(sent.replyId);
    const record = (await a.api.getRetrieval({ messageId: sent.replyId }))!;
    const inPrompt = record.chunks.filter((c) => c.placement === 'prompt');
    const cut = record.chunks.filter((c) => c.placement === 'budget');
    expect(inPrompt.length).toBeGreaterThan(0);
    expect(cut.length).toBeGreaterThan(0);
    expect(inPrompt.reduce((sum, c) => sum + c.tokens, 0)).toBeLessThanOrEqual(200);
    expect(record.promptTokens).toBe(inPrompt.reduce((sum, c) => sum + c.tokens, 0));
    expect(inPrompt[0]!.fileName).toBe('bakery-recipes.txt');
    const asked = chats.at(-1)!.messages.at(-1)!.content;
    for (const chunk of cut) expect(asked).not.toContain(chunk.text.trim());

    await a.api.setConversationKnowledge({ conversationId, minScore: 0.99 });
    const high = await a.api.sendMessage({ conversationId, text: 'How is sourdough bread baked?' });
    await a.finished(high.replyId);
    const none = (await a.api.getRetrieval({ messageId: high.replyId }))!;
    expect(none.chunks.every((c) => c.placement === 'threshold' && c.source === null)).toBe(true);
    expect(chats.at(-1)!.messages.at(-1)!.content).toBe('How is sourdough bread baked?');
  });

  it('excludes and pins chunks, and asks again as a new version beside the reply', async () => {
    const a = await open();
    const { conversationId } = await linked(a);
    const sent = await a.api.sendMessage({
      conversationId,
      text: 'When does the ferry leave the pier?',
    });
    await a.finished(sent.replyId);
    const first = (await a.api.getRetrieval({ messageId: sent.replyId }))!;
    const top = first.chunks[0]!;
    const last = first.chunks.at(-1)!;

    await a.api.steerRetrieval({ conversationId, chunkId: top.chunkId, action: 'exclude' });
    const steered = await a.api.steerRetrieval({
      conversationId,
      chunkId: last.chunkId,
      action: 'pin',
    });
    expect(steered).toMatchObject({ excluded: [top.chunkId], pinned: [last.chunkId] });

    const again = await a.api.regenerateReply({ conversationId, replyId: sent.replyId });
    expect(again.userMessageId).toBe(sent.userMessageId);
    await a.finished(again.replyId);
    const second = (await a.api.getRetrieval({ messageId: again.replyId }))!;
    expect(second.chunks[0]).toMatchObject({
      chunkId: last.chunkId,
      pinned: true,
      placement: 'prompt',
      source: 1,
    });
    expect(second.chunks.find((c) => c.chunkId === top.chunkId)?.placement).toBe('excluded');
    expect(chats.at(-1)!.messages.at(-1)!.content).not.toContain(top.text.trim());
    // The old reply keeps its own record; both are versions under the same question.
    expect(await a.api.getRetrieval({ messageId: sent.replyId })).toEqual(first);
    const shown = await a.api.getConversation({ id: conversationId });
    const reply = shown.messages.find((m) => m.id === again.replyId);
    expect(reply?.parentId).toBe(sent.userMessageId);
    expect(reply?.branch).toMatchObject({ index: 1, count: 2 });

    await a.api.steerRetrieval({ conversationId, chunkId: top.chunkId, action: 'include' });
    expect((await a.api.getConversationKnowledge({ conversationId })).excluded).toEqual([]);
  });

  it('compares models on one retrieval: every column is sent the same sources and keeps its record', async () => {
    const a = await open();
    const { conversationId } = await linked(a);
    const question = 'When does the ferry leave the pier?';
    const asked = embeddings.length;
    const started = await a.api.compareMessage({
      conversationId,
      text: question,
      targets: [{ model: 'demo-chat-fast' }, { model: 'demo-chat-fast', temperature: 0.2 }],
    });
    const ends = await Promise.all(started.replyIds.map((r) => a.finished(r)));
    expect(ends.map((e) => e.status)).toEqual(['complete', 'complete']);
    // The question was embedded once, for both columns.
    expect(embeddings.slice(asked)).toEqual([[question]]);

    // Both models were sent the same question with the same numbered sources.
    const requests = chats.slice(-2);
    expect(requests.map((r) => r.model)).toEqual(['demo-chat-fast', 'demo-chat-fast']);
    const sent = requests.map((r) => r.messages.at(-1)!.content);
    expect(sent[0]!.startsWith(`${question}\n\n<knowledge-sources>\n[1] harbour-office.md`)).toBe(
      true,
    );
    expect(sent[1]).toBe(sent[0]);
    for (const request of requests)
      expect(request.messages.find((m) => m.role === 'system')?.content).toContain(
        'cite each source you use as [n]',
      );
    for (const end of ends)
      expect(end.content).toContain(
        '“The ferry to the island leaves the pier every hour from seven in the morning.” [1]',
      );

    // Each column keeps a record (its X-ray and citations), the same retrieval for both.
    const records = await Promise.all(
      started.replyIds.map((messageId) => a.api.getRetrieval({ messageId })),
    );
    expect(records.map((r) => r?.messageId)).toEqual(started.replyIds);
    expect(records[0]!.question).toBe(question);
    expect(records[0]!.chunks[0]).toMatchObject({ fileName: 'harbour-office.md', source: 1 });
    expect({ ...records[1]!, messageId: '' }).toEqual({ ...records[0]!, messageId: '' });
    expect(await a.api.listRetrievals({ conversationId })).toEqual(
      expect.arrayContaining(started.replyIds),
    );
  });

  it('refuses a compare when the question cannot be searched, and writes nothing', async () => {
    const a = await open();
    const { conversationId } = await linked(a);
    relay.setBalance(KEY, 0);
    await expect(
      a.api.compareMessage({
        conversationId,
        text: 'When does the ferry leave?',
        targets: [{ model: 'demo-chat-fast' }, { model: 'demo-chat-mini' }],
      }),
    ).rejects.toMatchObject({
      kind: 'insufficient_balance',
      message: expect.stringContaining('knowledge base “Samples”, so it was not sent'),
    });
    expect((await a.api.getConversation({ id: conversationId })).messages).toEqual([]);
    expect(chats).toEqual([]);
  });

  it('continues a stopped reply with the sources it was asked with, without searching again', async () => {
    const a = await open();
    const { base, conversationId } = await linked(a);
    const question = 'When does the ferry leave the pier?';
    // The whole reply to the same question, in a conversation asking with the same base.
    const { id: other } = await a.api.createConversation({ model: 'demo-chat-fast' });
    await a.api.setConversationKnowledge({ conversationId: other, kbIds: [base.id] });
    const whole = await a.finished(
      (await a.api.sendMessage({ conversationId: other, text: question })).replyId,
    );
    expect(whole.content).toContain('### From your sources');

    relay.setFaults({ cutAfterChunks: 5, models: ['demo-chat-fast'] });
    const sent = await a.api.sendMessage({ conversationId, text: question });
    const stopped = await a.finished(sent.replyId);
    relay.setFaults(undefined);
    expect(stopped.status).toBe('interrupted');
    expect(whole.content.startsWith(stopped.content)).toBe(true);
    const firstAsked = chats.at(-1)!.messages;
    const record = await a.api.getRetrieval({ messageId: sent.replyId });

    // Steering meanwhile changes what a new reply would get, not what this one was asked with.
    await a.api.steerRetrieval({
      conversationId,
      chunkId: record!.chunks[0]!.chunkId,
      action: 'exclude',
    });
    const asked = embeddings.length;
    await a.api.continueReply({ replyId: sent.replyId });
    const end = await a.finished(sent.replyId, 2);
    expect(end.status).toBe('complete');
    expect(end.content).toBe(whole.content);
    expect(embeddings.length).toBe(asked);
    // The same messages as the first request, with the reply so far after them.
    const continued = chats.at(-1)!.messages;
    expect(continued.slice(0, -1)).toEqual(firstAsked);
    expect(continued.at(-1)).toEqual({ role: 'assistant', content: stopped.content });
    // The record stays the one of the reply.
    expect(await a.api.getRetrieval({ messageId: sent.replyId })).toEqual(record);
    expect(await a.api.listRetrievals({ conversationId })).toEqual([sent.replyId]);
  });

  it('continues a reply asked without a knowledge base without sources, even once one is linked', async () => {
    const a = await open();
    await a.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
    const { id: conversationId } = await a.api.createConversation({ model: 'demo-chat-fast' });
    relay.setFaults({ cutAfterChunks: 5, models: ['demo-chat-fast'] });
    const sent = await a.api.sendMessage({ conversationId, text: 'When does the ferry leave?' });
    expect((await a.finished(sent.replyId)).status).toBe('interrupted');
    relay.setFaults(undefined);
    const { base } = await linked(a, false);
    await a.api.setConversationKnowledge({ conversationId, kbIds: [base.id] });
    const asked = embeddings.length;
    await a.api.continueReply({ replyId: sent.replyId });
    const end = await a.finished(sent.replyId, 2);
    expect(end.status).toBe('complete');
    expect(embeddings.length).toBe(asked);
    expect(JSON.stringify(chats.at(-1)!.messages)).not.toContain('<knowledge-sources>');
    expect(await a.api.getRetrieval({ messageId: sent.replyId })).toBeNull();
  });

  it('refuses to send when a linked base was deleted, naming it, and writes nothing', async () => {
    const a = await open();
    const { base, conversationId } = await linked(a);
    await a.api.deleteKnowledgeBase({ id: base.id });
    expect((await a.api.getConversationKnowledge({ conversationId })).bases).toEqual([
      { id: base.id, name: 'Samples', missing: true },
    ]);
    await expect(
      a.api.sendMessage({ conversationId, text: 'When does the ferry leave?' }),
    ).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('“Samples” this conversation asks with was deleted'),
    });
    expect((await a.api.getConversation({ id: conversationId })).messages).toEqual([]);
    expect(chats).toEqual([]);
    // Unlinked, the conversation asks without it.
    await a.api.setConversationKnowledge({ conversationId, kbIds: [] });
    const sent = await a.api.sendMessage({ conversationId, text: 'Hello' });
    expect((await a.finished(sent.replyId)).status).toBe('complete');
    expect(await a.api.getRetrieval({ messageId: sent.replyId })).toBeNull();
  });

  it('does not send the message when the relay refuses to embed the question, and says why', async () => {
    const a = await open();
    const { conversationId } = await linked(a);
    relay.setBalance(KEY, 0);
    await expect(
      a.api.sendMessage({ conversationId, text: 'When does the ferry leave?' }),
    ).rejects.toMatchObject({
      kind: 'insufficient_balance',
      status: 402,
      message: expect.stringMatching(
        /^The question could not be searched in the knowledge base “Samples”, so it was not sent: Insufficient balance/,
      ),
    });
    expect((await a.api.getConversation({ id: conversationId })).messages).toEqual([]);
    expect(chats).toEqual([]);
  });

  it('refuses a link to a base that does not exist, and bad settings at the door', async () => {
    const a = await open();
    await a.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
    const { id } = await a.api.createConversation({ model: 'demo-chat-fast' });
    await expect(
      a.api.setConversationKnowledge({ conversationId: id, kbIds: ['no-such-base'] }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    await expect(
      a.api.setConversationKnowledge({ conversationId: id, topK: 0 }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(
      a.api.revealRetrievedFile({ messageId: 'nothing', chunkId: '1', action: 'show' }),
    ).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('the demo knowledge base', () => {
  it('builds from the shipped samples on the demo relay, leaving the active connection, and finds the right passages', async () => {
    const a = await open();
    const mine = await a.api.createConnection({ name: 'Mine', baseUrl: relay.url, apiKey: KEY });
    const from = a.events.length;
    const base = await a.api.createDemoKnowledgeBase();
    expect(base).toMatchObject({ name: 'Demo knowledge base', model: 'demo-embedding' });
    expect(base.connectionId).not.toBe(mine.id);
    await a.until(() =>
      a.events
        .slice(from)
        .find((e) => e.channel === 'knowledge:index-ended' && e.payload.kbId === base.id),
    );
    expect((await a.api.getKnowledgeBase({ id: base.id })).status).toBe('ready');
    expect((await a.api.listConnections()).find((c) => c.active)?.id).toBe(mine.id);

    const expected: Array<[string, string, string[]]> = [
      ['When does the ferry leave the pier?', 'harbour-office.md', ['Ferry timetable']],
      ['Where are mooring fees paid?', 'harbour-office.md', ['Mooring fees']],
      ['How often are tomatoes watered?', 'garden-club.md', ['Watering']],
      ['What goes in the compost heap?', 'garden-club.md', ['Compost']],
      ['How long is sourdough bread baked?', 'bakery-recipes.txt', []],
    ];
    for (const [question, file, heading] of expected) {
      const { hits } = await a.api.searchKnowledgeBase({ id: base.id, question, topK: 3 });
      expect(hits[0]?.fileName, question).toBe(file);
      expect(hits[0]?.position.headings.slice(1), question).toEqual(heading);
    }
  });
});

describe('the knowledge domain’s version 2 on earlier data', () => {
  it('adds the links and retrievals to a 0.1 folder whose knowledge bases were made by version 1', async () => {
    await cp(FIXTURE, dir, { recursive: true });
    const userData = join(dir, 'user-data');
    // The release before: knowledge at version 1, with a base in it.
    const db = await openDatabase({ path: join(userData, 'relay-desktop.db') });
    try {
      await migrate(db, KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS.slice(0, 1));
      db.run(
        `INSERT INTO knowledge_bases (id, name, model, connection_id, status, created_at, updated_at)
         VALUES ('kb-old', 'Old notes', 'demo-embedding', 'c1', 'empty', '2026-01-01', '2026-01-01')`,
      );
    } finally {
      db.close();
    }
    await mkdir(join(dir, 'Pictures'), { recursive: true });
    const a = await open(userData);
    expect((await a.api.listKnowledgeBases()).map((b) => b.name)).toEqual(['Old notes']);
    expect(await a.api.listConversations()).toHaveLength(5);
    expect(
      a.services.db.all(
        "SELECT version FROM schema_migrations WHERE domain = 'knowledge' ORDER BY version",
      ),
    ).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);
    const [conversation] = await a.api.listConversations();
    const linkedNow = await a.api.setConversationKnowledge({
      conversationId: conversation!.id,
      kbIds: ['kb-old'],
    });
    expect(linkedNow.bases).toEqual([{ id: 'kb-old', name: 'Old notes', missing: false }]);
    expect(
      (await readdir(userData)).filter((f) => f.includes('.before-knowledge-2-')),
    ).toHaveLength(1);
  });
});

describe('the knowledge domain’s version 3 on earlier data', () => {
  it('keeps the English of files refused before, as written, without a key', async () => {
    await cp(FIXTURE, dir, { recursive: true });
    const userData = join(dir, 'user-data');
    // The release before: knowledge at version 2, with a file refused in English only.
    const db = await openDatabase({ path: join(userData, 'relay-desktop.db') });
    const oldText = 'blob.bin was not added: it holds binary data, not text.';
    try {
      await migrate(db, KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS.slice(0, 2));
      db.run(
        `INSERT INTO knowledge_bases (id, name, model, connection_id, status, created_at, updated_at)
         VALUES ('kb-old', 'Old notes', 'demo-embedding', 'c1', 'ready', '2026-01-01', '2026-01-01')`,
      );
      db.run(
        `INSERT INTO knowledge_files (id, kb_id, path, name, size, mtime_ms, status, reason,
           message, updated_at)
         VALUES ('f-old', 'kb-old', '/gone/blob.bin', 'blob.bin', 4, 0, 'refused', 'binary', ?,
           '2026-01-01')`,
        [oldText],
      );
    } finally {
      db.close();
    }
    await mkdir(join(dir, 'Pictures'), { recursive: true });
    const a = await open(userData);
    expect(
      a.services.db.all(
        "SELECT version FROM schema_migrations WHERE domain = 'knowledge' ORDER BY version",
      ),
    ).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);
    const detail = await a.api.getKnowledgeBase({ id: 'kb-old' });
    // The old row shows its English as written: no key is made up for it.
    const [old] = detail.fileList;
    expect(old).toMatchObject({ name: 'blob.bin', status: 'refused', message: oldText });
    expect(old).not.toHaveProperty('messageId');
    expect(old).not.toHaveProperty('values');
    expect(
      (await readdir(userData)).filter((f) => f.includes('.before-knowledge-3-')),
    ).toHaveLength(1);
  });
});
