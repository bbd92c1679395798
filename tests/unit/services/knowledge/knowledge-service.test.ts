/**
 * The knowledge service on an in-memory database, documents read in process and a scripted relay
 * client: Cancel keeps what was embedded, a file over the size cap is refused by name while the
 * others go in, vectors of another size are refused, and the scan ranks by cosine.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../../electron/main/services/database';
import { DOCUMENT_LIMITS } from '../../../../electron/main/services/documents/document-text';
import { readDocumentsInProcess } from '../../../../electron/main/services/documents/read-documents';
import { openKnowledgeService } from '../../../../electron/main/services/knowledge';
import { KNOWLEDGE_LIMITS } from '../../../../electron/shared/limits';
import { PackedVectors } from '../../../../electron/main/services/knowledge/vector-search';
import type { RelayClient } from '../../../../electron/main/services/relay/relay-client';
import { emitEvents } from '../../../../electron/shared/ipc/contract';

let dir: string;
let db: Db;
let events: Array<{ channel: string; payload: Record<string, unknown> }>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-knowledge-unit-'));
  db = await openDatabase({ path: ':memory:' });
  events = [];
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

type Embed = RelayClient['embed'];

async function service(
  embed: Embed,
  maxBytes = DOCUMENT_LIMITS.maxBytes,
  progressIntervalMs?: number,
) {
  return openKnowledgeService({
    ...(progressIntervalMs === undefined ? {} : { progressIntervalMs }),
    db,
    emit: emitEvents((channel, payload) =>
      events.push({ channel, payload: payload as Record<string, unknown> }),
    ),
    client: async () => ({ embed }) as unknown as RelayClient,
    activeConnection: async () => 'connection-1',
    connectionNames: async () => new Map([['connection-1', 'Relay']]),
    readDocuments: readDocumentsInProcess({ ...DOCUMENT_LIMITS, maxBytes }),
    dialogs: { chooseOpenPaths: async () => [] },
    batchSize: 2,
    concurrency: 1,
    chunking: { maxChars: 40, overlapChars: 0 },
  });
}

const vectorOf = (text: string) => [text.length % 7, 1, text.includes('harbour') ? 5 : 0];

function ended(kbId: string) {
  return events.find((e) => e.channel === 'knowledge:index-ended' && e.payload.kbId === kbId)
    ?.payload;
}

describe('KnowledgeService', () => {
  it('refuses a file over the size cap by name and reason, and adds the others', async () => {
    await writeFile(join(dir, 'small.txt'), 'A short note about the harbour.');
    await writeFile(join(dir, 'big.txt'), 'x'.repeat(5000));
    const knowledge = await service(
      async ({ input }) => ({ model: 'm', vectors: (input as string[]).map(vectorOf) }),
      1000,
    );
    const base = await knowledge.create('Notes', 'm');
    await knowledge.addSources(base.id, [dir], 'folder');
    await knowledge.whenIdle(base.id);
    const detail = await knowledge.get(base.id);
    expect(detail.fileList.map((f) => [f.name, f.status, f.reason])).toEqual([
      // The refused first, where the person sees them.
      ['big.txt', 'refused', 'too_large'],
      ['small.txt', 'ready', null],
    ]);
    expect(detail.fileList[0]?.message).toMatch(/^big\.txt was not added: it is larger than/);
    expect(ended(base.id)).toEqual({ kbId: base.id, status: 'ready' });
  });

  it('paces progress: the first of each phase at once, then at most one per interval, the last always', async () => {
    for (let f = 0; f < 12; f++)
      await writeFile(
        join(dir, `note-${f}.txt`),
        `Note ${f} about the harbour.\n\nAnd a second line.`,
      );
    // An interval longer than the whole run: only each phase's first and last progress go out.
    const knowledge = await service(
      async ({ input }) => ({ model: 'm', vectors: (input as string[]).map(vectorOf) }),
      DOCUMENT_LIMITS.maxBytes,
      60_000,
    );
    const base = await knowledge.create('Notes', 'm');
    await knowledge.addSources(base.id, [dir], 'folder');
    await knowledge.whenIdle(base.id);
    const progress = events
      .filter((e) => e.channel === 'knowledge:progress')
      .map((e) => e.payload as { phase: string; files: object; chunks: object; tokens: number });
    expect(progress.map((p) => p.phase)).toEqual(['reading', 'reading', 'embedding', 'embedding']);
    const detail = await knowledge.get(base.id);
    expect(detail).toMatchObject({ status: 'ready', chunks: 24, embedded: 24 });
    expect(progress[0]).toMatchObject({
      files: { done: 0, total: 12 },
      chunks: { done: 0, total: 0 },
    });
    expect(progress[1]).toMatchObject({
      files: { done: 12, total: 12 },
      chunks: { done: 0, total: 24 },
    });
    expect(progress[2]).toMatchObject({ chunks: { done: 0, total: 24 } });
    expect(progress[3]).toMatchObject({ chunks: { done: 24, total: 24 }, tokens: detail.tokens });

    // One file changed: the counts go on from what is stored, its old chunk's vector kept.
    await writeFile(
      join(dir, 'note-3.txt'),
      `Note 3 about the harbour.\n\nA new second line here.`,
    );
    events.length = 0;
    await knowledge.index(base.id);
    await knowledge.whenIdle(base.id);
    const again = events
      .filter((e) => e.channel === 'knowledge:progress')
      .map((e) => e.payload as { phase: string; chunks: object });
    expect(again.map((p) => [p.phase, p.chunks])).toEqual([
      ['reading', { done: 24, total: 24 }],
      ['reading', { done: 23, total: 24 }],
      ['embedding', { done: 23, total: 24 }],
      ['embedding', { done: 24, total: 24 }],
    ]);
  });

  it('lists the refused files first and at most 500 files in all, counting every one', async () => {
    await writeFile(join(dir, 'big.txt'), 'x'.repeat(5000));
    for (let f = 0; f < 505; f++)
      await writeFile(join(dir, `n-${String(f).padStart(3, '0')}.txt`), `Note ${f}.`);
    const knowledge = await service(
      async ({ input }) => ({ model: 'm', vectors: (input as string[]).map(vectorOf) }),
      1000,
    );
    const base = await knowledge.create('Many', 'm');
    await knowledge.addSources(base.id, [dir], 'folder');
    await knowledge.whenIdle(base.id);
    const detail = await knowledge.get(base.id);
    expect(detail).toMatchObject({ files: 505, refused: 1, chunks: 505, embedded: 505 });
    expect(detail.fileList).toHaveLength(KNOWLEDGE_LIMITS.filesListed);
    expect(detail.fileList[0]).toMatchObject({ name: 'big.txt', status: 'refused' });
    expect(detail.fileList.slice(1, 3).map((f) => [f.name, f.chunks, f.embedded])).toEqual([
      ['n-000.txt', 1, 1],
      ['n-001.txt', 1, 1],
    ]);
    expect(detail.fileList.at(-1)?.name).toBe('n-498.txt');
  });

  it('Cancel stops the batches still to go and keeps those embedded; Index resumes', async () => {
    await writeFile(
      join(dir, 'many.txt'),
      Array.from({ length: 8 }, (_, i) => `Paragraph ${i} of the harbour log.`).join('\n\n'),
    );
    let calls = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const knowledge = await service(async ({ input }, options) => {
      calls++;
      if (calls === 2) {
        // The second batch waits until cancelled.
        await new Promise<void>((resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
          void gate.then(resolve);
        });
      }
      return { model: 'm', vectors: (input as string[]).map(vectorOf) };
    });
    const base = await knowledge.create('Log', 'm');
    await knowledge.addSources(base.id, [join(dir, 'many.txt')], 'file');
    while (calls < 2) await new Promise((r) => setTimeout(r, 5));
    knowledge.cancel(base.id);
    await knowledge.whenIdle(base.id);
    release();
    expect(ended(base.id)).toEqual({ kbId: base.id, status: 'cancelled' });
    const cancelled = await knowledge.get(base.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', chunks: 8, embedded: 2 });

    events.length = 0;
    await knowledge.index(base.id);
    await knowledge.whenIdle(base.id);
    expect(await knowledge.get(base.id)).toMatchObject({ status: 'ready', embedded: 8 });
    expect(calls).toBe(2 + 3); // the six chunks left, two at a time
  });

  it('fails with a clear error when the relay changes the vector size, keeping earlier batches', async () => {
    await writeFile(
      join(dir, 'a.txt'),
      Array.from({ length: 4 }, (_, i) => `Entry ${i} in the book.`).join('\n\n'),
    );
    let calls = 0;
    const knowledge = await service(async ({ input }) => {
      calls++;
      const size = calls === 1 ? 3 : 4;
      return { model: 'm', vectors: (input as string[]).map(() => Array(size).fill(1)) };
    });
    const base = await knowledge.create('Book', 'm');
    await knowledge.addSources(base.id, [join(dir, 'a.txt')], 'file');
    await knowledge.whenIdle(base.id);
    expect(ended(base.id)).toMatchObject({
      status: 'failed',
      error: {
        kind: 'bad_response',
        message: 'The relay sent vectors of 4 dimensions, where this knowledge base has 3.',
      },
    });
    expect(await knowledge.get(base.id)).toMatchObject({ embedded: 2, dimensions: 3 });
  });

  it('marks indexing cut short by a restart as cancelled, keeping its vectors', async () => {
    const knowledge = await service(async ({ input }) => ({
      model: 'm',
      vectors: (input as string[]).map(vectorOf),
    }));
    const base = await knowledge.create('Cut', 'm');
    db.run(`UPDATE knowledge_bases SET status = 'indexing' WHERE id = ?`, [base.id]);
    const reopened = await service(async () => ({ model: 'm', vectors: [] }));
    expect(await reopened.get(base.id)).toMatchObject({
      status: 'cancelled',
      error: { kind: 'aborted' },
    });
  });
});

describe('PackedVectors', () => {
  it('ranks by cosine, best first, keeping k', () => {
    const pack = new PackedVectors(
      2,
      [10, 11, 12, 13],
      [Float32Array.of(1, 0), Float32Array.of(0, 1), Float32Array.of(1, 1), Float32Array.of(-1, 0)],
    );
    const top = pack.top([2, 0], 3);
    expect(top.map((t) => t.id)).toEqual([10, 12, 11]);
    expect(top[0]?.score).toBeCloseTo(1, 6);
    expect(top[1]?.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(pack.top([0, 0], 1)[0]?.score).toBe(0);
    expect(() => pack.top([1, 2, 3], 1)).toThrow('The question has 3 values, not 2.');
  });

  it('packs stored blobs as they come from SQLite, leaving out rows of another size', () => {
    const blob = (...values: number[]) => Float32Array.from(values).buffer;
    // A view at an odd offset, as another driver may hand a blob back.
    const shifted = new Uint8Array(9);
    shifted.set(new Uint8Array(blob(1, 1)), 1);
    const pack = PackedVectors.fromBlobs(2, [
      { id: 10, vector: blob(1, 0) },
      { id: 11, vector: blob(0, 1) },
      { id: 14, vector: blob(5, 5, 5) },
      { id: 12n, vector: new Uint8Array(shifted.buffer, 1, 8) },
      { id: 13, vector: blob(-1, 0) },
    ]);
    expect(pack.size).toBe(4);
    const top = pack.top([2, 0], 4);
    expect(top.map((t) => t.id)).toEqual([10, 12, 11, 13]);
    expect(top[1]?.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(top[3]?.score).toBeCloseTo(-1, 6);
  });
});
