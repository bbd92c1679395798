/**
 * The prompt library through the real router and bridge: added to a 0.1 data folder without
 * changing anything else in it, its routes sender-checked and parsed, its changes announced.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRouter } from '../../electron/main/ipc/router';
import { openDatabase, type Db } from '../../electron/main/services/database';
import { BUILT_IN_PROMPTS } from '../../electron/main/services/prompts/builtins';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const FIXTURE = join(import.meta.dirname, '../fixtures/data-0.1');

let dir: string;
let app: ChatApp | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-prompts-'));
  await cp(FIXTURE, dir, { recursive: true });
});
afterEach(async () => {
  await app?.services.close();
  app = undefined;
  await rm(dir, { recursive: true, force: true });
});

/**
 * Every row of every table but the prompt library's, in a stable order; and but the knowledge
 * bases', whose domain is added after the library's (so it is not in the copy taken before it);
 * and but the gallery's index, which the app fills from the picture files in the background
 * after opening (its rows may or may not be there yet when this compares).
 */
function everythingElse(db: Db): Record<string, unknown[]> {
  const tables = db
    .all<{ name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name NOT LIKE '%fts%' AND name NOT IN ('prompts', 'prompt_conversations')
         AND name NOT LIKE 'knowledge_%' AND name NOT IN ('images', 'images_state')
       ORDER BY name`,
    )
    .map((t) => t.name);
  return Object.fromEntries(
    tables.map((table) => [
      table,
      db
        .all<Record<string, unknown>>(`SELECT * FROM "${table}"`)
        .filter(
          (row) =>
            table !== 'schema_migrations' ||
            (row.domain !== 'prompts' && row.domain !== 'knowledge'),
        )
        .map((row) => JSON.stringify(row))
        .sort(),
    ]),
  );
}

it('adds the library with its built-in prompts to a 0.1 data folder, changing nothing else', async () => {
  const userData = join(dir, 'user-data');
  app = await openChatApp(userData, undefined, { picturesDir: join(dir, 'Pictures') });
  const listed = await app.api.listPrompts();
  expect(listed.map((p) => p.name).sort()).toEqual(BUILT_IN_PROMPTS.map((p) => p.name).sort());
  expect(await app.api.listConversations()).toHaveLength(5);

  // The copy taken just before the library's step holds every other table exactly as it is now.
  const [copy] = (await readdir(userData)).filter((f) => f.includes('.before-prompts-1-'));
  expect(copy).toBeDefined();
  const before = await openDatabase({ path: join(userData, copy!) });
  try {
    expect(before.all("SELECT name FROM sqlite_master WHERE name = 'prompts'")).toEqual([]);
    expect(everythingElse(app.services.db)).toEqual(everythingElse(before));
  } finally {
    before.close();
  }

  // Opened again: nothing more to migrate, the built-in prompts not added twice.
  await app.services.close();
  app = await openChatApp(userData, undefined, { picturesDir: join(dir, 'Pictures') });
  expect(await app.api.listPrompts()).toHaveLength(BUILT_IN_PROMPTS.length);
});

it('saves, finds, announces and links prompts over the bridge; bad drafts are refused', async () => {
  app = await openChatApp(join(dir, 'user-data'), undefined, {
    picturesDir: join(dir, 'Pictures'),
  });
  const { api } = app;
  const made = await api.createPrompt({
    kind: 'assistant',
    name: 'Trip planner',
    icon: '🧳',
    text: 'Plan a trip to {{city}} for {{days=3}} days.',
    temperature: 0.4,
    starters: ['Where should I start?'],
  });
  expect(made.variables.map((v) => v.name)).toEqual(['city', 'days']);
  expect(app.events.some((e) => e.channel === 'prompts:changed')).toBe(true);
  expect((await api.listPrompts({ query: 'trip' })).map((p) => p.id)).toEqual([made.id]);

  await expect(
    api.createPrompt({ kind: 'snippet', name: 'Bad', text: 'Oops {{city' }),
  ).rejects.toThrow('Prompt text: The {{ at line 1, column 6 is not closed with }}.');
  await expect(api.createPrompt({ kind: 'snippet', name: ' ', text: 'x' })).rejects.toThrow(
    'Name: Give the prompt a name.',
  );

  const conversation = await api.createConversation({ title: 'Trip', systemPrompt: 'Plan' });
  await api.linkPromptConversation({ promptId: made.id, conversationId: conversation.id });
  expect(await api.getConversationPrompt({ conversationId: conversation.id })).toEqual({
    promptId: made.id,
    name: 'Trip planner',
    icon: '🧳',
  });
});

it('refuses a prompt route from another page, and a payload that does not fit', async () => {
  app = await openChatApp(join(dir, 'user-data'), undefined, {
    picturesDir: join(dir, 'Pictures'),
  });
  const router = createRouter(ROUTES, app.services.handlers, {
    isTrustedSender: (sender) => (sender as { url: string }).url.startsWith('app://relay/'),
  });
  const stranger = { url: 'https://evil.example/', isMainFrame: true, webContentsId: 9 };
  const trusted = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };
  const draft = { kind: 'snippet', name: 'x', text: 'y' };
  expect(await router.dispatch('prompts:create', draft, stranger)).toMatchObject({
    ok: false,
    error: { kind: 'forbidden' },
  });
  expect(await router.dispatch('prompts:create', { ...draft, sneaky: 1 }, trusted)).toMatchObject({
    ok: false,
    error: { kind: 'invalid_request' },
  });
  expect((await app.api.listPrompts({ query: 'y' })).some((p) => p.name === 'x')).toBe(false);
});
