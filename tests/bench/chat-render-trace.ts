/**
 * Diagnostic for chat-render: streams the real view once under a Chromium trace and lists every
 * main-thread task over 50 ms with its wall time, its CPU time (thread time) and what ran in it.
 * Run: npx tsx tests/bench/chat-render-trace.ts
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBenchPage } from './chat-render/bench-page';
import { attributeLongTasks, profileLongTasks, startTrace } from './chat-render/trace-tasks';

const HERE = path.dirname(fileURLToPath(import.meta.url));

interface Bench {
  setup(length: number): { characters: number; deltas: number };
  mountReal(): void;
  streamReal(from: number, to: number): Promise<number[]>;
  finishReal(): Promise<{ html: string; matches: boolean }>;
}
type BenchWindow = { __bench: Bench };

const bench = await openBenchPage(path.join(HERE, 'chat-render'));
try {
  const { page } = bench;
  const { deltas } = await page.evaluate(
    (length) => (globalThis as unknown as BenchWindow).__bench.setup(length),
    30_000,
  );
  for (let round = 0; round < 4; round++) {
    await bench.cdp.send('Profiler.enable');
    await bench.cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await bench.cdp.send('Profiler.start');
    const stop = await startTrace(bench.cdp);
    await page.evaluate(() => (globalThis as unknown as BenchWindow).__bench.mountReal());
    const long = await page.evaluate(
      (to) => (globalThis as unknown as BenchWindow).__bench.streamReal(0, to),
      deltas,
    );
    await page.evaluate(() => (globalThis as unknown as BenchWindow).__bench.finishReal());
    const events = await stop();
    const { profile } = await bench.cdp.send('Profiler.stop');
    console.log(
      `round ${round}: longtask observer saw ${long.filter((d) => d > 50).length} over 50 ms: ${long.map(Math.round).join(', ')}`,
    );
    for (const line of attributeLongTasks(events, 35, 'tdur')) console.log('  ' + line);
    for (const line of profileLongTasks(events, profile, 35, 'tdur')) console.log('  ' + line);
  }
} finally {
  await bench.close();
}
