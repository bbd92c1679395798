/**
 * cold-start: from a launch to a usable window, on an empty and a heavy user data folder
 * (`user-data/generate.ts`), alternating, over the real services in a cold Node process of their
 * own and the built renderer in Chromium.
 *
 * A launch here is what Electron's main does: start the process, build the services, then open
 * the window on the page. So each run starts the services process (`services-process/`), sends it
 * a first call at once (answered once the services are ready), loads the page when the services
 * say they are ready, and times the page against the moment the process was started. The page's
 * Chromium renderer process is started and left to settle before each launch, so that its start
 * (which Electron makes after the services are ready, and which is Chromium's, not the app's) is
 * neither timed nor taking the services' cores while they start:
 *
 * - services_ready_ms_*: process start to every service ready and that first call answered
 *   (the services process's own clock).
 * - first_paint_ms_*: launch to the page's first contentful paint.
 * - interactive_ms_*: launch until the window is usable: the chat's sidebar painted with the
 *   conversations, the composer (of the conversation open when the app last closed) focused,
 *   and a key typed then taken: the page notes, at an animation frame, that the first two hold
 *   and tells the benchmark, which types a character at once; the time is that character's
 *   `input` event. (The page's storage says where the app was when it closed, as a person's
 *   does: the chat screen, with a conversation open; `empty` has one new, empty one.)
 * - heavy_over_empty: interactive heavy over interactive empty, per pair of runs.
 * - script_kb_at_start / chat_chunk_kb: the built renderer's script the page loads before it
 *   shows anything (the entry and what it imports statically), and the chat screen's own chunk,
 *   in kB of 1,000 bytes as Vite reports them.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { chromium, type Page } from 'playwright-core';
import { startDemoRelay } from '../../electron/demo-relay/index';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/browser';
import { buildPreloadScripts, buildRenderer } from '../e2e/harness/build-renderer';
import type { BridgeScripts } from '../harness/context-bridge/chromium';
import { serveDirectory } from '../e2e/harness/static-server';
import { median, round, type Benchmark, type BenchResult } from './bench';
import {
  bundleServicesProcess,
  connectServicesPage,
  startServicesProcess,
  WEB_CONTENTS_ID,
} from './services-process/host';
import { cachedUserData, SHAPES, type ShapeName, type UserData } from './user-data/generate';

const WARMUP_RUNS = 1;
const MEASURED_RUNS = Number(process.env.COLD_START_RUNS ?? 5);
const KEY = 'sk-bench-cold-start';

interface Run {
  servicesReadyMs: number;
  /** The services' own "ready" (before the first call's answer). */
  servicesBuiltMs: number;
  firstPaintMs: number;
  /** The frame at which sidebar and focused composer were first seen. */
  readySeenMs: number;
  interactiveMs: number;
  /** Scripts the page had fetched by then, in kB, and whether KaTeX was among them. */
  scriptKb: number;
  katexLoaded: boolean;
  conversationsShown: number;
}

/** The few browser globals the page-side code uses (the bench compiles without the DOM library). */
interface El {
  getAttribute(name: string): string | null;
}
interface PageGlobals {
  document: {
    activeElement: El | null;
    querySelectorAll(s: string): ArrayLike<El>;
    addEventListener(type: string, listener: () => void, capture: boolean): void;
  };
  localStorage: { setItem(key: string, value: string): void };
  requestAnimationFrame(callback: () => void): number;
  __benchReady?: (at: number, shown: number) => Promise<void>;
  __benchInputAt?: number;
  performance: {
    getEntriesByType(type: string): Array<{
      name: string;
      startTime: number;
      decodedBodySize?: number;
      initiatorType?: string;
    }>;
  };
}

/**
 * Run in the page before its own scripts: where the app was when it last closed (the chat, with
 * this conversation open), a note of the first `input` event, and a check at each animation
 * frame until the sidebar shows conversations and the composer has the focus, which then calls
 * `__benchReady`. A script's text, not a function: the benchmark's compiler would wrap named
 * functions in a helper the page does not have.
 */
function watchScript(conversation: string): string {
  return `(() => {
    localStorage.setItem('relay.screen', 'chat');
    localStorage.setItem('relay.chat.open', ${JSON.stringify(conversation)});
    document.addEventListener('input', () => {
      if (window.__benchInputAt === undefined)
        window.__benchInputAt = performance.timeOrigin + performance.now();
    }, true);
    const check = () => {
      const focused = document.activeElement?.getAttribute('aria-label') === 'Message';
      const shown = document.querySelectorAll('.chat-conversation-open').length;
      if (focused && shown > 0) {
        window.__benchReady(performance.timeOrigin + performance.now(), shown);
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })();`;
}

