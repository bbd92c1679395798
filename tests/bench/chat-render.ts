/**
 * chat-render: the real reply view against a naive one, in Chromium, on a 30,000-character
 * markdown reply (10 code fences, a table, math) fed 3 characters per delta, each delta a task of
 * its own and the next one as soon as the page is free (as fast as possible).
 *
 * - real: `ReplyBody` over the stream store: deltas coalesced per animation frame, completed
 *   blocks rendered once, only the growing block again.
 * - naive: the whole message through react-markdown (same plugins and components) on every delta.
 *
 * Main-thread time is Chromium's own `TaskDuration`, read over CDP around each phase. The real
 * view streams all 10,000 deltas, in tenths, so the cost per delta of the last tenth can be set
 * against the first. Rendering every naive delta would take minutes per run, so the naive view
 * renders at NAIVE_SAMPLES deltas evenly spaced over the reply, and its time for the whole stream
 * is their mean times the number of deltas. Runs alternate the order of the two views; medians of
 * MEASURED_RUNS runs after a warm-up.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round, type Benchmark, type BenchResult } from './bench';
import { availableParallelism, loadavg } from 'node:os';
import { openBenchPage, type BenchPage } from './chat-render/bench-page';
import { mainThreadTasks, startTrace, TASK_CATEGORIES } from './chat-render/trace-tasks';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WARMUP_RUNS = 1;
const MEASURED_RUNS = 5;
const NAIVE_SAMPLES = 30;
const CHARACTERS = 30_000;

interface Bench {
  setup(length: number): Promise<{ characters: number; deltas: number }>;
  mountReal(): void;
  streamReal(from: number, to: number): Promise<number[]>;
  finishReal(): Promise<{ html: string; matches: boolean }>;
  oneShot(): Promise<string>;
  mountNaive(): void;
  naiveAt(indices: number[]): Promise<void>;
  naiveFinal(): Promise<string>;
  ungrouped(html: string): string;
}

type BenchWindow = { __bench: Bench };

interface RealRun {
  totalMs: number;
  tenthsMs: number[];
  /** Wall time of the long tasks the page's longtask observer saw. */
  longTasks: number[];
  /** CPU time of every main-thread task, from a Chromium trace of the same phases. */
  taskCpuMs: number[];
  html: string;
  matches: boolean;
}

async function runReal(bench: BenchPage, deltas: number): Promise<RealRun> {
  const { page } = bench;
  await page.evaluate(() => (globalThis as unknown as BenchWindow).__bench.mountReal());
  const tenthsMs: number[] = [];
  const longTasks: number[] = [];
  const stopTrace = await startTrace(bench.cdp, TASK_CATEGORIES);
  for (let tenth = 0; tenth < 10; tenth++) {
    const from = Math.round((deltas * tenth) / 10);
    const to = Math.round((deltas * (tenth + 1)) / 10);
    const before = await bench.taskMs();
    const long = await page.evaluate(
      ([a, b]) => (globalThis as unknown as BenchWindow).__bench.streamReal(a, b),
      [from, to] as const,
    );
    tenthsMs.push((await bench.taskMs()) - before);
    longTasks.push(...long);
  }
  const taskCpuMs = mainThreadTasks(await stopTrace()).map((task) => task.cpuMs);
  const { html, matches } = await page.evaluate(() =>
    (globalThis as unknown as BenchWindow).__bench.finishReal(),
  );
  return {
    totalMs: tenthsMs.reduce((a, b) => a + b, 0),
    tenthsMs,
    longTasks,
    taskCpuMs,
    html,
    matches,
  };
}

async function runNaive(bench: BenchPage, deltas: number): Promise<number> {
  const { page } = bench;
  await page.evaluate(() => (globalThis as unknown as BenchWindow).__bench.mountNaive());
  const indices = Array.from({ length: NAIVE_SAMPLES }, (_, i) =>
    Math.floor(((i + 0.5) * deltas) / NAIVE_SAMPLES),
  );
  const before = await bench.taskMs();
  await page.evaluate((at) => (globalThis as unknown as BenchWindow).__bench.naiveAt(at), indices);
  const sampledMs = (await bench.taskMs()) - before;
  return (sampledMs / NAIVE_SAMPLES) * deltas;
}

/** Where two renders first differ, with some text either side, for whoever reads a mismatch. */
function firstDifference(label: string, a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 80), i + 80));
  return `${label}: first differs at ${i} of ${a.length} / ${b.length}: ${around(a)} vs ${around(b)}`;
}

/** The DOM without the whitespace text react-markdown puts between blocks of one document. */
function withoutBlockWhitespace(html: string): string {
  return html.replace(/>\n+</g, '><');
}

