/**
 * The embeddings playground's services behind the real router and bridge, against the demo relay
 * (whose vectors carry some meaning) and a real SQLite file.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { embedText } from '../../electron/demo-relay/models/embeddings';
import type { Dialogs } from '../../electron/main/app-context';
import { createAppServices, type AppServices } from '../../electron/main/app-services';
import { createRouter, trustedSender } from '../../electron/main/ipc/router';
import { parseCsv } from '../../electron/main/services/embeddings/input-file';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { MAX_CONCURRENT_REQUESTS } from '../../electron/main/services/relay/limiter';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { pageBridge } from '../fakes/page-bridge';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { checkedEvents } from '../fakes/contract-events';

const KEY = 'sk-demo-embeddings-5d1c9a0e';
const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };

let relay: DemoRelay;
let slowRelay: DemoRelay;
let dataDir: string;
let services: AppServices | undefined;
let secrets: MemorySecretStore;
const events: Array<{ channel: string; payload: unknown }> = [];
const listeners = new Map<string, Set<(payload: unknown) => void>>();
let dialogs: Dialogs;

async function open(fetchImpl?: FetchLike) {
  services = await createAppServices({
    userDataDir: dataDir,
    secretStore: secrets,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    emit: checkedEvents((channel, payload) => {
      events.push({ channel, payload });
      for (const listener of listeners.get(channel) ?? []) listener(payload);
    }),
    dialogs: {
      chooseSavePath: (o) => dialogs.chooseSavePath(o),
      chooseOpenPaths: (o) => dialogs.chooseOpenPaths(o),
    },
  });
  const router = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [1]),
  });
  return pageBridge(
    (channel, payload) => router.dispatch(channel, payload, sender),
    (channel, listener) => {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    (channel, payload) => void router.receive(channel, payload, sender),
  );
}

type RelayApi = Awaited<ReturnType<typeof open>>;

async function connect(api: RelayApi, target: DemoRelay = relay) {
  await api.createConnection({ name: 'Local', baseUrl: target.url, apiKey: KEY });
}

/** Resolves with the end event of a run. */
function ended(api: RelayApi, runId: string) {
  return new Promise<{
    status: string;
    done: number;
    total: number;
    error?: { kind: string; status?: number | undefined } | undefined;
  }>((resolve) => {
    const off = api.onEmbeddingRunEnded((payload) => {
      if (payload.runId !== runId) return;
      off();
      resolve(payload);
    });
  });
}

/** A page's rows as lists of numbers, null for an input not embedded yet. */
function rowsOf(page: {
  offset: number;
  dimensions: number;
  count: number;
  values: Float32Array;
  missing: number[];
}): Array<number[] | null> {
  const missing = new Set(page.missing);
  return Array.from({ length: page.count }, (_, row) =>
    missing.has(page.offset + row)
      ? null
      : Array.from(page.values.subarray(row * page.dimensions, (row + 1) * page.dimensions)),
  );
}

async function allVectors(api: RelayApi, runId: string): Promise<Array<number[] | null>> {
  const out: Array<number[] | null> = [];
  for (;;) {
    const page = await api.getEmbeddingVectors({ runId, offset: out.length, limit: 500 });
    if (page.count === 0) return out;
    out.push(...rowsOf(page));
  }
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return dot / Math.sqrt(na * nb);
}