async function launch(
  bundle: string,
  scripts: BridgeScripts,
  page: Page,
  origin: string,
  data: UserData,
): Promise<Run> {
  let seen: { at: number; shown: number } | undefined;
  let typed: Promise<void> | undefined;
  await page.exposeBinding('__benchReady', (_source, at: number, shown: number) => {
    seen = { at, shown };
    // Typed at once: the time is when the page takes it.
    typed = page.keyboard.insertText('x');
  });
  await page.addInitScript({ content: watchScript(data.openConversationId) });

  const services = startServicesProcess(bundle, {
    userDataDir: data.userDataDir,
    picturesDir: data.picturesDir,
    activeConnectionId: data.activeConnectionId,
    apiKey: data.apiKey,
    origin,
  });
  try {
    // The first call, sent as the process starts; answered once the services are ready.
    const first = services.invoke('connections:list', undefined, {
      url: `${origin}/`,
      isMainFrame: true,
      webContentsId: WEB_CONTENTS_ID,
    });
    await connectServicesPage(page, scripts, services);
    const ready = await services.ready;
    // Electron's main opens the window once the services are ready.
    await page.goto(origin);
    const answered = await first;
    if (!answered.result.ok) throw new Error('The first call failed');
    for (let i = 0; !typed; i++) {
      if (i > 2400) {
        const state = await page.evaluate(() => {
          const page = globalThis as unknown as PageGlobals;
          return {
            binding: typeof page.__benchReady,
            focused: page.document.activeElement?.getAttribute('aria-label'),
            shown: page.document.querySelectorAll('.chat-conversation-open').length,
          };
        });
        throw new Error(`The chat never became usable: ${JSON.stringify(state)}`);
      }
      await page.waitForTimeout(25);
    }
    await typed;
    const measured = await page.evaluate(async () => {
      const page = globalThis as unknown as PageGlobals;
      for (let i = 0; page.__benchInputAt === undefined; i++) {
        if (i > 200) throw new Error('The typed key never arrived');
        await new Promise((r) => setTimeout(r, 10));
      }
      const paint = page.performance
        .getEntriesByType('paint')
        .find((entry) => entry.name === 'first-contentful-paint');
      const scripts = page.performance
        .getEntriesByType('resource')
        .filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'));
      return {
        inputAt: page.__benchInputAt,
        firstPaintAt: paint ? performance.timeOrigin + paint.startTime : Number.NaN,
        scriptBytes: scripts.reduce((sum, entry) => sum + (entry.decodedBodySize ?? 0), 0),
        katex: scripts.some((entry) => /katex/i.test(entry.name)),
      };
    });
    const input = await page.inputValue('[aria-label="Message"]');
    if (!input.endsWith('x')) throw new Error(`The key went elsewhere (composer holds "${input}")`);
    return {
      servicesReadyMs: answered.at,
      servicesBuiltMs: ready.at,
      firstPaintMs: measured.firstPaintAt - services.startedAt,
      readySeenMs: seen!.at - services.startedAt,
      interactiveMs: measured.inputAt - services.startedAt,
      scriptKb: measured.scriptBytes / 1000,
      katexLoaded: measured.katex,
      conversationsShown: seen!.shown,
    };
  } finally {
    await services.stop();
  }
}

