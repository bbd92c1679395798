/**
 * The load section's work, run in a Node process of its own started with --expose-gc, so memory
 * is measured after forced collections and nothing else of the test runner is in the heap:
 *
 * 1. `streams` concurrent chat streams from one relay client against the demo relay, each prompt
 *    distinct and each reply compared with the demo relay's deterministic reply for it;
 * 2. a load generator on loopback: at most `requests` requests (chat streams, embeddings, model
 *    lists) with at most `concurrency` in flight, for at most `maxSeconds`;
 * 3. the concurrent streams again; heap and RSS after forced GC before, between and after.
 *
 * Input: the JSON in LOAD_RUN_ARGS. Output: one JSON line on stdout.
 */
import { startDemoRelay } from '../../../electron/demo-relay/index';
import { composeDemoReply } from '../../../electron/demo-relay/models/chat';
import {
  createRelayClient,
  type RelayClient,
} from '../../../electron/main/services/relay/relay-client';

export interface LoadArgs {
  streams: number;
  requests: number;
  concurrency: number;
  maxSeconds: number;
  key: string;
}

export interface Memory {
  heapUsedMb: number;
  rssMb: number;
}

export interface StreamsRound {
  streams: number;
  exact: number;
  mixedUp: number;
  failed: number;
  peakOpen: number;
  seconds: number;
  failures: string[];
}

export interface LoadResult {
  round1: StreamsRound;
  round2: StreamsRound;
  load: {
    sent: number;
    ok: number;
    errors: number;
    errorKinds: Record<string, number>;
    seconds: number;
    perSecond: number;
    p50Ms: number;
    p95Ms: number;
    p99Ms: number;
    wrongAnswers: number;
  };
  memory: { warm: Memory; afterStreams: Memory; afterLoad: Memory; afterAll: Memory };
}

declare const gc: () => void;

function memory(): Memory {
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return {
    heapUsedMb: Number((heapUsed / 2 ** 20).toFixed(1)),
    rssMb: Number((rss / 2 ** 20).toFixed(1)),
  };
}

const WORDS = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor'];

function promptFor(round: number, i: number): string {
  return `Stream ${round}-${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i >> 3) % WORDS.length]} number ${i * 7919}`;
}

async function streamsRound(
  client: RelayClient,
  round: number,
  count: number,
): Promise<StreamsRound> {
  const prompts = Array.from({ length: count }, (_, i) => promptFor(round, i));
  const expected = prompts.map((prompt) => composeDemoReply(prompt));
  if (new Set(expected).size !== count)
    throw new Error('the expected replies are not all distinct');
  let open = 0;
  let peakOpen = 0;
  const failures: string[] = [];
  let exact = 0;
  let mixedUp = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    prompts.map(async (prompt, i) => {
      const deltas: string[] = [];
      open++;
      peakOpen = Math.max(peakOpen, open);
      try {
        const result = await client.chat(
          { model: 'demo-chat', messages: [{ role: 'user', content: prompt }] },
          { onDelta: (d) => deltas.push(d) },
        );
        if (
          result.content === expected[i] &&
          deltas.join('') === expected[i] &&
          !result.interrupted
        )
          exact++;
        else {
          mixedUp++;
          const other = expected.indexOf(result.content);
          failures.push(
            `stream ${i}: ${other >= 0 ? `got the reply of stream ${other}` : 'wrong text'}`,
          );
        }
      } catch (error) {
        failed++;
        failures.push(`stream ${i}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        open--;
      }
    }),
  );
  return {
    streams: count,
    exact,
    mixedUp,
    failed,
    peakOpen,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    failures: failures.slice(0, 5),
  };
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
}

async function loadRound(client: RelayClient, args: LoadArgs): Promise<LoadResult['load']> {
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  let sent = 0;
  let ok = 0;
  let errors = 0;
  let wrongAnswers = 0;
  const deadline = performance.now() + args.maxSeconds * 1000;
  const started = performance.now();
  async function lane(): Promise<void> {
    while (sent < args.requests && performance.now() < deadline) {
      const n = sent++;
      const t = performance.now();
      try {
        if (n % 10 < 6) {
          const prompt = `load ${n} ${WORDS[n % WORDS.length]}`;
          const result = await client.chat({
            model: 'demo-chat-fast',
            messages: [{ role: 'user', content: prompt }],
          });
          if (result.content !== composeDemoReply(prompt)) wrongAnswers++;
        } else if (n % 10 < 9) {
          const result = await client.embed({ model: 'demo-embedding', input: [`text ${n}`, 'b'] });
          if (result.vectors.length !== 2) wrongAnswers++;
        } else {
          const models = await client.listModels();
          if (models.length === 0) wrongAnswers++;
        }
        ok++;
      } catch (error) {
        errors++;
        const kind = (error as { kind?: string }).kind ?? 'other';
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
      }
      latencies.push(performance.now() - t);
    }
  }
  await Promise.all(Array.from({ length: args.concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    sent,
    ok,
    errors,
    errorKinds,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Number((sent / seconds).toFixed(1)),
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    p99Ms: percentile(latencies, 0.99),
    wrongAnswers,
  };
}

async function main(): Promise<void> {
  const args = JSON.parse(process.env.LOAD_RUN_ARGS ?? '{}') as LoadArgs;
  const relay = await startDemoRelay({
    keys: [args.key],
    ratePerMinute: 10_000_000,
    balance: 1_000_000_000,
    tokensPerSecond: 200,
  });
  try {
    const client = createRelayClient({ baseUrl: relay.url, apiKey: args.key, maxRetries: 0 });
    // Warm up: connections, JIT, the relay's first answers.
    await loadRound(client, {
      ...args,
      requests: Math.min(100, Math.ceil(args.requests / 5)),
      maxSeconds: 30,
    });
    const warm = memory();
    const round1 = await streamsRound(client, 1, args.streams);
    const afterStreams = memory();
    const load = await loadRound(client, args);
    const afterLoad = memory();
    const round2 = await streamsRound(client, 2, args.streams);
    const afterAll = memory();
    const result: LoadResult = {
      round1,
      round2,
      load,
      memory: { warm, afterStreams, afterLoad, afterAll },
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await relay.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
