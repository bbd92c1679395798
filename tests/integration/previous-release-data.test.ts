/**
 * A user data folder written by Relay Desktop 0.1 (`tests/fixtures/data-0.1/`, made by
 * `make-data-0.1.ts`) opens in this version with everything in it: connections, settings, model
 * preferences, conversations (the crashed reply marked interrupted, its text kept), embeddings
 * runs and the gallery. Every later change to stored data adds its checks here.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const FIXTURE = join(import.meta.dirname, '../fixtures/data-0.1');

let dir: string;
let app: ChatApp | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-previous-release-'));
  await cp(FIXTURE, dir, { recursive: true });
});
afterEach(async () => {
  await app?.services.close();
  app = undefined;
  await rm(dir, { recursive: true, force: true });
});

function open(): Promise<ChatApp> {
  return openChatApp(join(dir, 'user-data'), undefined, { picturesDir: join(dir, 'Pictures') });
}

it('opens a 0.1 data folder with every conversation, message, run, image and setting', async () => {
  app = await open();
  const { api } = app;

  const connections = await api.listConnections();
  expect(connections.map((c) => c.name)).toEqual(['Work relay', 'Local relay']);
  expect(connections.find((c) => c.active)?.name).toBe('Local relay');
  // Keys were in the keychain of the machine that wrote the folder, never in it.
  expect(connections.every((c) => !c.hasKey)).toBe(true);

  const settings = await api.getSettings();
  expect(settings.theme).toBe('dark');
  expect(settings.chatDefaults).toEqual({ temperature: 0.7, maxTokens: 512 });

  const conversations = await api.listConversations();
  expect(conversations).toHaveLength(5);
  expect(conversations[0]).toMatchObject({ title: 'Maths notes', pinned: true });

  const crashed = conversations.find((c) => c.title === 'Cut off by a crash');
  const crashedHistory = await api.getConversation({ id: crashed!.id });
  expect(crashedHistory.messages.map((m) => [m.role, m.status, m.content])).toEqual([
    ['user', 'complete', 'Tell me a long story'],
    ['assistant', 'interrupted', 'Once upon a time, a relay'],
  ]);

  let messages = 0;
  for (const conversation of conversations) {
    const history = await api.getConversation({ id: conversation.id });
    messages += history.messages.length;
    // Counts and token sums are kept with each conversation since 0.2: worked out from the
    // messages when the folder is first opened.
    const sum = (
      pick: (usage: NonNullable<(typeof history.messages)[number]['usage']>) => number,
    ) => history.messages.reduce((total, m) => total + (m.usage ? (pick(m.usage) ?? 0) : 0), 0);
    expect(conversation.messageCount).toBe(history.messages.length);
    expect(conversation.usage).toEqual({
      promptTokens: sum((u) => u.promptTokens ?? 0),
      completionTokens: sum((u) => u.completionTokens ?? 0),
      totalTokens: sum((u) => u.totalTokens ?? 0),
    });
  }
  expect(messages).toBe(14);

  const hits = await api.searchMessages({ query: 'quarterly' });
  expect(hits.length).toBeGreaterThan(0);

  const runs = await api.listEmbeddingRuns();
  expect(runs).toHaveLength(2);

  // The gallery folder is read in the background; its images are listed once it has been.
  await expect
    .poll(async () => {
      const page = await api.listImages();
      return { total: page.total, indexing: page.indexing !== undefined };
    })
    .toEqual({ total: 2, indexing: false });
});
