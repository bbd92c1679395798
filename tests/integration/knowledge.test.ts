/**
 * Knowledge bases through the real router and bridge, against the demo relay (whose vectors carry
 * some meaning) and a real SQLite file: added to a 0.1 data folder without changing anything
 * else, built from a folder whose unreadable files are refused by name, searched, re-indexed
 * incrementally, resumed after a 402, and found again after a restart.
 */
import { copyFile, cp, mkdir, mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { createRouter } from '../../electron/main/ipc/router';
import { openDatabase, type Db } from '../../electron/main/services/database';
import { KNOWLEDGE_MIGRATIONS } from '../../electron/main/services/knowledge/migrations';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { openChatApp, type ChatApp } from '../fakes/chat-app';
import { NOTES_PAGES } from '../fixtures/documents/contents';

const FIXTURE = join(import.meta.dirname, '../fixtures/data-0.1');
const DOCUMENTS = join(import.meta.dirname, '../fixtures/documents');
const KEY = 'sk-demo-knowledge-7c2e91d4';
const MODEL = 'demo-embedding';

let relay: DemoRelay;
let dir: string;
let app: ChatApp | undefined;
let secrets: MemorySecretStore;
/** How many texts each embeddings request sent, in order. */
const embedded: number[] = [];

/** The demo's second embeddings model (64 dimensions). */
const SECOND_MODEL = 'demo-embedding-small';
/** The models the embeddings requests named, in order. */
const embeddedWith: string[] = [];

const countingFetch: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url.endsWith('/embeddings') && typeof init?.body === 'string') {
    const body = JSON.parse(init.body) as { input: unknown; model: string };
    embedded.push(Array.isArray(body.input) ? body.input.length : 1);
    embeddedWith.push(body.model);
  }
  return fetch(input, init);
};

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000 });
});
afterAll(async () => {
  await relay.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-knowledge-'));
  embedded.length = 0;
  embeddedWith.length = 0;
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
    fetch: countingFetch as never,
  });
  return app;
}

/** The end of the next indexing of `kbId` (after `from` events). */
function ended(a: ChatApp, kbId: string, from = a.events.length) {
  return a.until(
    () =>
      a.events
        .slice(from)
        .find((e) => e.channel === 'knowledge:index-ended' && e.payload.kbId === kbId)?.payload as
        { status: string; error?: { kind: string; status?: number } } | undefined,
  );
}

const GUIDE = [
  '# Harbour guide',
  '',
  'Welcome to the harbour office handbook.',
  '',
  '## Mooring fees',
  '',
  'Mooring fees are paid monthly at the harbour office counter.',
  '',
  '## Ferry timetable',
  '',
  'The ferry leaves the pier every hour from seven in the morning.',
].join('\n');

async function folderWithFiles(): Promise<string> {
  const folder = join(dir, 'docs');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'guide.md'), GUIDE);
  await copyFile(join(DOCUMENTS, 'notes.pdf'), join(folder, 'notes.pdf'));
  await copyFile(join(DOCUMENTS, 'locked.pdf'), join(folder, 'locked.pdf'));
  await copyFile(join(DOCUMENTS, 'scanned.pdf'), join(folder, 'scanned.pdf'));
  await writeFile(join(folder, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 7, 9]));
  await writeFile(join(folder, '.hidden.md'), 'A hidden file is not added.');
  return folder;
}

async function connectedBase(a: ChatApp) {
  await a.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
  return a.api.createKnowledgeBase({ name: '  Harbour  ', model: MODEL });
}

/** A base built from `folderWithFiles()` and indexed to its end. */
async function builtBase(a: ChatApp) {
  const base = await connectedBase(a);
  const folder = await folderWithFiles();
  a.dialogs.folders.push(folder);
  const done = ended(a, base.id);
  await a.api.addKnowledgeSources({ id: base.id, kind: 'folder' });
  await done;
  return { base, folder, before: await a.api.getKnowledgeBase({ id: base.id }) };
}

