/**
 * kb-index: indexing a folder of 2,000 Markdown files (50,000 chunks, kb-corpus.ts) into a
 * knowledge base through the real services, the demo relay embedding every chunk (256
 * dimensions, batches of 64 over HTTP), while the real Knowledge screen shows the progress in
 * Chromium.
 *
 * - index_chunks_per_second: chunks over the wall time from adding the folder to the end of
 *   indexing (reading, chunking, storing, embedding). Reported, no target.
 * - main's share apart from the relay's: the relay runs in a process of its own (the demo relay's
 *   command line), so `main_cpu_ms` is the app process's CPU time over the span (main's thread,
 *   the document worker, and the bench's page server and browser driver, which the app does not
 *   have), `relay_cpu_ms` the relay's, and `main_thread_busy_ms` the time main's own event loop
 *   was busy (its event loop utilisation). `main_longest_stall_ms`: the longest time main's
 *   event loop was late, which is how long a click or an IPC call could wait.
 * - reindex_one_file_ms: one file changed (every section new text), then "Check for changes":
 *   from the call until indexing ended (walk 2,000 files, read and chunk the one, embed its 25
 *   chunks). Target ≤ 1,000.
 * - long_tasks_over_50ms: tasks on the page's main thread over 50 ms of CPU time (thread time,
 *   Chromium trace) while the full index runs, the Knowledge screen open on the base. Target 0;
 *   `_wall`: the page's longtask observer (wall time, which counts waiting for a core).
 *
 * Each run indexes a new base over the same folder (deleted after); medians of the measured
 * runs after a warm-up. KB_INDEX_RUNS and KB_INDEX_WARMUP change their numbers (default 5, 1);
 * KB_INDEX_TRACE=1 prints what ran in each long page task (trace events and a CPU profile).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { build } from 'vite';
import { median, round, type Benchmark, type BenchResult } from './bench';
import { startRelayProcess, type RelayProcess } from './relay-process';
import { withBenchSession, type BenchSession } from './bench-session';
import {
  attributeLongTasks,
  mainThreadTasks,
  profileLongTasks,
  startTrace,
  TASK_CATEGORIES,
} from './chat-render/trace-tasks';
import { CHUNKS_PER_FILE, corpusMarkdown, corpusRandom, FILES, WORDS_PER_CHUNK } from './kb-corpus';

const KEY = 'sk-bench-kb-index-3f2a';
const RUNS = Number(process.env.KB_INDEX_RUNS ?? 5);
const WARMUP = Number(process.env.KB_INDEX_WARMUP ?? 1);
const CHUNKS = FILES * CHUNKS_PER_FILE;
/** KB_INDEX_TRACE=1: also prints what ran in each page task over 50 ms of CPU. */
const DIAGNOSE = process.env.KB_INDEX_TRACE === '1';
const DIAGNOSTIC_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink',
  '__metadata',
];
const ROOT = join(import.meta.dirname, '../..');
/**
 * The document worker built as the app's build makes it (one file, its packages imported from
 * node_modules, which is why it is written under node_modules/.cache): run from source through
 * tsx, each worker would spend a few hundred milliseconds compiling, which the app does not.
 */
async function buildDocumentWorker(): Promise<string> {
  const outDir = join(ROOT, 'node_modules/.cache/relay-bench-document-worker');
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      ssr: join(ROOT, 'electron/main/services/documents/document-worker.ts'),
      outDir,
      emptyOutDir: true,
      reportCompressedSize: false,
    },
  });
  return join(outDir, 'document-worker.js');
}

/** The few browser globals the page-side code uses (the bench compiles without the DOM library). */
interface PageGlobals {
  PerformanceObserver: new (
    callback: (list: { getEntries(): Array<{ duration: number }> }) => void,
  ) => { observe(options: { type: string; buffered: boolean }): void; disconnect(): void };
  __kbLongTasks?: number[];
  __kbObserver?: { disconnect(): void };
}

