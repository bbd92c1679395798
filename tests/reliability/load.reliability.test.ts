/**
 * Section 8, load: concurrent streams from one relay client against the demo relay, and the demo
 * relay under a bounded load generator on loopback: no lost or mixed-up reply, memory flat after
 * the run. The work runs in a child Node process with --expose-gc (lib/load-run.ts).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { bundleScript } from './lib/bundle';
import { CANARY_KEY, containsKey } from './lib/canary';
import type { LoadArgs, LoadResult } from './lib/load-run';
import { count, FULL, recordFigures } from './lib/record';

const run = promisify(execFile);

const ARGS: LoadArgs = {
  streams: count(200, 30),
  requests: count(5000, 150),
  concurrency: count(50, 16),
  maxSeconds: count(120, 10),
  key: CANARY_KEY,
};
/** Heap growth allowed across the whole run, after forced GC: "flat". */
const HEAP_GROWTH_MB = 16;

it(`${ARGS.streams} concurrent streams and ${ARGS.requests} requests on loopback: no lost or mixed-up reply, memory flat`, async () => {
  const script = await bundleScript(join(import.meta.dirname, 'lib/load-run.ts'), 'load-run');
  const { stdout, stderr } = await run(process.execPath, ['--expose-gc', script], {
    env: { ...process.env, LOAD_RUN_ARGS: JSON.stringify(ARGS) },
    maxBuffer: 16 * 2 ** 20,
    timeout: count(600_000, 100_000),
  });
  expect(containsKey(stdout + stderr)).toBe(false);
  const result = JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadResult;
  const { round1, round2, load, memory } = result;
  const heapGrowth = memory.afterAll.heapUsedMb - memory.warm.heapUsedMb;
  const rssGrowth = memory.afterAll.rssMb - memory.warm.rssMb;
  const exact = round1.exact + round2.exact;
  recordFigures(
    8,
    'Load',
    [
      {
        name: 'Concurrent streams from one client (per round, 2 rounds)',
        value: ARGS.streams,
        target: '200',
        ok: FULL ? ARGS.streams >= 200 : undefined,
      },
      { name: 'Peak streams open at once', value: Math.max(round1.peakOpen, round2.peakOpen) },
      {
        name: 'Replies exactly as expected',
        value: `${exact} of ${ARGS.streams * 2}`,
        ok: exact === ARGS.streams * 2,
      },
      {
        name: 'Replies lost (failed)',
        value: round1.failed + round2.failed,
        target: '0',
        ok: round1.failed + round2.failed === 0,
      },
      {
        name: 'Replies mixed up or wrong',
        value: round1.mixedUp + round2.mixedUp,
        target: '0',
        ok: round1.mixedUp + round2.mixedUp === 0,
      },
      { name: 'Time for one round of concurrent streams', value: round1.seconds, unit: 's' },
      {
        name: 'Load generator: requests sent',
        value: load.sent,
        target: `<= ${ARGS.requests} in <= ${ARGS.maxSeconds} s, ${ARGS.concurrency} in flight`,
      },
      { name: 'Load generator: throughput', value: load.perSecond, unit: 'requests/s' },
      { name: 'Load generator: errors', value: load.errors, target: '0', ok: load.errors === 0 },
      {
        name: 'Load generator: wrong answers',
        value: load.wrongAnswers,
        target: '0',
        ok: load.wrongAnswers === 0,
      },
      { name: 'Load generator: latency p50', value: load.p50Ms, unit: 'ms' },
      { name: 'Load generator: latency p95', value: load.p95Ms, unit: 'ms' },
      { name: 'Load generator: latency p99', value: load.p99Ms, unit: 'ms' },
      { name: 'Heap after warm-up (after GC)', value: memory.warm.heapUsedMb, unit: 'MB' },
      {
        name: 'Heap after the first streams round',
        value: memory.afterStreams.heapUsedMb,
        unit: 'MB',
      },
      { name: 'Heap after the load generator', value: memory.afterLoad.heapUsedMb, unit: 'MB' },
      {
        name: 'Heap after the second streams round',
        value: memory.afterAll.heapUsedMb,
        unit: 'MB',
      },
      {
        name: 'Heap growth across the run',
        value: Number(heapGrowth.toFixed(1)),
        unit: 'MB',
        target: `< ${HEAP_GROWTH_MB}`,
        ok: heapGrowth < HEAP_GROWTH_MB,
      },
      {
        name: 'RSS after warm-up → after the run',
        value: `${memory.warm.rssMb} → ${memory.afterAll.rssMb}`,
        unit: 'MB',
      },
    ],
    [
      'Streams: model demo-chat paced at 200 tokens/s, so every stream of a round is open at the same time; each prompt differs, and each reply (and the concatenation of its deltas) is compared with the demo relay’s deterministic reply for that prompt, so a reply delivered to the wrong call is caught.',
      'Load generator: 60% streamed chat (unpaced model), 30% embeddings of two inputs, 10% model lists, through one relay client on Node’s fetch; one Node process holds the relay and the client.',
      `Memory: process.memoryUsage() after two gc() calls, in the same child process, whose RSS grew by ${rssGrowth.toFixed(1)} MB (RSS includes memory the allocator keeps for reuse).`,
      ...round1.failures.concat(round2.failures).map((f) => `Failure: ${f}`),
    ],
  );
  expect(round1.failures.concat(round2.failures)).toEqual([]);
  expect(exact).toBe(ARGS.streams * 2);
  expect(Math.max(round1.peakOpen, round2.peakOpen)).toBe(ARGS.streams);
  expect(load.errors).toBe(0);
  expect(load.wrongAnswers).toBe(0);
  expect(load.sent).toBeGreaterThan(0);
  expect(heapGrowth).toBeLessThan(HEAP_GROWTH_MB);
});
