/**
 * A user data folder written by Relay Desktop 0.1 (`tests/fixtures/data-0.1/`, made by
 * `make-data-0.1.ts`) opens in this version with everything in it: connections, settings, model
 * preferences, conversations (the crashed reply marked interrupted, its text kept), embeddings
 * runs and the gallery. Every later change to stored data adds its checks here.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { databasePath, openDatabase, type Db } from '../../electron/main/services/database';
import {
  MODEL_PREFERENCES_FILE,
  ModelCatalog,
} from '../../electron/main/services/models/model-catalog';
import { readModelList } from '../../electron/main/services/relay/models';
import type { RelayClient } from '../../electron/main/services/relay/relay-client';
import { readBoundSecret } from '../../electron/main/services/connections/secrets';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
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
  // 0.1 named images by their hashes; they are named by their prompts and dates now, the hash
  // in the sidecar, and the page still finds each by its id.
  const gallery = await api.listImages();
  expect(gallery.images.map((i) => i.fileName)).toEqual([
    'a-red-bicycle-2026-11-24-1.png',
    'a-lighthouse-at-dusk-2026-11-24-1.png',
  ]);
  const folder = join(dir, 'Pictures', 'Relay Desktop');
  expect((await readdir(folder)).sort()).toEqual([
    'a-lighthouse-at-dusk-2026-11-24-1.json',
    'a-lighthouse-at-dusk-2026-11-24-1.png',
    'a-red-bicycle-2026-11-24-1.json',
    'a-red-bicycle-2026-11-24-1.png',
  ]);
  for (const image of gallery.images) {
    expect(image.url).toBe(`/gallery/${image.id}.png`);
    const sidecar = JSON.parse(
      await readFile(join(folder, image.fileName.replace(/\.png$/, '.json')), 'utf8'),
    );
    expect(sidecar.sha256).toBe(image.id);
    expect(await app.services.gallery.servedFile(image.url)).toBe(
      join(await app.services.gallery.realFolder(), image.fileName),
    );
  }
});

it("binds 0.1's keys to the address each connection had, so a changed address needs its key again", async () => {
  // The keys 0.1 saved in the keychain: the bare key, under the connection's id.
  const secrets = new MemorySecretStore();
  const work = 'fc5454eb-f705-4d4e-a13a-de89c5eac653';
  const local = 'd10841ad-cc2c-4f2b-a2c6-91e6ba8101b7';
  await secrets.set(work, 'sk-work-0.1-key-7a1c93');
  await secrets.set(local, 'sk-local-0.1-key-2b84d0');
  app = await openChatApp(join(dir, 'user-data'), secrets, { picturesDir: join(dir, 'Pictures') });
  expect((await app.api.listConnections()).map((c) => [c.name, c.hasKey, c.keyLast4])).toEqual([
    ['Work relay', true, '1c93'],
    ['Local relay', true, '84d0'],
  ]);
  // Read once, each is now kept with the origin it was given for.
  expect(readBoundSecret((await secrets.get(work))!)).toEqual({
    origin: 'https://relay.example.com',
    secret: 'sk-work-0.1-key-7a1c93',
  });
  await app.services.close();
  app = undefined;
  // The file changed outside the app (a backup edited and restored): that key stays behind.
  const file = join(dir, 'user-data', 'connections.json');
  await writeFile(
    file,
    (await readFile(file, 'utf8')).replace('https://relay.example.com/v1', 'https://evil.example'),
  );
  app = await openChatApp(join(dir, 'user-data'), secrets, { picturesDir: join(dir, 'Pictures') });
  const after = await app.api.listConnections();
  expect(after.map((c) => [c.name, c.hasKey])).toEqual([
    ['Work relay', false],
    ['Local relay', true],
  ]);
});

it("reads 0.1's settings with the later groups at their defaults, and keeps its own on a change", async () => {
  app = await open();
  const { api } = app;
  const settings = await api.getSettings();
  expect(settings).toMatchObject({
    theme: 'dark',
    chatDefaults: { temperature: 0.7, maxTokens: 512 },
    timeouts: { requestSeconds: 90, idleSeconds: 45 },
    quickAsk: {
      enabled: true,
      shortcut: 'CommandOrControl+Alt+Space',
      saveConversations: true,
      useClipboard: false,
    },
    desktop: { showTray: true, closeToTray: false, openAtLogin: false },
    updates: { channel: 'stable', autoCheck: true },
    proxy: { mode: 'system' },
    // 0.1 had no tools: the default budget, steps and largest result kept of a tool's answer.
    tools: { tokenBudget: 8000, maxSteps: 10, maxResultChars: 100_000 },
    // 0.1 had no language setting: the system's language, as before.
    language: 'system',
  });
  // 0.1's connections have no extra headers.
  expect((await api.listConnections()).map((c) => c.headers)).toEqual([[], []]);

  await api.setProxy({ proxy: { mode: 'none' } });
  const saved = JSON.parse(
    await readFile(join(dir, 'user-data', 'settings.json'), 'utf8'),
  ) as Record<string, unknown>;
  expect(saved).toMatchObject({
    theme: 'dark',
    chatDefaults: { temperature: 0.7, maxTokens: 512 },
    proxy: { mode: 'none' },
  });
});

it('reads tool settings saved before the largest result was one, and keeps them on a change', async () => {
  // The settings file of a release with tools but no limit on a result's size.
  const file = join(dir, 'user-data', 'settings.json');
  const before = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...before, tools: { tokenBudget: 2000, maxSteps: 4 } }));
  app = await open();
  const { api } = app;
  expect((await api.getSettings()).tools).toEqual({
    tokenBudget: 2000,
    maxSteps: 4,
    maxResultChars: 100_000,
  });
  await api.updateSettings({ tools: { tokenBudget: 2000, maxSteps: 4, maxResultChars: 5000 } });
  const saved = JSON.parse(await readFile(file, 'utf8')) as { theme: string; tools: unknown };
  expect(saved.theme).toBe('dark');
  expect(saved.tools).toEqual({ tokenBudget: 2000, maxSteps: 4, maxResultChars: 5000 });
  // Out of range, refused with the field named; the saved value stays.
  await expect(
    api.updateSettings({ tools: { tokenBudget: 2000, maxSteps: 4, maxResultChars: 10 } }),
  ).rejects.toThrow(/maxResultChars/);
  expect((await api.getSettings()).tools.maxResultChars).toBe(5000);
});

it('keeps a language chosen over 0.1 settings, and refuses one the app does not speak', async () => {
  app = await open();
  await expect(app.api.updateSettings({ language: 'tlh' as never })).rejects.toThrow();
  expect((await app.api.getSettings()).language).toBe('system');
  await app.api.updateSettings({ language: 'ja' });
  await app.services.close();
  app = await open();
  const settings = await app.api.getSettings();
  expect(settings.language).toBe('ja');
  // The rest of 0.1's settings are untouched by the change.
  expect(settings.theme).toBe('dark');
});

it('fills in a group a later version wrote only in part', async () => {
  const file = join(dir, 'user-data', 'settings.json');
  const written = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...written, quickAsk: { useClipboard: true } }));
  app = await open();
  expect((await app.api.getSettings()).quickAsk).toEqual({
    enabled: true,
    shortcut: 'CommandOrControl+Alt+Space',
    saveConversations: true,
    useClipboard: true,
  });
});

/** The chat rows as 0.1 wrote them: every column it had, by message id. */
function chatRows(db: Db) {
  return db.all<Record<string, unknown>>(
    `SELECT id, conversation_id, seq, role, content, status, error, prompt_tokens,
        completion_tokens, total_tokens, model, finish_reason, created_at
      FROM chat_messages ORDER BY conversation_id, seq`,
  );
}