/** Script the built page loads before anything is shown, and the chat screen's chunk, in kB. */
async function scriptSizes(rendererDir: string) {
  const assets = join(rendererDir, 'assets');
  const html = await readFile(join(rendererDir, 'index.html'), 'utf8');
  const size = async (name: string) => (await stat(join(assets, name))).size;
  const imports = async (name: string) =>
    [
      ...(await readFile(join(assets, name), 'utf8')).matchAll(
        /(?:from|import)\s*["'`]\.\/([^"'`]+\.js)["'`]/g,
      ),
    ].map((m) => m[1]!);
  const closure = async (roots: string[]) => {
    const seen = new Set<string>();
    const queue = [...roots];
    while (queue.length > 0) {
      const name = queue.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      queue.push(...(await imports(name)));
    }
    return seen;
  };
  const entries = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const start = await closure(entries);
  const chat = (await readdir(assets)).find((n) => /^chat-screen-[\w-]+\.js$/.test(n));
  if (!chat) throw new Error('No chat-screen chunk in the build');
  const chatScreen = [...(await closure([chat]))].filter((n) => !start.has(n));
  const sum = async (names: Iterable<string>) => {
    let total = 0;
    for (const name of names) total += await size(name);
    return total / 1000;
  };
  return {
    startKb: await sum(start),
    chatChunkKb: (await size(chat)) / 1000,
    chatScreenKb: await sum(chatScreen),
  };
}

export const coldStart: Benchmark = {
  name: 'cold-start',
  async run(): Promise<BenchResult> {
    const work = await mkdtemp(join(tmpdir(), 'relay-bench-cold-start-'));
    const relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000 });
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    try {
      const rendererDir = join(work, 'renderer');
      const [, scripts, bundle] = await Promise.all([
        buildRenderer(rendererDir),
        buildPreloadScripts(join(work, 'preload')),
        bundleServicesProcess(),
      ]);
      const folders = {} as Record<ShapeName, UserData>;
      for (const shape of ['empty', 'heavy'] as const)
        folders[shape] = await cachedUserData(shape, { url: relay.url, key: KEY }, console.log);
      const sizes = await scriptSizes(rendererDir);
      const server = await serveDirectory(rendererDir);
      const loadBefore = loadavg()[0]!;
      const runs: Record<ShapeName, Run[]> = { empty: [], heavy: [] };
      const loads: number[] = [];
      for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
        // Alternating which comes first, so that neither always follows the other.
        const order: ShapeName[] = i % 2 === 0 ? ['empty', 'heavy'] : ['heavy', 'empty'];
        for (const shape of order) {
          const context = await browser.newContext({ viewport: { width: 1180, height: 780 } });
          const page = await context.newPage();
          // The page's renderer process is started, and left to settle, before the launch: in
          // the app, Electron starts it when main opens the window after the services are ready,
          // so its start must not take the services' cores while they start (it is not timed in
          // either: Chromium's process start is not Electron's).
          await page.evaluate(() => 0);
          await new Promise((resolve) => setTimeout(resolve, 300));
          try {
            const run = await launch(bundle, scripts, page, server.origin, folders[shape]);
            if (i >= WARMUP_RUNS) runs[shape].push(run);
          } catch (error) {
            await page.screenshot({ path: join(tmpdir(), `cold-start-${shape}-failure.png`) });
            throw error;
          } finally {
            await context.close();
          }
        }
        loads.push(loadavg()[0]!);
      }
      await server.close();

      const mid = (shape: ShapeName, pick: (r: Run) => number) =>
        round(median(runs[shape].map(pick)));
      const ratios = runs.heavy.map((r, i) => r.interactiveMs / runs.empty[i]!.interactiveMs);
      const heavy = SHAPES.heavy;
      return {
        runs: MEASURED_RUNS,
        chromium: browser.version(),
        metrics: {
          services_ready_ms_heavy: mid('heavy', (r) => r.servicesReadyMs),
          first_paint_ms_heavy: mid('heavy', (r) => r.firstPaintMs),
          interactive_ms_heavy: mid('heavy', (r) => r.interactiveMs),
          heavy_over_empty: round(median(ratios)),
          script_kb_at_start: round(sizes.startKb),
          chat_chunk_kb: round(sizes.chatChunkKb),
          services_ready_ms_empty: mid('empty', (r) => r.servicesReadyMs),
          first_paint_ms_empty: mid('empty', (r) => r.firstPaintMs),
          interactive_ms_empty: mid('empty', (r) => r.interactiveMs),
          services_built_ms_heavy: mid('heavy', (r) => r.servicesBuiltMs),
          ready_seen_ms_heavy: mid('heavy', (r) => r.readySeenMs),
          chat_screen_script_kb: round(sizes.chatScreenKb),
          script_kb_loaded_when_interactive: mid('heavy', (r) => r.scriptKb),
          katex_loaded_at_start: Math.max(...runs.heavy.map((r) => Number(r.katexLoaded))),
        },
        targets: {
          services_ready_ms_heavy: { max: 300 },
          interactive_ms_heavy: { max: 1000 },
          heavy_over_empty: { max: 1.2 },
          script_kb_at_start: { max: 300 },
          chat_chunk_kb: { max: 250 },
        },
        notes: [
          `heavy: ${heavy.connections} connections, ${heavy.conversations} conversations of ${heavy.messagesPerConversation} messages (${folders.heavy.messages} messages, database ${Math.round(folders.heavy.databaseBytes / 1e6)} MB), ${heavy.images} images (indexed), ${heavy.embeddingRuns} embeddings runs of ${heavy.inputsPerRun}; empty: one connection, one empty conversation.`,
          'A launch: the services process is started (a first call sent at once), the page is loaded when it says it is ready.',
          'services_ready: process start to services ready and that call answered; first_paint, interactive: from the launch.',
          'interactive: sidebar with conversations and composer focused (seen at a frame: ready_seen), then a typed key taken.',
          `Per run, interactive heavy ${runs.heavy.map((r) => Math.round(r.interactiveMs)).join(', ')} ms; empty ${runs.empty.map((r) => Math.round(r.interactiveMs)).join(', ')} ms; rows shown ${runs.heavy[0]?.conversationsShown}.`,
          `chat_screen_script_kb: the chat chunk and what it imports beyond the start-up script (kB of 1,000 bytes).`,
          `Load average ${loadBefore.toFixed(1)} at start, ${loads.map((l) => l.toFixed(1)).join(', ')} after each pair, ${availableParallelism()} cores.`,
        ],
      };
    } finally {
      await browser.close();
      await relay.close();
      await rm(work, { recursive: true, force: true });
    }
  },
};
