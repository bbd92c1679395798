/**
 * A reply asked with a knowledge base keeps its retrieval record through export and import: the
 * question, each chunk with its text, file, position, score, rank, placement and number, and the
 * vectors of the map, so that the citations and the X-ray work on the imported conversation;
 * its file is shown once it is a file of a knowledge base on this computer, and refused plainly
 * otherwise (an import names files the person never chose). Markdown
 * lists a reply's sources under it.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { chatExportSchema } from '../../electron/main/services/chat/transfer';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const SAMPLES = join(import.meta.dirname, '../../resources/knowledge-samples');
const KEY = 'sk-demo-export-retrieval-77d0';

let relay: DemoRelay;
let dir: string;
const apps: ChatApp[] = [];

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
});
afterAll(async () => {
  await relay.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-export-retrieval-'));
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.services.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(name: string): Promise<ChatApp> {
  const app = await openChatApp(join(dir, name));
  apps.push(app);
  await app.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
  return app;
}

/** A conversation asking with a base built from a copy of the samples, and one reply. */
async function askedWithKnowledge(a: ChatApp, folder: string) {
  const base = await a.api.createKnowledgeBase({ name: 'Samples', model: 'demo-embedding' });
  a.dialogs.folders.push(folder);
  const from = a.events.length;
  await a.api.addKnowledgeSources({ id: base.id, kind: 'folder' });
  await a.until(() =>
    a.events
      .slice(from)
      .find((e) => e.channel === 'knowledge:index-ended' && e.payload.kbId === base.id),
  );
  const { id } = await a.api.createConversation({ model: 'demo-chat-fast' });
  await a.api.setConversationKnowledge({ conversationId: id, kbIds: [base.id] });
  await a.api.renameConversation({ id, title: 'Ferry times' });
  const sent = await a.api.sendMessage({
    conversationId: id,
    text: 'When does the ferry leave the pier?',
  });
  await a.finished(sent.replyId);
  const record = (await a.api.getRetrieval({ messageId: sent.replyId }))!;
  expect(record.chunks.length).toBeGreaterThan(1);
  return { conversationId: id, replyId: sent.replyId, record };
}

describe('retrieval records in export and import', () => {
  it('keeps a reply’s record through a zip, and refuses its file plainly once it is not here', async () => {
    const folder = join(dir, 'samples');
    await cp(SAMPLES, folder, { recursive: true });
    const a = await open('first');
    const { conversationId, replyId, record } = await askedWithKnowledge(a, folder);

    const path = join(dir, 'ferry.zip');
    a.dialogs.savePaths.push(path);
    await a.api.exportConversations({ ids: [conversationId], format: 'zip' });
    const entries = unzipSync(new Uint8Array(await readFile(path)));
    const document = chatExportSchema.parse(JSON.parse(strFromU8(entries['Ferry-times.json']!)));
    const exported = document.conversations[0]!.messages[1]!.retrieval!;
    expect(exported.question).toBe('When does the ferry leave the pier?');
    expect(exported.vectors?.dimensions).toBe(256);

    const b = await open('second');
    b.dialogs.openPaths.push([path]);
    const imported = await b.api.importConversations();
    expect(imported.refused).toEqual([]);
    const newId = imported.conversationIds[0]!;
    const { messages } = await b.api.getConversation({ id: newId });
    const newReply = messages[1]!.id;
    expect(newReply).not.toBe(replyId);
    expect(await b.api.listRetrievals({ conversationId: newId })).toEqual([newReply]);
    // The same record, the map's vectors to the last bit, under the new ids.
    expect(await b.api.getRetrieval({ messageId: newReply })).toEqual({
      ...record,
      messageId: newReply,
      conversationId: newId,
    });
    // The reply's citations still point at sources the record holds.
    expect(messages[1]!.content).toContain('[1]');

    // The import named the file: it is not used until it is a file of a knowledge base here.
    const chunk = record.chunks.find((c) => c.placement === 'prompt')!;
    const notHere = `${chunk.fileName} is not on this computer at ${chunk.path}: it was moved or deleted, or this conversation was imported from another computer. The passage itself is kept with the reply.`;
    await expect(
      b.api.revealRetrievedFile({ messageId: newReply, chunkId: chunk.chunkId, action: 'show' }),
    ).rejects.toThrow(notHere);
    expect(b.shown).toEqual([]);
    // Added to a base of this computer's, it is shown and opened. Then gone: refused by name.
    const base = await b.api.createKnowledgeBase({ name: 'Samples', model: 'demo-embedding' });
    b.dialogs.folders.push(folder);
    const from = b.events.length;
    await b.api.addKnowledgeSources({ id: base.id, kind: 'folder' });
    await b.until(() => b.events.slice(from).find((e) => e.channel === 'knowledge:index-ended'));
    await b.api.revealRetrievedFile({
      messageId: newReply,
      chunkId: chunk.chunkId,
      action: 'show',
    });
    expect(b.shown).toEqual([chunk.path]);
    await b.api.revealRetrievedFile({
      messageId: newReply,
      chunkId: chunk.chunkId,
      action: 'open',
    });
    expect(b.opened).toEqual([chunk.path]);
    await rm(folder, { recursive: true, force: true });
    for (const action of ['show', 'open'] as const)
      await expect(
        b.api.revealRetrievedFile({ messageId: newReply, chunkId: chunk.chunkId, action }),
      ).rejects.toThrow(notHere);
    expect(b.shown).toHaveLength(1);
    expect(b.opened).toHaveLength(1);
    expect((await b.api.getRetrieval({ messageId: newReply }))!.chunks[0]!.text).toBe(
      record.chunks[0]!.text,
    );
  });

  it('Markdown lists the sources a reply cited under it', async () => {
    const a = await open('first');
    const { conversationId, record } = await askedWithKnowledge(a, SAMPLES);
    const path = join(dir, 'ferry.md');
    a.dialogs.savePaths.push(path);
    await a.api.exportConversations({ ids: [conversationId], format: 'markdown' });
    const markdown = await readFile(path, 'utf8');
    const cited = record.chunks
      .filter((c) => c.source !== null)
      .sort((x, y) => x.source! - y.source!);
    expect(cited.length).toBeGreaterThan(0);
    const first = cited[0]!;
    expect(markdown).toContain(
      `**Sources**\n\n- [1] ${first.fileName} · lines ${first.position.lineStart}-`,
    );
    expect(markdown.match(/^- \[\d+\] /gm)).toHaveLength(cited.length);
  });

  it('refuses an export whose vectors do not fit its chunks, naming the field', async () => {
    const a = await open('first');
    const { conversationId } = await askedWithKnowledge(a, SAMPLES);
    const path = join(dir, 'ferry.json');
    a.dialogs.savePaths.push(path);
    await a.api.exportConversations({ ids: [conversationId], format: 'json' });
    const document = JSON.parse(await readFile(path, 'utf8')) as {
      conversations: Array<{ messages: Array<{ retrieval?: { vectors: { float32: string } } }> }>;
    };
    const vectors = document.conversations[0]!.messages[1]!.retrieval!.vectors;
    vectors.float32 = vectors.float32.slice(8);
    await writeFile(path, JSON.stringify(document));
    a.dialogs.openPaths.push([path]);
    await expect(a.api.importConversations()).rejects.toThrow(
      /ferry\.json cannot be imported: the vectors hold \d+ bytes, not the \d+ of \d+ vectors of 256 dimensions \(at conversations\[0\]\.messages\[1\]\.retrieval\.vectors\.float32\)\. Nothing was imported\./,
    );
  });
});