interface Run {
  wallMs: number;
  mainCpuMs: number;
  mainThreadBusyMs: number;
  mainStallMs: number;
  relayCpuMs: number;
  progressEvents: number;
  reindexMs: number;
  taskCpuMs: number[];
  longTasksWall: number[];
}

/** Resolves with the next event of `channel` for the base, as main emits it. */
type Waiter = (channel: string, kbId: string) => Promise<void>;

async function call<T>(session: BenchSession, channel: string, payload: unknown): Promise<T> {
  const answer = (await session.router.dispatch(channel, payload, session.sender)) as
    { ok: true; value: T } | { ok: false; error: { message: string } };
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
  return answer.value;
}

async function indexOnce(
  session: BenchSession,
  relay: RelayProcess,
  folder: string,
  run: number,
  waitFor: Waiter,
  progress: { count: number },
): Promise<Run> {
  const base = await call<{ id: string }>(session, 'knowledge:create', {
    name: `Bench ${run}`,
    model: 'demo-embedding',
  });
  // For KB_INDEX_TRACE: the page's large answers, to place beside its long tasks.
  const answers: Array<{ channel: string; kb: number; at: number }> = [];
  const opened = await session.openPage({
    viewport: { width: 1280, height: 800 },
    ...(DIAGNOSE
      ? {
          onAnswer: ({ channel, result }) =>
            answers.push({
              channel,
              kb: JSON.stringify(result ?? null).length / 1000,
              at: performance.now(),
            }),
        }
      : {}),
  });
  try {
    const { page } = opened;
    const screens = page.getByRole('navigation', { name: 'Screens' });
    await screens.getByRole('button', { name: 'Knowledge', exact: true }).click();
    await page
      .getByRole('list', { name: 'Knowledge bases' })
      .getByRole('button', { name: new RegExp(`^Bench ${run}\\b`) })
      .click();
    await page.getByRole('region', { name: `Bench ${run}` }).waitFor();
    await page.evaluate(() => {
      const page = globalThis as unknown as PageGlobals;
      const long: number[] = [];
      page.__kbLongTasks = long;
      page.__kbObserver = new page.PerformanceObserver((list) => {
        for (const entry of list.getEntries()) long.push(entry.duration);
      });
      (page.__kbObserver as unknown as { observe(o: object): void }).observe({
        type: 'longtask',
        buffered: false,
      });
    });
    const cdp = await page.context().newCDPSession(page);
    if (DIAGNOSE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const stopTrace = await startTrace(cdp, DIAGNOSE ? DIAGNOSTIC_CATEGORIES : TASK_CATEGORIES);
    const tracedAt = performance.now();

    const delay = monitorEventLoopDelay({ resolution: 10 });
    const ended = waitFor('knowledge:index-ended', base.id);
    const relayBefore = await relay.cpuMs();
    const cpuBefore = process.cpuUsage();
    const eluBefore = performance.eventLoopUtilization();
    progress.count = 0;
    delay.enable();
    const started = performance.now();
    // As a drop does: the preload's grant for the folder, then the page's call with it.
    const { grants } = await session.services.preloadHandlers.grantDroppedFiles(
      { purpose: 'knowledge', paths: [folder] },
      session.sender,
    );
    await call(session, 'knowledge:add-dropped', { id: base.id, grants });
    await ended;
    const wallMs = performance.now() - started;
    delay.disable();
    const elu = performance.eventLoopUtilization(eluBefore);
    const cpu = process.cpuUsage(cpuBefore);
    const relayCpuMs = (await relay.cpuMs()) - relayBefore;
    const progressEvents = progress.count;
    // The screen's last updates, then the trace.
    await page.waitForTimeout(300);
    const longTasksWall = await page.evaluate(() => {
      const page = globalThis as unknown as PageGlobals;
      page.__kbObserver?.disconnect();
      return page.__kbLongTasks ?? [];
    });
    const trace = await stopTrace();
    const taskCpuMs = mainThreadTasks(trace).map((t) => t.cpuMs);
    if (DIAGNOSE) {
      const { profile } = await cdp.send('Profiler.stop');
      for (const line of attributeLongTasks(trace, 50, 'tdur')) console.log(`  ${line}`);
      for (const line of profileLongTasks(trace, profile, 50, 'tdur')) console.log(`  ${line}`);
      const tasks = trace.filter((e) => e.name === 'RunTask' && e.ph === 'X');
      const first = Math.min(...tasks.map((e) => e.ts));
      const last = Math.max(...tasks.map((e) => e.ts));
      for (const task of tasks.filter((e) => (e.tdur ?? 0) > 50_000))
        console.log(
          `  long task at ${Math.round((task.ts - first) / 1000)} of ${Math.round((last - first) / 1000)} ms of trace`,
        );
      for (const answer of answers.filter((a) => a.kb > 20))
        console.log(
          `  answer ${answer.channel} ${Math.round(answer.kb)} kB at ${Math.round(answer.at - tracedAt)} ms after the trace started (indexing took ${Math.round(wallMs)} ms)`,
        );
    }
    await cdp.detach();

    const detail = await call<{
      status: string;
      chunks: number;
      embedded: number;
      error?: { message: string };
    }>(session, 'knowledge:get', { id: base.id });
    if (detail.status !== 'ready' || detail.chunks !== CHUNKS || detail.embedded !== CHUNKS)
      throw new Error(
        `Indexing ended ${detail.status} with ${detail.embedded} of ${detail.chunks} chunks embedded, not ${CHUNKS}${detail.error ? `: ${detail.error.message}` : ''}`,
      );

    // One file changed: every section new text, the same number of sections.
    const changed = join(folder, `doc-${run % FILES}.md`);
    const original = await readFile(changed, 'utf8');
    await writeFile(changed, corpusMarkdown(run, corpusRandom(1_000 + run)));
    const reindexed = waitFor('knowledge:index-ended', base.id);
    const reindexStarted = performance.now();
    await call(session, 'knowledge:index', { id: base.id });
    await reindexed;
    const reindexMs = performance.now() - reindexStarted;
    await writeFile(changed, original);
    const after = await call<{ status: string; chunks: number; embedded: number }>(
      session,
      'knowledge:get',
      { id: base.id },
    );
    if (after.status !== 'ready' || after.embedded !== CHUNKS)
      throw new Error(`Re-indexing one file ended ${after.status}, ${after.embedded} embedded`);

    await call(session, 'knowledge:delete', { id: base.id });
    return {
      wallMs,
      mainCpuMs: (cpu.user + cpu.system) / 1000,
      mainThreadBusyMs: elu.active,
      mainStallMs: delay.max / 1e6,
      relayCpuMs,
      progressEvents,
      reindexMs,
      taskCpuMs,
      longTasksWall,
    };
  } finally {
    await opened.close();
  }
}

export const kbIndex: Benchmark = {
  name: 'kb-index',
  async run(): Promise<BenchResult> {
    const work = await mkdtemp(join(tmpdir(), 'relay-bench-kb-index-'));
    const folder = join(work, 'corpus');
    await mkdir(folder);
    const next = corpusRandom(7);
    for (let f = 0; f < FILES; f++)
      await writeFile(join(folder, `doc-${f}.md`), corpusMarkdown(f, next));
    const documentWorker = await buildDocumentWorker();
    const relay = await startRelayProcess({ key: KEY });
    const waiting = new Map<string, () => void>();
    const progress = { count: 0 };
    const waitFor: Waiter = (channel, kbId) =>
      new Promise((resolve) => waiting.set(`${channel} ${kbId}`, resolve));
    try {
      const loadBefore = loadavg()[0]!;
      return await withBenchSession(
        {
          name: 'kb-index',
          key: KEY,
          eventStream: true,
          // The document worker as the app starts it.
          startDocumentWorker: (workerData) => new Worker(documentWorker, { workerData }),
          onEmit: (channel, payload) => {
            if (channel === 'knowledge:progress') progress.count++;
            const kbId = (payload as { kbId?: string } | null)?.kbId;
            const key = `${channel} ${kbId}`;
            const resolve = waiting.get(key);
            if (resolve) {
              waiting.delete(key);
              resolve();
            }
          },
        },
        async (session) => {
          const connection = await session.services.connections.create({
            name: 'Relay process',
            baseUrl: relay.url,
            apiKey: KEY,
          });
          await session.services.connections.select(connection.id);
          const runs: Run[] = [];
          for (let i = 0; i < WARMUP + RUNS; i++) {
            const run = await indexOnce(session, relay, folder, i, waitFor, progress);
            console.log(
              `  run ${i}${i < WARMUP ? ' (warm-up)' : ''}: ${Math.round(run.wallMs)} ms, main ${Math.round(run.mainCpuMs)} ms CPU (thread busy ${Math.round(run.mainThreadBusyMs)}), relay ${Math.round(run.relayCpuMs)} ms CPU, longest stall ${Math.round(run.mainStallMs)} ms, ${run.progressEvents} progress events, re-index ${Math.round(run.reindexMs)} ms, page tasks over 50 ms CPU ${run.taskCpuMs.filter((ms) => ms > 50).length} (longest ${Math.round(Math.max(0, ...run.taskCpuMs))}), wall ${run.longTasksWall.filter((ms) => ms > 50).length}`,
            );
            if (i >= WARMUP) runs.push(run);
          }
          const m = (pick: (r: Run) => number) => round(median(runs.map(pick)));
          return {
            runs: RUNS,
            chromium: session.browser.version(),
            metrics: {
              index_chunks_per_second: m((r) => CHUNKS / (r.wallMs / 1000)),
              reindex_one_file_ms: m((r) => r.reindexMs),
              long_tasks_over_50ms: m((r) => r.taskCpuMs.filter((ms) => ms > 50).length),
              long_tasks_over_50ms_wall: m((r) => r.longTasksWall.filter((ms) => ms > 50).length),
              index_wall_ms: m((r) => r.wallMs),
              main_cpu_ms: m((r) => r.mainCpuMs),
              main_thread_busy_ms: m((r) => r.mainThreadBusyMs),
              relay_cpu_ms: m((r) => r.relayCpuMs),
              main_share_of_cpu: m((r) => r.mainCpuMs / (r.mainCpuMs + r.relayCpuMs)),
              main_longest_stall_ms: m((r) => r.mainStallMs),
              progress_events: m((r) => r.progressEvents),
              longest_task_cpu_ms: m((r) => Math.max(0, ...r.taskCpuMs)),
            },
            targets: {
              reindex_one_file_ms: { max: 1000 },
              long_tasks_over_50ms: { max: 0 },
            },
            notes: [
              `${FILES} Markdown files × ${CHUNKS_PER_FILE} sections of ${WORDS_PER_CHUNK} words (${CHUNKS} chunks), demo-embedding (256 dimensions) from the demo relay in its own process, batches of 64 over HTTP.`,
              'index_chunks_per_second: from adding the folder to the end of indexing, the Knowledge screen open on the base, its trace running.',
              "main_cpu_ms: the app process's CPU (main thread, document worker, and the bench's page server and browser driver); main_thread_busy_ms: main's event loop busy; relay_cpu_ms: the relay process's CPU.",
              "main_longest_stall_ms: the longest delay of main's event loop during indexing (10 ms resolution).",
              'reindex_one_file_ms: one file rewritten, then knowledge:index until indexing ended (2,000 files walked, 1 read, its 25 chunks embedded).',
              `long_tasks_over_50ms: page main-thread tasks over 50 ms of CPU time (Chromium trace) during the full index; _wall: the longtask observer (load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end, ${availableParallelism()} cores).`,
              `Per run: chunks/s ${runs.map((r) => Math.round(CHUNKS / (r.wallMs / 1000))).join(', ')}; re-index ms ${runs.map((r) => Math.round(r.reindexMs)).join(', ')}; longest page task (CPU) ${runs.map((r) => Math.round(Math.max(0, ...r.taskCpuMs))).join(', ')} ms.`,
            ],
          };
        },
      );
    } finally {
      await relay.close();
      await rm(work, { recursive: true, force: true });
    }
  },
};
