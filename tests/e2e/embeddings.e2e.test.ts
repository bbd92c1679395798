import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DemoRelay } from '../../electron/demo-relay/index';
import { startDemoRelay } from '../../electron/demo-relay/index';
import { embedText } from '../../electron/demo-relay/models/embeddings';
import type { Dialogs } from '../../electron/main/app-context';
import {
  startE2e,
  type AppUnderTest,
  type E2eSession,
  type OpenAppOptions,
} from './harness/harness';
import { newKey } from './harness/relay';
import { ConnectPage } from './pages/connect-page';
import { EmbeddingsPage } from './pages/embeddings-page';

let e2e: E2eSession;
let relay: DemoRelay;
let app: AppUnderTest | undefined;
let scratch: string;
const key = newKey();

beforeAll(async () => {
  [e2e, relay] = await Promise.all([
    startE2e(),
    startDemoRelay({ keys: [key], tokensPerSecond: 0, ratePerMinute: 100_000 }),
  ]);
  scratch = await mkdtemp(join(tmpdir(), 'relay-e2e-embeddings-'));
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  relay.setFaults(undefined);
  relay.setBalance(key, 100);
});
afterAll(async () => {
  await Promise.all([e2e?.close(), relay?.close()]);
  await rm(scratch, { recursive: true, force: true });
});

async function connected(
  options: OpenAppOptions = {},
  consoleUrl?: string,
): Promise<EmbeddingsPage> {
  app = await e2e.openApp(options);
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.connect({ name: 'Embeddings relay', baseUrl: relay.url, apiKey: key });
  if (consoleUrl) {
    const [connection] = await app.services.connections.list();
    await app.services.connections.update(connection!.id, { consoleUrl });
  }
  const page = new EmbeddingsPage(app.page);
  await page.open();
  await expect.poll(() => page.model.inputValue()).toBe('demo-embedding');
  return page;
}

