/**
 * memory-soak: one long session of the real app (services in a Node process of their own, the
 * built renderer in Chromium), measured at fixed checkpoints after forced garbage collections.
 *
 * The session: 40 replies of 4,000 tokens streamed into the chat (markdown with code fences in
 * several languages, tables and formulas, each reply with formulas and code of its own, so
 * caches keep meeting new entries), 30 conversation switches, 5 embeddings runs of 500 inputs
 * with their pictures, and 1,000 scroll steps through a gallery of 2,000 images, interleaved.
 * Everything is first used before the 10th reply, so the figures from there on measure what
 * the session keeps, not code loaded once.
 *
 * - renderer_heap_growth_10_to_40: the page's JS heap after the 40th reply over after the 10th
 *   (each after two forced collections, CDP HeapProfiler.collectGarbage; Runtime.getHeapUsage).
 * - main_rss_growth_10_to_40: the services process's resident memory, same checkpoints (after
 *   two `gc()` calls in it).
 * - dom_nodes_max: the most DOM nodes the page held at any checkpoint (CDP Memory.getDOMCounters).
 *
 * MEMORY_SOAK_SNAPSHOTS=<folder> also writes the page's heap snapshot at each checkpoint there
 * (`renderer-<reply>.heapsnapshot`, for Chromium's Memory panel: compare two to see what grew).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { startDemoRelay } from '../../electron/demo-relay/index';
import { createAppServices } from '../../electron/main/app-services';
import { ChatStore, type NewMessage } from '../../electron/main/services/chat/store';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/browser';
import { buildPreloadScripts, buildRenderer } from '../e2e/harness/build-renderer';
import { serveDirectory } from '../e2e/harness/static-server';
import { ChatPage } from '../e2e/pages/chat-page';
import { EmbeddingsPage } from '../e2e/pages/embeddings-page';
import { round, type Benchmark, type BenchResult } from './bench';
import { buildCorpus } from './chat-render/corpus';
import {
  bundleServicesProcess,
  connectServicesPage,
  startServicesProcess,
} from './services-process/host';
import { writeImages } from './user-data/generate';

const KEY = 'sk-bench-memory-soak';
const REPLIES = 40;
const REPLY_TOKENS = 4_000;
const CONVERSATIONS = 30;
const EMBEDDINGS_INPUTS = 500;
const GALLERY_IMAGES = 2_000;
const SCROLL_STEPS = 1_000;
const CHECKPOINTS = [10, 20, 30, 40];
/** After which replies the session runs embeddings (5 runs), and scrolls the gallery (200 steps each). */
const EMBED_AFTER = new Set([3, 14, 22, 29, 36]);
const SCROLL_AFTER = new Set([6, 17, 25, 32, 38]);

/** Reply `n`: the chat-render corpus cut to 4,000 tokens, with formulas and code of its own. */
function replyText(n: number): string {
  const own = [
    `## Reply ${n}`,
    '',
    `Its own formulas: $x_{${n}}^{2} + y_{${n}} = z^{${n % 7}}$ and $$\\sum_{k=1}^{${n}} k^{${n % 5}} = S_{${n}}$$`,
    '',
    '```python',
    `def reply_${n}(values):`,
    `    return [v * ${n} for v in values if v % ${(n % 9) + 2} == 0]`,
    '```',
    '',
  ].join('\n');
  const text = own + buildCorpus(24_000);
  const words = text.match(/\s*\S+/g) ?? [];
  return words.slice(0, REPLY_TOKENS).join('');
}

function seedMessages(c: number): NewMessage[] {
  return Array.from({ length: 10 }, (_, i) =>
    i % 2 === 0
      ? {
          role: 'user' as const,
          content: `Question ${i} of conversation ${c}`,
          status: 'complete' as const,
        }
      : {
          role: 'assistant' as const,
          content: `Answer ${i} with $a_{${c}}^{${i}}$ and\n\n\`\`\`ts\nconst v${i} = ${c};\n\`\`\``,
          status: 'complete' as const,
          model: 'demo-chat',
        },
  );
}