it('turns every 0.1 conversation into one path with nothing lost, after a backup', async () => {
  const userData = join(dir, 'user-data');
  const before = await openDatabase({ path: databasePath(userData) });
  const rows = chatRows(before);
  const conversationsBefore = before.all<{ id: string }>('SELECT id FROM chat_conversations');
  before.close();

  app = await open();
  const { api } = app;

  // A copy of the whole file was taken before the chat tables changed, and holds them as they were.
  const backups = (await readdir(userData)).filter((f) => f.includes('.before-chat-'));
  expect(backups).toHaveLength(1);
  const backup = await openDatabase({ path: join(userData, backups[0]!) });
  try {
    expect(chatRows(backup)).toEqual(rows);
    expect(
      backup.all("SELECT 1 FROM pragma_table_info('chat_messages') WHERE name = 'parent_id'"),
    ).toEqual([]);
  } finally {
    backup.close();
  }

  const db = app.services.db;
  // The same messages: ids, order, text, tokens; only the crashed reply's status was repaired.
  const after = chatRows(db);
  expect(after).toEqual(
    rows.map((row) => (row.status === 'streaming' ? { ...row, status: 'interrupted' } : row)),
  );
  for (const { id } of conversationsBefore) {
    const inOrder = after.filter((row) => row.conversation_id === id);
    const { messages } = await api.getConversation({ id });
    // One path: all of them, in their order, each under the one before, none with versions.
    expect(messages.map((m) => m.id)).toEqual(inOrder.map((row) => row.id));
    expect(messages.map((m) => m.parentId)).toEqual([
      null,
      ...inOrder.slice(0, -1).map((row) => row.id),
    ]);
    expect(messages.every((m) => m.branch === undefined)).toBe(true);
    const page = await api.getConversation({ id, limit: 1 });
    expect(page.messages.map((m) => m.id)).toEqual([inOrder.at(-1)!.id]);
    expect(page.hasOlder).toBe(inOrder.length > 1);
  }

  const crashed = (await api.listConversations()).find((c) => c.title === 'Cut off by a crash')!;
  const [question, reply] = (await api.getConversation({ id: crashed.id })).messages;
  expect(reply).toMatchObject({ parentId: question!.id, status: 'interrupted' });
  // Going on from the crashed reply: a new version of it, beside it.
  expect(
    db.one<{ current_leaf_id: string }>(
      'SELECT current_leaf_id FROM chat_conversations WHERE id = ?',
      [crashed.id],
    )?.current_leaf_id,
  ).toBe(reply!.id);

  // The full-text index still finds every message, by its words, on the path.
  const hits = await api.searchMessages({ query: 'Once upon' });
  expect(hits.map((h) => h.messageId)).toContain(reply!.id);
  expect(db.integrityCheck()).toBe('ok');
  expect(
    db
      .all<{ version: number }>(
        "SELECT version FROM schema_migrations WHERE domain = 'chat' ORDER BY version",
      )
      .map((r) => r.version),
  ).toEqual([1, 2, 3, 4, 5, 6]);
});