async function run(): Promise<BenchResult> {
  const started = performance.now();
  const bench = await openBenchPage(path.join(HERE, 'chat-render'));
  try {
    const { page } = bench;
    const { characters, deltas } = await page.evaluate(
      (length) => (globalThis as unknown as BenchWindow).__bench.setup(length),
      CHARACTERS,
    );
    const ratios: number[] = [];
    const lateOverEarly: number[] = [];
    const longTaskCounts: number[] = [];
    const wallLongTaskCounts: number[] = [];
    let longestCpu = 0;
    const loadBefore = loadavg()[0]!;
    const realMs: number[] = [];
    const naiveMs: number[] = [];
    let longest = 0;
    let finalEqual = 1;
    let naiveEqual = 1;
    let oneShot = '';
    const mismatches: string[] = [];

    for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
      const warmUp = i < WARMUP_RUNS;
      console.log(warmUp ? 'warm-up' : `run ${i - WARMUP_RUNS + 1}/${MEASURED_RUNS}`);
      let real: RealRun;
      let naive: number;
      if (i % 2 === 0) {
        real = await runReal(bench, deltas);
        naive = await runNaive(bench, deltas);
      } else {
        naive = await runNaive(bench, deltas);
        real = await runReal(bench, deltas);
      }
      if (i === 0) {
        oneShot = await page.evaluate(() =>
          (globalThis as unknown as BenchWindow).__bench.oneShot(),
        );
        const naiveHtml = await page.evaluate(() =>
          (globalThis as unknown as BenchWindow).__bench.naiveFinal(),
        );
        const ungrouped = await page.evaluate(
          (html) => (globalThis as unknown as BenchWindow).__bench.ungrouped(html),
          oneShot,
        );
        const naiveBare = withoutBlockWhitespace(naiveHtml);
        const groupsBare = withoutBlockWhitespace(ungrouped);
        if (naiveBare !== groupsBare) {
          naiveEqual = 0;
          mismatches.push(firstDifference('naive vs one-shot', naiveBare, groupsBare));
        }
      }
      if (!real.matches || real.html !== oneShot) {
        if (finalEqual === 1) {
          mismatches.push(
            real.matches
              ? firstDifference('streamed vs one-shot', real.html, oneShot)
              : 'streamed: the text the view was given is not the corpus',
          );
        }
        finalEqual = 0;
      }
      if (warmUp) continue;
      realMs.push(real.totalMs);
      naiveMs.push(naive);
      ratios.push(real.totalMs / naive);
      lateOverEarly.push(real.tenthsMs[9]! / real.tenthsMs[0]!);
      longTaskCounts.push(real.taskCpuMs.filter((d) => d > 50).length);
      wallLongTaskCounts.push(real.longTasks.filter((d) => d > 50).length);
      longest = Math.max(longest, ...real.longTasks, 0);
      longestCpu = Math.max(longestCpu, ...real.taskCpuMs, 0);
    }

    return {
      runs: MEASURED_RUNS,
      chromium: bench.chromium,
      metrics: {
        main_thread_ratio_vs_naive: round(median(ratios)),
        late_over_early_update_cost: round(median(lateOverEarly)),
        long_tasks_over_50ms: Math.max(...longTaskCounts),
        long_tasks_over_50ms_wall: Math.max(...wallLongTaskCounts),
        final_dom_equal: finalEqual,
        final_dom_equal_naive: naiveEqual,
        real_main_thread_ms: round(median(realMs)),
        naive_main_thread_ms: round(median(naiveMs)),
        longest_task_cpu_ms: round(longestCpu),
        longest_task_wall_ms: round(longest),
      },
      targets: {
        main_thread_ratio_vs_naive: { max: 0.1 },
        late_over_early_update_cost: { max: 1.5 },
        long_tasks_over_50ms: { max: 0 },
        final_dom_equal: { min: 1 },
      },
      notes: [
        `${characters} characters in ${deltas} deltas of 3, each delta a task of its own.`,
        'main-thread time: Chromium TaskDuration over CDP. naive: the whole message through',
        `react-markdown per delta, timed at ${NAIVE_SAMPLES} evenly spaced deltas and scaled to all ${deltas}.`,
        'late_over_early: real view main-thread time for the last tenth of deltas / the first tenth.',
        'long tasks: the worst run, real view only. long_tasks_over_50ms counts main-thread tasks',
        'over 50 ms of CPU time (thread time, Chromium trace): what the view costs. _wall: the page',
        "longtask observer's wall time, which also counts time the thread waited for a core while",
        `other processes ran (load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end, ${availableParallelism()} cores).`,
        'final_dom_equal: streamed DOM identical to the same view rendered once from the whole text;',
        'final_dom_equal_naive: the naive whole-message render, whitespace between blocks aside.',
        ...mismatches,
        `took ${((performance.now() - started) / 1000).toFixed(0)} s`,
      ],
    };
  } finally {
    await bench.close();
  }
}

export const chatRender: Benchmark = { name: 'chat-render', run };