const many = (n: number) =>
  Array.from({ length: n }, (_, i) => `sentence number ${i} about things`);

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000 });
  slowRelay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, latencyMs: 40 });
});
afterAll(async () => {
  await relay.close();
  await slowRelay.close();
});
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-embeddings-'));
  secrets = new MemorySecretStore();
  events.length = 0;
  listeners.clear();
  dialogs = { chooseSavePath: async () => undefined, chooseOpenPaths: async () => [] };
  relay.setBalance(KEY, 100);
  relay.setFaults(undefined);
});
afterEach(async () => {
  await services?.close();
  services = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

describe('embeddings over the router', () => {
  it('embeds a set whose vectors carry meaning: cat is nearer kitten than invoice', async () => {
    const api = await open();
    await connect(api);
    const { runId } = await api.startEmbeddingRun({
      model: 'demo-embedding',
      inputs: ['cat', 'kitten', 'invoice'],
    });
    expect(await ended(api, runId)).toMatchObject({ status: 'done', done: 3, total: 3 });
    const run = await api.getEmbeddingRun({ runId });
    expect(run).toMatchObject({ model: 'demo-embedding', status: 'done', dimensions: 256 });
    expect(run.items.map((i) => i.text)).toEqual(['cat', 'kitten', 'invoice']);
    for (const item of run.items) {
      expect(item.dimensions).toBe(256);
      expect(item.norm).toBeCloseTo(1, 5);
      expect(item.preview).toHaveLength(8);
    }
    expect(run.promptTokens).toBeGreaterThan(0);
    const [cat, kitten, invoice] = (await allVectors(api, runId)) as number[][];
    expect(cosine(cat!, kitten!)).toBeGreaterThan(cosine(cat!, invoice!));
    expect(cat).toEqual(embedText('cat'));
  });

  it('refuses empty entries before anything is sent, naming them', async () => {
    const api = await open();
    await connect(api);
    await expect(
      api.startEmbeddingRun({
        model: 'demo-embedding',
        inputs: ['a', 'b', ' ', 'c', 'd', 'e', ''],
      }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringContaining('Lines 3 and 7 are empty'),
      values: {
        detail: {
          id: 'form.embeddings.emptyLines',
          values: { count: 2, list: '3', last: 7, more: 0 },
        },
      },
    });
    expect(await api.listEmbeddingRuns()).toEqual([]);
  });

  it('sends batches of a bounded size, reports progress per batch, and pages vectors', async () => {
    const api = await open();
    await connect(api);
    const { runId } = await api.startEmbeddingRun({ model: 'demo-embedding', inputs: many(150) });
    await ended(api, runId);
    const progress = events
      .filter((e) => e.channel === 'embeddings:progress')
      .map((e) => (e.payload as { done: number }).done);
    // Batches of 64 at most, saved as each arrives (several are sent at once, so in any order).
    expect(progress).toHaveLength(3);
    expect(progress.at(-1)).toBe(150);
    const steps = progress.map((done, i) => done - (progress[i - 1] ?? 0)).sort((a, b) => a - b);
    expect(steps).toEqual([22, 64, 64]);
    const window = await api.getEmbeddingRun({ runId, offset: 100, limit: 30 });
    expect(window.items.map((i) => i.index)).toEqual(Array.from({ length: 30 }, (_, i) => 100 + i));
    expect(window).toMatchObject({
      total: 150,
      done: 150,
      firstInput: 'sentence number 0 about things',
    });
    const page = await api.getEmbeddingVectors({ runId, offset: 140, limit: 100 });
    expect(page).toMatchObject({ offset: 140, dimensions: 256, count: 10, missing: [] });
    // One block of float32, as IPC copies it: 10 rows of 256 values.
    expect(page.values).toBeInstanceOf(Float32Array);
    expect(page.values).toHaveLength(2560);
    expect(rowsOf(page)[9]).toEqual(
      Array.from(Float32Array.from(embedText('sentence number 149 about things'))),
    );
  });

  it("sends a run's batches at once, as many as the connection's limiter lets through", async () => {
    const requests = { open: 0, most: 0, all: 0 };
    const api = await open(async (url, init) => {
      if (!url.endsWith('/embeddings')) return fetch(url, init);
      requests.open++;
      requests.all++;
      requests.most = Math.max(requests.most, requests.open);
      try {
        return await fetch(url, init);
      } finally {
        requests.open--;
      }
    });
    await connect(api, slowRelay);
    const { runId } = await api.startEmbeddingRun({
      model: 'demo-embedding',
      inputs: many(64 * 12),
    });
    expect(await ended(api, runId)).toMatchObject({ status: 'done', done: 768 });
    expect(requests.all).toBe(12);
    // Twelve answers of 40 ms each: six were waited for at once (one after another before).
    expect(requests.most).toBe(MAX_CONCURRENT_REQUESTS);
    const vectors = await allVectors(api, runId);
    expect(vectors.every((v) => v !== null)).toBe(true);
    expect(vectors[700]).toEqual(embedText('sentence number 700 about things'));
  });

  it('cancel mid-run keeps the finished batches and marks the run cancelled', async () => {
    const api = await open();
    await connect(api, slowRelay);
    const { runId } = await api.startEmbeddingRun({
      model: 'demo-embedding',
      inputs: many(64 * 8),
    });
    const end = ended(api, runId);
    await new Promise<void>((resolve) => {
      const off = api.onEmbeddingProgress((p) => {
        if (p.runId === runId && p.done >= 128) {
          off();
          resolve();
        }
      });
    });
    await api.cancelEmbeddingRun({ runId });
    const result = await end;
    expect(result.status).toBe('cancelled');
    expect(result.done).toBeGreaterThanOrEqual(128);
    expect(result.done).toBeLessThan(512);
    expect(result.done % 64).toBe(0);
    const run = await api.getEmbeddingRun({ runId });
    expect(run.status).toBe('cancelled');
    expect(run.items.filter((i) => i.dimensions === 256)).toHaveLength(result.done);
    const vectors = await allVectors(api, runId);
    expect(vectors[0]).toEqual(embedText('sentence number 0 about things'));
    expect(vectors[511]).toBeNull();

    // Going on sends only what is missing.
    await api.resumeEmbeddingRun({ runId });
    expect(await ended(api, runId)).toMatchObject({ status: 'done', done: 512 });
  });

  it('a 402 mid-run keeps the finished batches, says why, and the run can go on after a top-up', async () => {
    const api = await open();
    await connect(api);
    relay.setBalance(KEY, 0.03); // three requests
    const { runId } = await api.startEmbeddingRun({
      model: 'demo-embedding',
      inputs: many(64 * 5),
    });
    const result = await ended(api, runId);
    expect(result).toMatchObject({
      status: 'failed',
      done: 192,
      error: { kind: 'insufficient_balance', status: 402 },
    });
    const run = await api.getEmbeddingRun({ runId });
    expect(run.error?.kind).toBe('insufficient_balance');
    expect(run.items.filter((i) => i.dimensions !== undefined)).toHaveLength(192);

    relay.setBalance(KEY, 100);
    await api.resumeEmbeddingRun({ runId });
    expect(await ended(api, runId)).toMatchObject({ status: 'done', done: 320 });
    expect((await api.getEmbeddingRun({ runId })).error).toBeUndefined();
  });

  it('a relay that keeps failing ends the run as server_error, to be retried', async () => {
    const api = await open();
    await connect(api);
    relay.setFaults({ status: 503 });
    const { runId } = await api.startEmbeddingRun({ model: 'demo-embedding', inputs: ['cat'] });
    expect(await ended(api, runId)).toMatchObject({
      status: 'failed',
      done: 0,
      error: { kind: 'server_error', status: 503 },
    });
    expect(
      events.some(
        (e) =>
          e.channel === 'relay:retry-scheduled' &&
          (e.payload as { requestId: string }).requestId === runId,
      ),
    ).toBe(true);
  }, 30_000);

  it('keeps runs across a restart, and re-runs and deletes them', async () => {
    let api = await open();
    await connect(api);
    const { runId } = await api.startEmbeddingRun({
      model: 'demo-embedding',
      inputs: ['dog', 'puppy'],
    });
    await ended(api, runId);
    await services?.close();

    api = await open();
    const runs = await api.listEmbeddingRuns();
    expect(runs).toMatchObject([
      { id: runId, model: 'demo-embedding', status: 'done', total: 2, done: 2, firstInput: 'dog' },
    ]);
    expect((await allVectors(api, runId))[1]).toEqual(embedText('puppy'));

    const again = await api.rerunEmbeddingRun({ runId });
    expect(again.runId).not.toBe(runId);
    await ended(api, again.runId);
    expect((await api.getEmbeddingRun({ runId: again.runId })).items.map((i) => i.text)).toEqual([
      'dog',
      'puppy',
    ]);

    await api.deleteEmbeddingRun({ runId });
    expect((await api.listEmbeddingRuns()).map((r) => r.id)).toEqual([again.runId]);
    await expect(api.getEmbeddingRun({ runId })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('exports JSON and CSV files that parse and match the vectors', async () => {
    const api = await open();
    await connect(api);
    const inputs = ['cat', 'a "quoted", text\nwith a line break', 'invoice'];
    const { runId } = await api.startEmbeddingRun({ model: 'demo-embedding', inputs });
    await ended(api, runId);
    const vectors = (await allVectors(api, runId)) as number[][];
    expect(vectors[2]).toEqual(embedText('invoice'));

    const jsonPath = join(dataDir, 'out.json');
    dialogs.chooseSavePath = async () => jsonPath;
    expect(await api.exportEmbeddingRun({ runId, format: 'json' })).toEqual({
      path: jsonPath,
      savedId: expect.any(String),
      rows: 3,
    });
    const json = JSON.parse(await readFile(jsonPath, 'utf8')) as {
      model: string;
      inputs: Array<{ index: number; text: string; embedding: number[] }>;
    };
    expect(json.model).toBe('demo-embedding');
    expect(json.inputs.map((i) => i.text)).toEqual(inputs);
    expect(json.inputs.map((i) => i.embedding)).toEqual(vectors);

    const csvPath = join(dataDir, 'out.csv');
    dialogs.chooseSavePath = async () => csvPath;
    await api.exportEmbeddingRun({ runId, format: 'csv' });
    const rows = parseCsv(await readFile(csvPath, 'utf8'));
    expect(rows[0]?.slice(0, 3)).toEqual(['index', 'text', 'd0']);
    expect(rows[0]).toHaveLength(2 + 256);
    expect(rows.slice(1).map((r) => r[1])).toEqual(inputs);
    rows.slice(1).forEach((row, i) => {
      expect(row.slice(2).map(Number)).toEqual(vectors[i]);
    });

    dialogs.chooseSavePath = async () => undefined;
    expect(await api.exportEmbeddingRun({ runId, format: 'csv' })).toEqual({ rows: 0 });
  });

  it('opens inputs from .txt and .csv files, and says plainly what is wrong with a bad file', async () => {
    const api = await open();
    const txt = join(dataDir, 'texts.txt');
    await writeFile(txt, 'cat\r\n\r\nkitten\ninvoice\n');
    dialogs.chooseOpenPaths = async () => [txt];
    expect(await api.openEmbeddingInputs()).toEqual({
      fileName: 'texts.txt',
      inputs: ['cat', 'kitten', 'invoice'],
      skippedEmpty: 1,
    });

    const csv = join(dataDir, 'texts.csv');
    await writeFile(csv, 'id,text\n1,"cat, sleeping"\n2,kitten\n');
    dialogs.chooseOpenPaths = async () => [csv];
    expect((await api.openEmbeddingInputs()).inputs).toEqual(['cat, sleeping', 'kitten']);

    const binary = join(dataDir, 'image.txt');
    await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    dialogs.chooseOpenPaths = async () => [binary];
    await expect(api.openEmbeddingInputs()).rejects.toMatchObject({
      kind: 'invalid_request',
      message: 'image.txt cannot be used: it is not a text file.',
    });

    const latin1 = join(dataDir, 'latin.txt');
    await writeFile(latin1, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    dialogs.chooseOpenPaths = async () => [latin1];
    await expect(api.openEmbeddingInputs()).rejects.toMatchObject({
      message: 'latin.txt cannot be used: it is not UTF-8 text.',
    });

    const pdf = join(dataDir, 'doc.pdf');
    await writeFile(pdf, '%PDF');
    dialogs.chooseOpenPaths = async () => [pdf];
    await expect(api.openEmbeddingInputs()).rejects.toMatchObject({
      message: expect.stringContaining('open a .txt file'),
    });

    const blank = join(dataDir, 'blank.txt');
    await writeFile(blank, '\n  \n');
    dialogs.chooseOpenPaths = async () => [blank];
    await expect(api.openEmbeddingInputs()).rejects.toMatchObject({
      message: 'blank.txt cannot be used: it holds no text.',
    });

    dialogs.chooseOpenPaths = async () => [];
    expect(await api.openEmbeddingInputs()).toEqual({ inputs: [], skippedEmpty: 0 });
  });

  it('embeds a query for "Nearest to…" without saving a run', async () => {
    const api = await open();
    await connect(api);
    const { vector } = await api.embedQuery({ model: 'demo-embedding', text: 'kitty' });
    expect(vector).toEqual(embedText('kitty'));
    expect(await api.listEmbeddingRuns()).toEqual([]);
  });
});