interface Checkpoint {
  reply: number;
  rendererHeap: number;
  domNodes: number;
  listeners: number;
  mainRss: number;
  mainHeap: number;
}

/** The page's heap snapshot, written to `file` (CDP HeapProfiler, in chunks). */
async function writeHeapSnapshot(cdp: CDPSession, file: string): Promise<void> {
  const chunks: string[] = [];
  const collect = ({ chunk }: { chunk: string }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', collect);
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', collect);
  }
  await writeFile(file, chunks.join(''));
}

async function rendererMemory(
  cdp: CDPSession,
): Promise<{ heap: number; nodes: number; listeners: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const counters = await cdp.send('Memory.getDOMCounters');
  return { heap: usedSize, nodes: counters.nodes, listeners: counters.jsEventListeners };
}

/** Opens the conversation that has waited longest (the sidebar's last row). */
async function switchConversation(page: Page): Promise<void> {
  const scroller = page.locator('.chat-conversations-scroller');
  const before = await shownMessageIds(page);
  // The list may be loaded again and put back at its top meanwhile (a reply just ended, the
  // screen was opened again): then its last row is looked for again.
  for (let attempt = 1; ; attempt++) {
    await scroller.evaluate((element) => {
      const el = element as unknown as { scrollTop: number; scrollHeight: number };
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForTimeout(200);
    const title =
      (await page
        .locator('.chat-conversation-open .chat-conversation-title')
        .last()
        .textContent()) ?? '';
    const row = page.locator('.chat-conversation-open', {
      has: page.locator('.chat-conversation-title', { hasText: new RegExp(`^${title}$`) }),
    });
    try {
      await row.click({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  // Opened: the messages shown are others than before.
  await page.waitForFunction((before) => {
    const doc = (
      globalThis as unknown as {
        document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string }> };
      }
    ).document;
    const ids = Array.from(doc.querySelectorAll('article.chat-message[data-message-id]'), (a) =>
      a.getAttribute('data-message-id'),
    );
    return ids.length > 0 && ids.every((id) => !before.includes(id));
  }, before);
}

/** The ids of the message rows in the page. */
function shownMessageIds(page: Page): Promise<string[]> {
  return page
    .locator('article.chat-message[data-message-id]')
    .evaluateAll((rows) =>
      rows.map((row) => (row as unknown as { dataset: { messageId: string } }).dataset.messageId),
    );
}

async function embeddingsRun(page: Page, run: number): Promise<void> {
  const embeddings = new EmbeddingsPage(page);
  await embeddings.open();
  for (let i = 0; (await embeddings.model.inputValue()) !== 'demo-embedding'; i++) {
    if (i > 200) throw new Error('No embedding model was offered');
    await page.waitForTimeout(25);
  }
  await embeddings.lines.fill(
    Array.from(
      { length: EMBEDDINGS_INPUTS },
      (_, i) => `run ${run} text ${i} about topic ${i % 17}`,
    ).join('\n'),
  );
  await embeddings.embedButton.click();
  // The run shown before keeps its pictures on the screen until this one has started: wait for
  // this run to be the one shown, and finished, before waiting for pictures (which are then its
  // own). Leaving the screen mid-run would measure a different session.
  await embeddings.runs
    .locator('li.runs-item[aria-current="true"]')
    .filter({ hasText: `run ${run} text 0 about` })
    .filter({ hasText: '· done' })
    .waitFor({ timeout: 120_000 });
  await embeddings.progress.waitFor({ state: 'hidden', timeout: 120_000 });
  await embeddings.waitForPictures(120_000);
}

async function scrollGallery(page: Page, steps: number): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('button', { name: 'Images', exact: true })
    .click();
  const grid = page.locator('.gallery-grid');
  await grid.waitFor();
  await page.evaluate(async (count) => {
    const doc = (
      globalThis as unknown as {
        document: {
          querySelector(
            s: string,
          ): { scrollTop: number; scrollHeight: number; clientHeight: number } | null;
        };
      }
    ).document;
    const scroller = doc.querySelector('.gallery-grid');
    if (!scroller) throw new Error('No gallery grid');
    let down = true;
    for (let i = 0; i < count; i++) {
      // Down to the end and back up, as someone looking for an old picture does.
      if (down && scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2)
        down = false;
      if (!down && scroller.scrollTop === 0) down = true;
      scroller.scrollTop += down ? 600 : -600;
      await new Promise<void>((r) =>
        (
          globalThis as unknown as { requestAnimationFrame(c: () => void): void }
        ).requestAnimationFrame(r),
      );
    }
  }, steps);
}

/** Waits until `count` replies have finished (main's `chat:reply-finished` events); the last one's status. */
async function replyFinished(finished: readonly string[], count: number): Promise<string> {
  const deadline = performance.now() + 120_000;
  while (finished.length < count) {
    if (performance.now() > deadline) throw new Error(`Reply ${count} did not finish in 2 minutes`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return finished[count - 1]!;
}

async function openChat(page: Page): Promise<ChatPage> {
  const chat = new ChatPage(page);
  await chat.open();
  return chat;
}

export const memorySoak: Benchmark = {
  name: 'memory-soak',
  async run(): Promise<BenchResult> {
    const work = await mkdtemp(join(tmpdir(), 'relay-bench-memory-soak-'));
    const relay = await startDemoRelay({
      keys: [KEY],
      ratePerMinute: 1_000_000,
      balance: 1_000_000,
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    try {
      const rendererDir = join(work, 'renderer');
      const userDataDir = join(work, 'user-data');
      const picturesDir = join(work, 'Pictures');
      const [, scripts, bundle] = await Promise.all([
        buildRenderer(rendererDir),
        buildPreloadScripts(join(work, 'preload')),
        bundleServicesProcess(),
        writeImages(join(picturesDir, 'Relay Desktop'), GALLERY_IMAGES),
      ]);
      // The folder a person has after a while: a connection, 30 conversations, a gallery.
      await mkdir(userDataDir, { recursive: true });
      const setup = await createAppServices({
        userDataDir,
        picturesDir,
        secretStore: new MemorySecretStore(),
      });
      const { id: connectionId } = await setup.connections.create({
        name: 'Soak relay',
        baseUrl: relay.url,
        apiKey: KEY,
      });
      await setup.models.list({ refresh: true });
      const store = new ChatStore(setup.db);
      for (let c = 0; c < CONVERSATIONS; c++) {
        const conversation = store.create({ title: `Soak conversation ${c}`, model: 'demo-chat' });
        store.append(conversation.id, seedMessages(c));
      }
      await setup.gallery.whenIndexed();
      await setup.close();

      const replies = Array.from({ length: REPLIES }, (_, i) => replyText(i + 1));
      const server = await serveDirectory(rendererDir, () => undefined);
      const services = startServicesProcess(bundle, {
        userDataDir,
        picturesDir,
        activeConnectionId: connectionId,
        apiKey: KEY,
        origin: server.origin,
        chatReplies: replies,
        tokensPerSecond: 8_000,
      });
      const loadBefore = loadavg()[0]!;
      const checkpoints: Checkpoint[] = [];
      const started = performance.now();
      let switches = 0;
      let scrolled = 0;
      let embedded = 0;
      try {
        await services.ready;
        // Each reply's end, as main announces it (the page may not show it: it is the session's
        // memory that is measured here, not what the view follows).
        const finished: string[] = [];
        services.onEvent((channel, payload) => {
          if (channel === 'chat:reply-finished')
            finished.push((payload as { status: string }).status);
        });
        const context = await browser.newContext({ viewport: { width: 1180, height: 780 } });
        const page = await context.newPage();
        // The session starts on the chat screen, as the app reopens where it was closed.
        await page.addInitScript({ content: "localStorage.setItem('relay.screen', 'chat');" });
        await connectServicesPage(page, scripts, services);
        const cdp = await context.newCDPSession(page);
        await cdp.send('HeapProfiler.enable');
        await page.goto(server.origin);
        let chat = await openChat(page);
        for (let n = 1; n <= REPLIES; n++) {
          try {
            if (n === 1 || n % 4 !== 0) {
              await switchConversation(page);
              switches++;
            }
            const question = `Question ${n}: a long answer with code and formulas, please.`;
            // The page learns that the last reply ended after main (its events cross the harness's
            // bridge later): until then the composer holds sending back ("Wait for the reply").
            await page
              .locator('.chat-composer')
              .getByRole('button', { name: 'Send', exact: true })
              .waitFor({ timeout: 60_000 });
            await chat.send(question);
            const status = await replyFinished(finished, n);
            if (status !== 'complete') throw new Error(`Reply ${n} ended ${status}`);
            if (EMBED_AFTER.has(n)) {
              await embeddingsRun(page, n);
              embedded++;
              chat = await openChat(page);
            }
            if (SCROLL_AFTER.has(n)) {
              await scrollGallery(page, SCROLL_STEPS / SCROLL_AFTER.size);
              scrolled += SCROLL_STEPS / SCROLL_AFTER.size;
              chat = await openChat(page);
            }
            if (CHECKPOINTS.includes(n)) {
              const renderer = await rendererMemory(cdp);
              const snapshots = process.env.MEMORY_SOAK_SNAPSHOTS;
              if (snapshots) {
                await mkdir(snapshots, { recursive: true });
                await writeHeapSnapshot(cdp, join(snapshots, `renderer-${n}.heapsnapshot`));
              }
              const main = await services.memory();
              checkpoints.push({
                reply: n,
                rendererHeap: renderer.heap,
                domNodes: renderer.nodes,
                listeners: renderer.listeners,
                mainRss: main.rss,
                mainHeap: main.heapUsed,
              });
            }
          } catch (error) {
            // Where in the session it stopped, for whoever reads the failure.
            throw new Error(
              `At reply ${n} of ${REPLIES}: ${error instanceof Error ? error.message : String(error)}`,
              { cause: error },
            );
          }
        }
        await context.close();
      } finally {
        await services.stop();
        await server.close();
      }
      const at = (reply: number) => checkpoints.find((c) => c.reply === reply)!;
      const mb = (bytes: number) => round(bytes / 1048576, 3);
      return {
        runs: 1,
        chromium: browser.version(),
        metrics: {
          renderer_heap_growth_10_to_40: round(at(40).rendererHeap / at(10).rendererHeap),
          main_rss_growth_10_to_40: round(at(40).mainRss / at(10).mainRss),
          dom_nodes_max: Math.max(...checkpoints.map((c) => c.domNodes)),
          renderer_heap_mb_10: mb(at(10).rendererHeap),
          renderer_heap_mb_40: mb(at(40).rendererHeap),
          main_rss_mb_10: mb(at(10).mainRss),
          main_rss_mb_40: mb(at(40).mainRss),
          main_heap_growth_10_to_40: round(at(40).mainHeap / at(10).mainHeap),
          js_event_listeners_10: at(10).listeners,
          js_event_listeners_40: at(40).listeners,
          session_seconds: round((performance.now() - started) / 1000),
        },
        targets: {
          renderer_heap_growth_10_to_40: { max: 1.15 },
          main_rss_growth_10_to_40: { max: 1.15 },
        },
        notes: [
          `${REPLIES} replies of ${REPLY_TOKENS} tokens (code in several languages, a table, formulas; each its own), ${switches} conversation switches,`,
          `${embedded} embeddings runs of ${EMBEDDINGS_INPUTS} inputs with pictures, ${scrolled} gallery scroll steps (${GALLERY_IMAGES} images), in one session.`,
          `Checkpoints after replies ${CHECKPOINTS.join(', ')}: renderer heap MB ${checkpoints.map((c) => mb(c.rendererHeap)).join(', ')};`,
          `DOM nodes ${checkpoints.map((c) => c.domNodes).join(', ')}; listeners ${checkpoints.map((c) => c.listeners).join(', ')};`,
          `main RSS MB ${checkpoints.map((c) => mb(c.mainRss)).join(', ')}; main heap MB ${checkpoints.map((c) => mb(c.mainHeap)).join(', ')}.`,
          `One session (runs: 1); load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end, ${availableParallelism()} cores.`,
        ],
      };
    } finally {
      await browser.close();
      await relay.close();
      await rm(work, { recursive: true, force: true });
    }
  },
};
