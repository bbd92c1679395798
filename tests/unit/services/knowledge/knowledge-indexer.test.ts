/**
 * The indexer over a store on an in-memory database, a temporary folder read in process and a
 * scripted relay client: a file unchanged is not read again, a file gone drops, a failed batch
 * ends indexing as failed keeping the batches saved, and the parts are told what changed.
 */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emitEvents } from '../../../../electron/shared/ipc/contract';
import { migrate, openDatabase, type Db } from '../../../../electron/main/services/database';
import { readDocumentsInProcess } from '../../../../electron/main/services/documents/read-documents';
import { KnowledgeIndexer } from '../../../../electron/main/services/knowledge/knowledge-indexer';
import { KnowledgeStore } from '../../../../electron/main/services/knowledge/knowledge-store';
import {
  KNOWLEDGE_DOMAIN,
  KNOWLEDGE_MIGRATIONS,
} from '../../../../electron/main/services/knowledge/migrations';
import {
  RelayError,
  type RelayClient,
} from '../../../../electron/main/services/relay/relay-client';

let dir: string;
let db: Db;
let store: KnowledgeStore;
let read: string[][];
let told: string[];
let ended: Array<Record<string, unknown>>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-knowledge-indexer-'));
  db = await openDatabase({ path: ':memory:' });
  await migrate(db, KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS);
  store = new KnowledgeStore(db);
  store.insert({ id: 'kb-1', name: 'Notes', model: 'm', connectionId: 'c-1', now: 'now' });
  store.addSources('kb-1', [{ path: dir, kind: 'folder' }], 'now');
  read = [];
  told = [];
  ended = [];
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

type Embed = RelayClient['embed'];
const embedAll: Embed = async ({ input }) => ({
  model: 'm',
  vectors: (input as string[]).map((text) => [text.length, 1]),
  usage: { promptTokens: 2 },
});

function indexer(embed: Embed = embedAll) {
  const inProcess = readDocumentsInProcess();
  return new KnowledgeIndexer({
    store,
    emit: emitEvents((channel, payload) => {
      if (channel === 'knowledge:index-ended') ended.push(payload as Record<string, unknown>);
    }),
    client: async () => ({ embed }) as unknown as RelayClient,
    readDocuments: (paths, options) => {
      read.push(paths.map((p) => p.slice(dir.length + 1)));
      return inProcess(paths, options);
    },
    chunksChanged: (id) => told.push(`chunks ${id}`),
    statusChanged: (id) => told.push(`status ${id}`),
    batchSize: 1,
    concurrency: 1,
    chunking: { maxChars: 40, overlapChars: 0 },
  });
}

async function run(indexing: KnowledgeIndexer) {
  await indexing.start('kb-1');
  expect(indexing.isRunning('kb-1')).toBe(true);
  await indexing.whenIdle('kb-1');
  expect(indexing.isRunning('kb-1')).toBe(false);
}

describe('KnowledgeIndexer', () => {
  it('reads only the files that changed, and drops the files gone', async () => {
    await writeFile(join(dir, 'a.txt'), 'About the harbour.');
    await writeFile(join(dir, 'b.txt'), 'About the lighthouse.');
    const indexing = indexer();
    await run(indexing);
    expect(read).toEqual([['a.txt', 'b.txt']]);
    expect(store.row('kb-1')).toMatchObject({ status: 'ready', dimensions: 2, tokens: 4 });
    expect(store.documents.chunkCounts('kb-1')).toEqual({ chunks: 2, embedded: 2 });
    expect(told[0]).toBe('status kb-1');
    expect(told.at(-1)).toBe('status kb-1');
    expect(told).toContain('chunks kb-1');

    // Same bytes, newer time: hashed, not read. Other bytes: read. Gone: dropped.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, 'a.txt'), later, later);
    await writeFile(join(dir, 'b.txt'), 'About the old lighthouse.');
    await writeFile(join(dir, 'c.txt'), 'About the pier.');
    await run(indexing);
    expect(read[1]).toEqual(['b.txt', 'c.txt']);
    await rm(join(dir, 'c.txt'));
    await run(indexing);
    expect(read[2]).toEqual([]);
    expect(
      store.documents
        .files('kb-1')
        .map((f) => f.name)
        .sort(),
    ).toEqual(['a.txt', 'b.txt']);
    expect(ended.map((e) => e.status)).toEqual(['ready', 'ready', 'ready']);
  });

  it('ends as failed after a refused batch, keeping the batches saved before it', async () => {
    await writeFile(join(dir, 'a.txt'), 'First.');
    await writeFile(join(dir, 'b.txt'), 'Second.');
    let calls = 0;
    await run(
      indexer(async (request, options) => {
        calls++;
        if (calls === 2) throw new RelayError('insufficient_balance', 'No credit.' as never);
        return embedAll(request, options);
      }),
    );
    expect(store.documents.chunkCounts('kb-1')).toEqual({ chunks: 2, embedded: 1 });
    expect(store.row('kb-1').status).toBe('failed');
    expect(ended[0]).toMatchObject({ status: 'failed', error: { kind: 'insufficient_balance' } });
  });

  it('stops when asked, keeping what was saved, and settles once stopped', async () => {
    await writeFile(join(dir, 'a.txt'), 'First.');
    await writeFile(join(dir, 'b.txt'), 'Second.');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const indexing = indexer(async (request, options) => {
      await held;
      options?.signal?.throwIfAborted();
      return embedAll(request, options);
    });
    await indexing.start('kb-1');
    await indexing.start('kb-1'); // already indexing: goes on as it is
    const stopped = indexing.stop('kb-1');
    release();
    await stopped;
    expect(ended).toEqual([{ kbId: 'kb-1', status: 'cancelled' }]);
    expect(store.row('kb-1').status).toBe('cancelled');
  });
});