it('adds the tables of files sent with messages to a 0.1 folder, and a 0.1 conversation takes one', async () => {
  app = await open();
  const { api } = app;
  const db = app.services.db;
  expect(db.one<{ n: number }>('SELECT count(*) AS n FROM chat_attachments')?.n).toBe(0);
  const maths = (await api.listConversations()).find((c) => c.title === 'Maths notes')!;
  const before = (await api.getConversation({ id: maths.id })).messages;
  // Messages written by 0.1 carry no files, and read as they were.
  expect(before.every((m) => m.attachments === undefined)).toBe(true);

  const path = join(dir, 'formula.txt');
  await writeFile(path, 'The area of a circle is pi r squared.');
  const { attached } = await api.attachDropped({ grants: await app.grant([path]) });
  await api.updateConversationSettings({ id: maths.id, model: 'demo-chat-fast' });
  // The folder's relay is not running here: the reply fails, the message and its file stay.
  const sent = await api.sendMessage({
    conversationId: maths.id,
    text: 'And a sphere?',
    attachmentIds: attached.map((a) => a.id),
  });
  await app.finished(sent.replyId);
  const after = (await api.getConversation({ id: maths.id })).messages;
  expect(after.slice(0, before.length)).toEqual(before);
  const question = after.find((m) => m.id === sent.userMessageId)!;
  expect(question.parentId).toBe(before.at(-1)!.id);
  expect(question.attachments?.map((a) => [a.name, a.kind, a.bytes])).toEqual([
    ['formula.txt', 'text', 37],
  ]);
  // Its text is in the files' full-text index.
  expect(
    db.all("SELECT rowid FROM chat_attachments_fts WHERE chat_attachments_fts MATCH 'circl*'"),
  ).toHaveLength(1);
  expect(db.integrityCheck()).toBe('ok');
});