describe('embeddings playground', () => {
  it('embeds texts, shows their vectors, and ranks by meaning: cat is nearer kitten than invoice', async () => {
    const page = await connected();
    await page.embedLines(['cat', 'kitten', 'invoice', 'receipt']);
    await page.waitForPictures();
    await expect.poll(() => page.row(0).textContent()).toContain('256');
    expect(await page.row(0).textContent()).toContain('1.0000');

    // Hovering a cell of the heatmap says the pair and its similarity.
    await page.heatmap.hover({ position: { x: 20, y: 20 } });
    await expect.poll(() => page.heatmapReadout.textContent()).toMatch(/: 1\.000$/);

    // And by keyboard: the arrow keys walk the cells, the value is announced.
    await page.heatmap.focus();
    await app!.page.keyboard.press('ArrowRight');
    await app!.page.keyboard.press('ArrowRight');
    await expect.poll(() => page.heatmapReadout.textContent()).toMatch(/” and “.*”: -?\d\.\d{3}$/);

    const ranked = await page.nearest('kitty');
    expect(ranked.indexOf('kitten')).toBeLessThan(ranked.indexOf('invoice'));
    expect(ranked[0]).toMatch(/^(cat|kitten)$/);
    expect(app!.pageErrors).toEqual([]);
    expect(app!.cspViolations.filter((v) => !v.startsWith('font-src'))).toEqual([]);
  });

  it('refuses empty lines before sending anything, naming them', async () => {
    const page = await connected();
    await page.lines.fill('one\ntwo\n\nfour\nfive\nsix\n  \neight');
    await page.embedButton.click();
    await expect.poll(() => page.inputError.textContent()).toContain('Lines 3 and 7 are empty.');
    expect(app!.messages.some((m) => m.channel === 'embeddings:start')).toBe(false);
  });

  it('exports JSON and CSV through the save dialog, matching the vectors', async () => {
    const saved: string[] = [];
    const dialogs: Dialogs = {
      chooseSavePath: async ({ defaultName }) => {
        const path = join(scratch, defaultName);
        saved.push(path);
        return path;
      },
      chooseOpenPaths: async () => [],
    };
    const page = await connected({ dialogs });
    await page.embedLines(['cat', 'kitten']);
    await page.waitForPictures();
    await app!.page.getByRole('button', { name: 'Export JSON…' }).click();
    await expect.poll(() => app!.page.getByText(/^Saved 2 vectors to/).count()).toBe(1);
    const json = JSON.parse(await readFile(saved[0]!, 'utf8')) as {
      inputs: Array<{ text: string; embedding: number[] }>;
    };
    expect(json.inputs.map((i) => i.embedding)).toEqual([embedText('cat'), embedText('kitten')]);

    await app!.page.getByRole('button', { name: 'Export CSV…' }).click();
    await expect.poll(() => saved.length).toBe(2);
    await expect
      .poll(async () => (await readFile(saved[1]!, 'utf8').catch(() => '')).length)
      .toBeGreaterThan(0);
    const lines = (await readFile(saved[1]!, 'utf8')).trim().split('\r\n');
    expect(lines[1]!.split(',').slice(2).map(Number)).toEqual(embedText('cat'));
  });

  it('a cancelled large run keeps its finished batches and can go on', async () => {
    const slow = await startDemoRelay({
      keys: [key],
      tokensPerSecond: 0,
      ratePerMinute: 100_000,
      // Slow enough that a run of 15 batches, six at a time, is still going when it is cancelled.
      latencyMs: 600,
    });
    try {
      app = await e2e.openApp();
      const connect = new ConnectPage(app.page);
      await connect.waitUntilShown();
      await connect.connect({ name: 'Slow relay', baseUrl: slow.url, apiKey: key });
      const page = new EmbeddingsPage(app.page);
      await page.open();
      await expect.poll(() => page.model.inputValue()).toBe('demo-embedding');
      await page.embedLines(Array.from({ length: 960 }, (_, i) => `text number ${i}`));
      await page.progress.waitFor();
      await expect
        .poll(() => page.progress.getByRole('status').textContent())
        .toMatch(/^[1-9]\d* of 960/);
      await page.progress.getByRole('button', { name: 'Cancel' }).click();
      const notice = app.page.getByText(/inputs were embedded before it stopped, and were kept/);
      await notice.waitFor();
      const done = Number(/^(\d+) of 960/.exec((await notice.textContent()) ?? '')?.[1]);
      expect(done).toBeGreaterThan(0);
      expect(done % 64).toBe(0);
      expect(done).toBeLessThan(960);
      await page.waitForPictures();
      await expect.poll(() => page.row(0).textContent()).toContain('256');
    } finally {
      await app?.close();
      app = undefined;
      await slow.close();
    }
  });

  it('a failing server offers Retry in place', async () => {
    const page = await connected();
    relay.setFaults({ status: 503 });
    await page.embedLines(['cat', 'dog']);
    const notice = app!.page.getByRole('alert').filter({ hasText: 'HTTP 503' });
    await notice.waitFor({ timeout: 20_000 });
    relay.setFaults(undefined);
    await notice.getByRole('button', { name: 'Retry' }).click();
    await page.waitForPictures();
  });

  it('a run survives a restart and can be reopened and run again', async () => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'relay-e2e-restart-'));
    try {
      let page = await connected({ userDataDir });
      await page.embedLines(['dog', 'puppy', 'invoice']);
      await page.waitForPictures();
      await app!.close();

      app = await e2e.openApp({ userDataDir });
      page = new EmbeddingsPage(app.page);
      await page.open();
      await page.runs.getByRole('button', { name: 'Open the run “dog”' }).click();
      await page.waitForPictures();
      expect(await page.row(1).textContent()).toContain('puppy');
      await page.runs.getByRole('button', { name: 'Re-run “dog”' }).first().click();
      await expect.poll(() => page.runs.getByRole('listitem').count()).toBe(2);
    } finally {
      await app?.close();
      app = undefined;
      await rm(userDataDir, { recursive: true, force: true });
    }
  });
});
