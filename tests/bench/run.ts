/**
 * Runs the benchmarks: `npm run bench` runs every one, `npm run bench -- <name> [...]` the named ones.
 *
 * Exit status: 0 when every benchmark measured (a missed target is reported, not fatal), 1 when
 * one could not measure, 2 for an unknown name.
 */
import { formatTable, missedTargets, toReport, writeReport, type Benchmark } from './bench';

/** Each benchmark, loaded only when it runs so one that cannot load does not stop the others. */
const BENCHMARKS: Record<string, () => Promise<Benchmark>> = {
  'sse-ingest': async () => (await import('./sse-ingest')).sseIngest,
  'chat-search': async () => (await import('./chat-search')).chatSearch,
  'chat-render': async () => (await import('./chat-render')).chatRender,
  'gallery-scale': async () => (await import('./gallery-scale')).galleryScale,
  'chat-history': async () => (await import('./chat-history')).chatHistory,
  'embeddings-large': async () => (await import('./embeddings-large')).embeddingsLarge,
  'chat-transport': async () => (await import('./chat-transport')).chatTransport,
  'chat-compare': async () => (await import('./chat-compare')).chatCompare,
  'cold-start': async () => (await import('./cold-start')).coldStart,
  'memory-soak': async () => (await import('./memory-soak')).memorySoak,
  'kb-query': async () => (await import('./kb-query')).kbQuery,
  'kb-index': async () => (await import('./kb-index')).kbIndex,
  sync: async () => (await import('./sync')).syncBench,
  tools: async () => (await import('./tools')).toolsBench,
};

async function main(args: string[]): Promise<number> {
  const available = Object.keys(BENCHMARKS);
  if (args.includes('--help') || args.includes('-h') || args.includes('--list')) {
    console.log(`usage: npm run bench [-- <name>...]\nbenchmarks: ${available.join(', ')}`);
    return 0;
  }
  const unknown = args.filter((name) => !(name in BENCHMARKS));
  if (unknown.length > 0) {
    console.error(
      `Unknown benchmark ${unknown.map((n) => `"${n}"`).join(', ')}. Available: ${available.join(', ')}.`,
    );
    return 2;
  }

  const selected = args.length > 0 ? args : available;
  const failed: string[] = [];
  const summary: string[] = [];
  for (const name of selected) {
    console.log(`\n== ${name}`);
    try {
      const benchmark = await BENCHMARKS[name]!();
      const result = await benchmark.run();
      const report = toReport(name, result);
      const file = await writeReport(report);
      console.log(`\n${formatTable(report)}`);
      for (const note of result.notes ?? []) console.log(`  ${note}`);
      const missed = missedTargets(report);
      const verdict =
        missed.length === 0
          ? `all ${Object.keys(report.targets).length} targets met`
          : `MISSED ${missed.length} of ${Object.keys(report.targets).length} targets: ${missed.join(', ')}`;
      console.log(`\n${name}: ${verdict} (${report.machine}, median of ${report.runs} runs)`);
      console.log(`written to ${file}`);
      summary.push(`${name}: ${verdict}`);
    } catch (error) {
      failed.push(name);
      console.error(`\n${name}: could not measure.`);
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      summary.push(`${name}: could not measure`);
    }
  }
  if (selected.length > 1) console.log(`\n${summary.join('\n')}`);
  return failed.length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