it('adds tool calls to a 0.1 folder: its replies have none, and a tool reply is kept and read back', async () => {
  app = await open();
  const db = app.services.db;
  const { api } = app;
  // Rows 0.1 wrote have no tool calls, no servers and no grants.
  expect(
    db.one<{ n: number }>('SELECT count(*) AS n FROM chat_messages WHERE tool_calls IS NOT NULL')
      ?.n,
  ).toBe(0);
  const maths = (await api.listConversations()).find((c) => c.title === 'Maths notes')!;
  expect(maths.toolServerIds).toEqual([]);
  const before = (await api.getConversation({ id: maths.id })).messages;
  expect(before.every((m) => m.tools === undefined)).toBe(true);

  // The conversation remembers its servers; a reply written with tools keeps its calls.
  const updated = await api.updateConversationSettings({ id: maths.id, toolServerIds: ['srv-1'] });
  expect(updated.toolServerIds).toEqual(['srv-1']);
  const reply = before.findLast((m) => m.role === 'assistant')!;
  const tools = {
    steps: [
      {
        text: '',
        calls: [
          {
            callId: 'call-1',
            functionName: 'add',
            serverId: 'srv-1',
            serverName: 'Everything',
            tool: 'add',
            arguments: '{"a":2,"b":3}',
            state: 'done' as const,
            result: '5',
            toolError: false,
            durationMs: 12,
          },
        ],
      },
    ],
    leftOut: [],
    budget: 8000,
    stoppedAtLimit: false,
    maxSteps: 10,
  };
  // The index of tool calls starts empty, and finds the calls once a reply has them.
  expect(db.all('SELECT rowid FROM chat_tool_calls_fts')).toEqual([]);
  db.run('UPDATE chat_messages SET tool_calls = ? WHERE id = ?', [JSON.stringify(tools), reply.id]);
  const after = (await api.getConversation({ id: maths.id })).messages;
  expect(after.find((m) => m.id === reply.id)?.tools).toEqual(tools);
  expect(after.filter((m) => m.id !== reply.id)).toEqual(before.filter((m) => m.id !== reply.id));
  const [hit] = await api.searchMessages({ query: 'Everything' });
  expect(hit).toMatchObject({ messageId: reply.id, conversationId: maths.id });
  expect(hit!.snippet[0]!.text).toBe('add: ');
  db.exec("INSERT INTO chat_tool_calls_fts (chat_tool_calls_fts) VALUES ('integrity-check')");
  expect(db.integrityCheck()).toBe('ok');
});

it("reads 0.1's model preferences with no image input said, and keeps them when one is set", async () => {
  const dataDir = join(dir, 'user-data');
  const connectionId = 'd10841ad-cc2c-4f2b-a2c6-91e6ba8101b7';
  const before = JSON.parse(await readFile(join(dataDir, MODEL_PREFERENCES_FILE), 'utf8'));
  const client = {
    listModels: async () =>
      readModelList({
        data: [
          { id: 'demo-chat' },
          { id: 'demo-vision', architecture: { input_modalities: ['text', 'image'] } },
        ],
      })!,
  } as unknown as RelayClient;
  const catalog = new ModelCatalog({ dataDir, active: async () => ({ id: connectionId, client }) });
  const listing = await catalog.list();
  expect(listing?.lastModel).toEqual({ chat: 'demo-chat', embeddings: 'demo-embedding' });
  expect(listing?.models.map((m) => [m.id, m.kindSource, m.acceptsImages, m.imagesSource])).toEqual(
    [
      ['demo-chat', 'override', false, 'unknown'],
      ['demo-vision', 'id', true, 'hint'],
    ],
  );

  await catalog.setImageInput('demo-chat', true);
  const after = JSON.parse(await readFile(join(dataDir, MODEL_PREFERENCES_FILE), 'utf8'));
  expect(after).toEqual({
    [connectionId]: { ...before[connectionId], imageInput: { 'demo-chat': true } },
  });
  const reopened = new ModelCatalog({
    dataDir,
    active: async () => ({ id: connectionId, client }),
  });
  expect(await reopened.acceptsImages('demo-chat')).toBe(true);
  await reopened.setImageInput('demo-chat', null);
  expect((await reopened.list())?.models[0]).toMatchObject({
    acceptsImages: false,
    imagesSource: 'unknown',
  });
});