describe('the knowledge domain on a 0.1 data folder', () => {
  /**
   * Every row of every table but the knowledge bases', in a stable order (but the gallery's
   * images, which it indexes from the Pictures folder in the background after opening).
   */
  function everythingElse(db: Db): Record<string, unknown[]> {
    const tables = db
      .all<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND name NOT LIKE '%fts%' AND name NOT LIKE 'knowledge_%'
           AND name NOT IN ('images') ORDER BY name`,
      )
      .map((t) => t.name);
    return Object.fromEntries(
      tables.map((table) => [
        table,
        db
          .all<Record<string, unknown>>(`SELECT * FROM "${table}"`)
          .filter((row) => table !== 'schema_migrations' || row.domain !== 'knowledge')
          .map((row) => JSON.stringify(row))
          .sort(),
      ]),
    );
  }

  it('adds its tables, changing nothing else, and opens again with nothing to do', async () => {
    await cp(FIXTURE, dir, { recursive: true });
    const userData = join(dir, 'user-data');
    const a = await open(userData);
    expect(await a.api.listKnowledgeBases()).toEqual([]);
    expect(await a.api.listConversations()).toHaveLength(5);
    const [copy] = (await readdir(userData)).filter((f) => f.includes('.before-knowledge-1-'));
    expect(copy).toBeDefined();
    const before = await openDatabase({ path: join(userData, copy!) });
    try {
      expect(before.all("SELECT name FROM sqlite_master WHERE name LIKE 'knowledge_%'")).toEqual(
        [],
      );
      expect(everythingElse(a.services.db)).toEqual(everythingElse(before));
    } finally {
      before.close();
    }
    expect(
      a.services.db.all(
        "SELECT version FROM schema_migrations WHERE domain = 'knowledge' ORDER BY version",
      ),
    ).toEqual(KNOWLEDGE_MIGRATIONS.map((m) => ({ version: m.version })));
    await a.services.close();
    app = await open(userData);
    expect(
      (await readdir(userData)).filter((f) => /\.before-knowledge-.*\.bak$/.test(f)),
    ).toHaveLength(1);
  });
});

describe('building and searching a knowledge base', () => {
  it('reads a folder, refuses what it cannot read by name, and finds the right passage', async () => {
    const a = await open();
    const base = await connectedBase(a);
    expect(base).toMatchObject({ name: 'Harbour', model: MODEL, status: 'empty', chunks: 0 });
    expect(base.connectionName).toBe('Demo');

    a.dialogs.folders.push(await folderWithFiles());
    const done = ended(a, base.id);
    expect(await a.api.addKnowledgeSources({ id: base.id, kind: 'folder' })).toEqual({
      chosen: true,
      added: 1,
    });
    expect(await done).toMatchObject({ status: 'ready' });

    const detail = await a.api.getKnowledgeBase({ id: base.id });
    expect(detail).toMatchObject({ status: 'ready', files: 2, refused: 3, dimensions: 256 });
    expect(detail.embedded).toBe(detail.chunks);
    expect(detail.tokens).toBeGreaterThan(0);
    const refused = detail.fileList
      .filter((f) => f.status === 'refused')
      .map((f) => [f.name, f.reason]);
    expect(refused.sort()).toEqual([
      ['blob.bin', 'binary'],
      ['locked.pdf', 'encrypted'],
      ['scanned.pdf', 'no_text'],
    ]);
    expect(detail.fileList.find((f) => f.name === 'blob.bin')?.message).toContain('blob.bin');
    // Kept with its key and values, so the Knowledge screen says it in the person's language.
    expect(detail.fileList.find((f) => f.name === 'blob.bin')).toMatchObject({
      messageId: 'documents.notAdded',
      values: { name: 'blob.bin', why: { id: expect.stringMatching(/^documents\.why\./) } },
    });
    expect(detail.fileList.some((f) => f.name === '.hidden.md')).toBe(false);

    const progress = a.events.filter((e) => e.channel === 'knowledge:progress');
    expect(progress.some((e) => e.payload.phase === 'reading')).toBe(true);
    expect(progress.at(-1)?.payload).toMatchObject({
      phase: 'embedding',
      chunks: { done: detail.chunks, total: detail.chunks },
    });

    const storm = await a.api.searchKnowledgeBase({
      id: base.id,
      question: 'When are storm warnings raised?',
      topK: 3,
    });
    expect(storm.hits[0]).toMatchObject({
      rank: 1,
      fileName: 'notes.pdf',
      position: { page: 2, lineStart: 1 },
      text: expect.stringContaining(NOTES_PAGES[1]!),
    });
    expect(storm.hits.map((h) => h.score)).toEqual(
      [...storm.hits.map((h) => h.score)].sort((x, y) => y - x),
    );

    const ferry = await a.api.searchKnowledgeBase({
      id: base.id,
      question: 'ferry timetable pier',
    });
    expect(ferry.hits[0]).toMatchObject({
      fileName: 'guide.md',
      position: { page: null, headings: ['Harbour guide', 'Ferry timetable'], lineStart: 9 },
    });
  });

  it('ranks a chunk that is only a heading below the passages', async () => {
    const a = await open();
    const base = await connectedBase(a);
    const folder = join(dir, 'tides');
    await mkdir(folder, { recursive: true });
    // A section too long to share a chunk with its heading: the heading is a chunk of its own.
    const long = Array.from(
      { length: 40 },
      (_, i) => `Spring tides rise high at the harbour wall on day ${i + 1}.`,
    ).join(' ');
    await writeFile(join(folder, 'tides.md'), `# Tide tables\n\n${long}\n`);
    a.dialogs.folders.push(folder);
    const done = ended(a, base.id);
    await a.api.addKnowledgeSources({ id: base.id, kind: 'folder' });
    expect(await done).toMatchObject({ status: 'ready' });

    const found = await a.api.searchKnowledgeBase({ id: base.id, question: 'Tide tables' });
    expect(found.hits.some((h) => h.text === '# Tide tables')).toBe(true);
    expect(found.hits[0]!.text).not.toBe('# Tide tables');
    expect(found.hits.at(-1)!.text).toBe('# Tide tables');
    expect(found.hits.map((h) => h.rank)).toEqual(found.hits.map((_, i) => i + 1));
  });

  it('re-reads only the changed file, drops a removed one, and keeps unchanged vectors', async () => {
    const a = await open();
    const { base, folder, before } = await builtBase(a);

    // One section of the guide changes; the PDF goes.
    await writeFile(
      join(folder, 'guide.md'),
      GUIDE.replace('every hour', 'every half hour').replace('seven', 'six'),
    );
    await unlink(join(folder, 'notes.pdf'));
    embedded.length = 0;
    const from = a.events.length;
    const done = ended(a, base.id);
    await a.api.indexKnowledgeBase({ id: base.id });
    expect(await done).toMatchObject({ status: 'ready' });

    const reading = a.events
      .slice(from)
      .filter((e) => e.channel === 'knowledge:progress' && e.payload.phase === 'reading');
    expect(reading.at(-1)?.payload.files).toEqual({ done: 1, total: 1 });
    // Only the changed section's chunk went to the relay.
    expect(embedded).toEqual([1]);
    const after = await a.api.getKnowledgeBase({ id: base.id });
    expect(after.fileList.map((f) => f.name).sort()).toEqual([
      'blob.bin',
      'guide.md',
      'locked.pdf',
      'scanned.pdf',
    ]);
    expect(after.chunks).toBe(before.chunks - NOTES_PAGES.length);
    const ferry = await a.api.searchKnowledgeBase({ id: base.id, question: 'half hour ferry' });
    expect(ferry.hits[0]?.text).toContain('every half hour');
    expect(ferry.hits.some((h) => h.fileName === 'notes.pdf')).toBe(false);
  });

  it('a 402 keeps the embedded batches; indexing again sends only the rest, and a restart keeps all', async () => {
    const a = await open();
    const base = await connectedBase(a);
    const folder = join(dir, 'long');
    await mkdir(folder);
    const paragraphs = Array.from(
      { length: 150 },
      (_, i) => `Paragraph ${i} tells of lighthouse ${i} and its keeper, ${'word '.repeat(300)}`,
    );
    await writeFile(join(folder, 'long.txt'), paragraphs.join('\n\n'));
    relay.setBalance(KEY, 0.02); // two requests
    a.dialogs.folders.push(folder);
    let done = ended(a, base.id);
    await a.api.addKnowledgeSources({ id: base.id, kind: 'folder' });
    expect(await done).toMatchObject({
      status: 'failed',
      error: { kind: 'insufficient_balance', status: 402 },
    });
    const failed = await a.api.getKnowledgeBase({ id: base.id });
    expect(failed.status).toBe('failed');
    expect(failed.chunks).toBe(150);
    expect(failed.embedded).toBe(128);

    relay.setBalance(KEY, 100);
    embedded.length = 0;
    done = ended(a, base.id);
    await a.api.indexKnowledgeBase({ id: base.id });
    expect(await done).toMatchObject({ status: 'ready' });
    expect(embedded).toEqual([22]);

    await a.services.close();
    const b = await open();
    const again = await b.api.getKnowledgeBase({ id: base.id });
    expect(again).toMatchObject({ status: 'ready', chunks: 150, embedded: 150 });
    const hit = await b.api.searchKnowledgeBase({ id: base.id, question: 'lighthouse 42 keeper' });
    expect(hit.hits[0]?.text).toContain('lighthouse 42 ');
  });

  it('renames, refuses bad names and searches before indexing, deletes, and checks senders', async () => {
    const a = await open();
    const base = await connectedBase(a);
    await expect(a.api.renameKnowledgeBase({ id: base.id, name: '  ' })).rejects.toThrow(
      'Give the knowledge base a name.',
    );
    expect((await a.api.renameKnowledgeBase({ id: base.id, name: 'Port' })).name).toBe('Port');
    await expect(
      a.api.searchKnowledgeBase({ id: base.id, question: 'anything' }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringContaining('embedded yet'),
    });
    expect(await a.api.addKnowledgeSources({ id: base.id, kind: 'files' })).toEqual({
      chosen: false,
      added: 0,
    });

    const router = createRouter(ROUTES, a.services.handlers, {
      isTrustedSender: (sender) => (sender as { url: string }).url.startsWith('app://relay/'),
    });
    const stranger = { url: 'https://evil.example/', isMainFrame: true, webContentsId: 9 };
    const trusted = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };
    expect(await router.dispatch('knowledge:delete', { id: base.id }, stranger)).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    });
    expect(
      await router.dispatch('knowledge:search', { id: base.id, question: 'x', topK: 500 }, trusted),
    ).toMatchObject({ ok: false, error: { kind: 'invalid_request' } });

    await a.api.deleteKnowledgeBase({ id: base.id });
    expect(await a.api.listKnowledgeBases()).toEqual([]);
    await expect(a.api.getKnowledgeBase({ id: base.id })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('moves to another model after an estimate, refusing a model the relay does not serve', async () => {
    const a = await open();
    const { base, before } = await builtBase(a);

    // Unpriced: the cost is unknown, never a guess.
    const unpriced = await a.api.estimateKnowledgeModel({ id: base.id, model: SECOND_MODEL });
    expect(unpriced).toMatchObject({ chunks: before.chunks, cost: null });
    expect(unpriced.tokens).toBeGreaterThan(0);
    await a.api.setModelPrice({
      modelId: SECOND_MODEL,
      price: { inputPerMillion: 50, outputPerMillion: 0 },
    });
    const priced = await a.api.estimateKnowledgeModel({ id: base.id, model: SECOND_MODEL });
    expect(priced.cost).toEqual({ amount: (unpriced.tokens / 1_000_000) * 50, currency: 'USD' });

    // A model the relay refuses changes nothing: the vectors stay and search still works.
    await expect(
      a.api.setKnowledgeModel({ id: base.id, model: 'no-such-embedder' }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('no-such-embedder'),
    });
    await expect(a.api.setKnowledgeModel({ id: base.id, model: MODEL })).rejects.toThrow(
      'already uses demo-embedding',
    );
    expect(await a.api.getKnowledgeBase({ id: base.id })).toMatchObject({
      model: MODEL,
      embedded: before.chunks,
      dimensions: 256,
    });

    embeddedWith.length = 0;
    const done = ended(a, base.id);
    const moved = await a.api.setKnowledgeModel({ id: base.id, model: SECOND_MODEL });
    expect(moved).toMatchObject({ model: SECOND_MODEL, status: 'indexing' });
    expect(await done).toMatchObject({ status: 'ready' });
    expect(new Set(embeddedWith)).toEqual(new Set([SECOND_MODEL]));
    const after = await a.api.getKnowledgeBase({ id: base.id });
    expect(after).toMatchObject({
      model: SECOND_MODEL,
      dimensions: 64,
      chunks: before.chunks,
      embedded: before.chunks,
    });
    const fees = await a.api.searchKnowledgeBase({ id: base.id, question: 'mooring fees' });
    expect(fees.hits[0]?.text).toContain('Mooring fees');
  });

  it('takes dropped files and folders by their grants, refusing by name what is not there', async () => {
    const a = await open();
    const base = await connectedBase(a);
    const folder = await folderWithFiles();
    const loose = join(dir, 'loose.md');
    await writeFile(loose, '# Loose\n\nThe lighthouse keeper writes a log every night.');
    const done = ended(a, base.id);
    const grants = await a.grant([folder, loose, join(dir, 'gone.md')], 'knowledge');
    const result = await a.api.addKnowledgeDropped({ id: base.id, grants });
    expect(result.added).toBe(2);
    // Each by name, with the reason's key for the page's language.
    expect(result.refused).toEqual([
      {
        name: 'gone.md',
        reason: expect.stringContaining('gone.md could not be found'),
        messageId: 'knowledge.notFound',
        values: { name: 'gone.md' },
      },
    ]);
    // A grant is used once, for what it was asked for: again, or for a chat, it is refused.
    await expect(a.api.addKnowledgeDropped({ id: base.id, grants })).rejects.toMatchObject({
      kind: 'invalid_request',
      messageId: 'files.dropExpired',
    });
    await expect(a.grant(['relative/name.md'], 'knowledge')).rejects.toMatchObject({
      messageId: 'files.dropNotOnDisk',
    });
    expect(await done).toMatchObject({ status: 'ready' });
    const detail = await a.api.getKnowledgeBase({ id: base.id });
    expect(detail.sources).toEqual([
      { id: expect.any(String), path: folder, kind: 'folder' },
      { id: expect.any(String), path: loose, kind: 'file' },
    ]);

    // Show in folder: a file still there is shown; one moved away is refused by name.
    const guide = detail.fileList.find((f) => f.name === 'guide.md')!;
    await a.api.revealKnowledgeFile({ id: base.id, fileId: guide.id });
    expect(a.shown).toEqual([join(folder, 'guide.md')]);
    await unlink(join(folder, 'guide.md'));
    await expect(
      a.api.revealKnowledgeFile({ id: base.id, fileId: guide.id }),
    ).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('guide.md is no longer at'),
    });

    // Removing a source drops its chunks at the indexing that follows.
    const removed = ended(a, base.id);
    await a.api.removeKnowledgeSource({ id: base.id, sourceId: detail.sources[1]!.id });
    await removed;
    const left = await a.api.getKnowledgeBase({ id: base.id });
    expect(left.sources).toEqual([{ id: detail.sources[0]!.id, path: folder, kind: 'folder' }]);
    expect(left.fileList.some((f) => f.name === 'loose.md')).toBe(false);
  });

  it('copies a base with another model over the same sources, to compare what each finds', async () => {
    const a = await open();
    const { base } = await builtBase(a);
    await expect(a.api.copyKnowledgeBase({ id: base.id, model: MODEL })).rejects.toThrow(
      'already uses demo-embedding',
    );

    embeddedWith.length = 0;
    const from = a.events.length;
    const copy = await a.api.copyKnowledgeBase({ id: base.id, model: SECOND_MODEL });
    expect(copy).toMatchObject({ name: `Harbour · ${SECOND_MODEL}`, model: SECOND_MODEL });
    expect(await ended(a, copy.id, from)).toMatchObject({ status: 'ready' });
    expect(new Set(embeddedWith)).toEqual(new Set([SECOND_MODEL]));
    const [one, two] = await Promise.all([
      a.api.getKnowledgeBase({ id: base.id }),
      a.api.getKnowledgeBase({ id: copy.id }),
    ]);
    // The same paths and kinds (each base's sources have ids of their own).
    const strip = (sources: typeof one.sources) =>
      sources.map(({ path, kind }) => ({ path, kind }));
    expect(strip(two.sources)).toEqual(strip(one.sources));
    expect(two).toMatchObject({ chunks: one.chunks, embedded: one.chunks, dimensions: 64 });
    // The original is untouched.
    expect(one).toMatchObject({ model: MODEL, dimensions: 256, embedded: one.chunks });
    for (const id of [base.id, copy.id]) {
      const found = await a.api.searchKnowledgeBase({ id, question: 'mooring fees monthly' });
      expect(found.hits[0]?.text).toContain('Mooring fees');
    }
  });
});
