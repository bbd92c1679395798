/**
 * sse-ingest: the CPU our relay client spends reading a streamed chat reply, against a raw socket
 * read of the same bytes (the floor) and against the official `openai` client. A fourth contender,
 * Node's fetch reading the body and discarding it, splits our cost between the transport our
 * client runs on and the client's own work (`client_over_fetch_cpu_*`).
 *
 * A server process streams canonical SSE (wire-conventions §3) from 127.0.0.1. Each contender
 * reads in a warmed-up process of its own, which takes its own CPU time around each read (see
 * `sse-ingest/reader.ts`); this module only sequences: one read at a time, every contender once
 * per round, their order rotating from round to round, so that drift in the machine's speed falls
 * on all of them alike. Each ratio is taken within a round; the median over the rounds is reported.
 *
 * The same framing, three ways of cutting it into writes (`sse-ingest/reply.ts`):
 * - event: 20,000 tokens, one event per write, as a model streams;
 * - small: the first 100 tokens (17 KB) in 1-byte writes, each its own TCP segment. Fewer tokens
 *   than the event reply so that its 17,000 paced writes take under a second, not three minutes;
 * - big: one event whose content is 1 MB of text, in 1 KB writes.
 * Writes are paced (80, 50 and 200 µs apart) so that a reader that keeps up gets each write as a
 * read of its own, as it would from a real model; "writes per read" in the output shows how well
 * that held. `linearity` is our client's CPU time for 40,000 tokens over 20,000, event chunking;
 * `linearity_big` the same for a 2 MB event over a 1 MB one.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round, type Benchmark, type BenchResult } from './bench';
import { startChild, type Child } from './sse-ingest/child';
import type {
  Contender,
  ReaderPrepared,
  ReaderRequest,
  ReadMeasurement,
} from './sse-ingest/reader';
import { buildReply, type Chunking, type ReplySpec } from './sse-ingest/reply';
import type { ServedScenario, ServerRequest, ServerStarted } from './sse-ingest/server';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** One read of every scenario per contender is enough to get every code path compiled. */
const WARMUP_ROUNDS = 1;
const MEASURED_ROUNDS = 5;

const CONTENDERS: readonly Contender[] = ['raw', 'fetch', 'ours', 'openai'];
const CHUNKINGS: readonly Chunking[] = ['event', 'small', 'big'];

interface Scenario {
  spec: ReplySpec;
  contenders: readonly Contender[];
  /** A longer reply through the same code paths as another scenario: no warm-up of its own. */
  scalesUp?: string;
}

const SCENARIOS: readonly Scenario[] = [
  { spec: { id: 'event', chunking: 'event', tokens: 20_000, gapUs: 80 }, contenders: CONTENDERS },
  {
    spec: { id: 'event-2x', chunking: 'event', tokens: 40_000, gapUs: 80 },
    contenders: ['ours'],
    scalesUp: 'event',
  },
  { spec: { id: 'small', chunking: 'small', tokens: 100, gapUs: 50 }, contenders: CONTENDERS },
  {
    spec: { id: 'big', chunking: 'big', contentBytes: 1_000_000, gapUs: 200 },
    contenders: CONTENDERS,
  },
  {
    spec: { id: 'big-2x', chunking: 'big', contentBytes: 2_000_000, gapUs: 200 },
    contenders: ['ours'],
    scalesUp: 'big',
  },
];

/** Measurements by scenario id, then contender, in round order. */
type Samples = Map<string, Map<Contender, ReadMeasurement[]>>;

async function run(): Promise<BenchResult> {
  const started = performance.now();
  const children: Child[] = [];
  try {
    const server = startChild(path.join(HERE, 'sse-ingest/server.ts'));
    children.push(server);
    const readers = new Map<Contender, Child>();
    for (const contender of CONTENDERS) {
      const reader = startChild(path.join(HERE, 'sse-ingest/reader.ts'));
      children.push(reader);
      readers.set(contender, reader);
    }

    const expected: Record<string, string> = {};
    for (const { spec } of SCENARIOS) expected[spec.id] = buildReply(spec).text;
    const started_ = await server.call<ServerStarted>({
      op: 'start',
      specs: SCENARIOS.map((s) => s.spec),
    } satisfies ServerRequest);
    const origin = `http://127.0.0.1:${started_.port}`;
    const served = new Map(started_.scenarios.map((s) => [s.id, s]));
    const prepared = await Promise.all(
      [...readers].map(([contender, reader]) =>
        reader.call<ReaderPrepared>({
          op: 'prepare',
          contender,
          origin,
          expected,
        } satisfies ReaderRequest),
      ),
    );

    const samples: Samples = new Map(SCENARIOS.map(({ spec }) => [spec.id, new Map()]));
    for (let round_ = 0; round_ < WARMUP_ROUNDS + MEASURED_ROUNDS; round_++) {
      const warmUp = round_ < WARMUP_ROUNDS;
      console.log(
        warmUp
          ? `warm-up ${round_ + 1}/${WARMUP_ROUNDS}`
          : `round ${round_ - WARMUP_ROUNDS + 1}/${MEASURED_ROUNDS}`,
      );
      for (const { spec, contenders, scalesUp } of SCENARIOS) {
        if (warmUp && scalesUp) continue;
        const order = contenders.map((_, i) => contenders[(i + round_) % contenders.length]!);
        for (const contender of order) {
          const measurement = await readers
            .get(contender)!
            .call<ReadMeasurement>({ op: 'read', scenario: spec.id } satisfies ReaderRequest);
          check(spec.id, contender, measurement, served.get(spec.id)!);
          if (warmUp) continue;
          const byContender = samples.get(spec.id)!;
          byContender.set(contender, [...(byContender.get(contender) ?? []), measurement]);
        }
      }
    }

    const { metrics, targets, coalescing } = summarise(samples, served);
    const kb = (id: string) => Math.round(served.get(id)!.bodyBytes / 1000);
    return {
      runs: MEASURED_ROUNDS,
      metrics,
      targets,
      notes: [
        'CPU = user + system time of the reading process only; each contender in a warmed-up process',
        'of its own, the server in another; ratios paired within a round, median of the rounds.',
        `event: ${kb('event')} KB, one event per write; small: ${kb('small')} KB in 1-byte writes; ` +
          `big: ${kb('big')} KB (one event) in 1 KB writes.`,
        'linearity: our CPU for 40,000 tokens / 20,000 tokens, event chunking.',
        `writes per read (${CONTENDERS.join(' / ')}; 1 = each write read on its own): ${coalescing}`,
        prepared.every((p) => p.raisedPriority)
          ? 'readers ran at raised priority.'
          : 'readers ran at normal priority (raising it needs root): on a busy machine, writes coalesce more.',
        `took ${((performance.now() - started) / 1000).toFixed(0)} s`,
      ],
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

/** A read that got the wrong bytes measured nothing: stop the benchmark. */
function check(
  scenario: string,
  contender: Contender,
  m: ReadMeasurement,
  served: ServedScenario,
): void {
  if (m.problem) throw new Error(`${contender} read of "${scenario}" went wrong: ${m.problem}`);
  const expectedBytes =
    contender === 'raw' ? served.headBytes + served.bodyBytes : served.bodyBytes;
  if ((contender === 'raw' || contender === 'fetch') && m.received !== expectedBytes) {
    throw new Error(
      `${contender} read of "${scenario}" got ${m.received} bytes, expected ${expectedBytes}`,
    );
  }
}

function summarise(samples: Samples, served: Map<string, ServedScenario>) {
  const of = (scenario: string, contender: Contender) =>
    samples.get(scenario)?.get(contender) ?? [];
  const cpu = (scenario: string, contender: Contender) =>
    of(scenario, contender).map((m) => m.cpuMs);
  const pairedRatio = (a: number[], b: number[]) =>
    round(median(a.map((value, i) => value / b[i]!)));

  const metrics: Record<string, number> = {};
  const targets: BenchResult['targets'] = {};
  for (const chunking of CHUNKINGS) {
    metrics[`client_over_raw_cpu_${chunking}`] = pairedRatio(
      cpu(chunking, 'ours'),
      cpu(chunking, 'raw'),
    );
    targets[`client_over_raw_cpu_${chunking}`] = { max: 3 };
  }
  for (const chunking of CHUNKINGS) {
    metrics[`client_over_openai_cpu_${chunking}`] = pairedRatio(
      cpu(chunking, 'ours'),
      cpu(chunking, 'openai'),
    );
    targets[`client_over_openai_cpu_${chunking}`] = { max: 1 };
  }
  // Our client over the fetch it runs on: the share of the cost that is the client's own.
  for (const chunking of CHUNKINGS) {
    metrics[`client_over_fetch_cpu_${chunking}`] = pairedRatio(
      cpu(chunking, 'ours'),
      cpu(chunking, 'fetch'),
    );
  }
  metrics.linearity = pairedRatio(cpu('event-2x', 'ours'), cpu('event', 'ours'));
  targets.linearity = { max: 2.2 };
  metrics.linearity_big = pairedRatio(cpu('big-2x', 'ours'), cpu('big', 'ours'));

  for (const chunking of CHUNKINGS) {
    for (const contender of CONTENDERS) {
      metrics[`${contender}_cpu_ms_${chunking}`] = round(median(cpu(chunking, contender)), 3);
    }
  }
  metrics.ours_cpu_ms_event_2x = round(median(cpu('event-2x', 'ours')), 3);
  metrics.ours_cpu_ms_big_2x = round(median(cpu('big-2x', 'ours')), 3);
  for (const chunking of CHUNKINGS) {
    const megabytes = served.get(chunking)!.bodyBytes / 1e6;
    metrics[`ours_mb_per_cpu_s_${chunking}`] = round(
      megabytes / (metrics[`ours_cpu_ms_${chunking}`]! / 1000),
      3,
    );
  }

  // How many writes each read carried: 1 means every write was read on its own, as intended.
  // read(2) counts include a few non-socket reads, so this is a close estimate, not exact.
  const coalescing = CHUNKINGS.map((chunking) => {
    const writes = served.get(chunking)!.writes;
    const perContender = CONTENDERS.map((contender) =>
      median(of(chunking, contender).map((m) => writes / m.socketReads)),
    );
    if (perContender.every(Number.isFinite)) {
      metrics[`writes_per_read_max_${chunking}`] = round(Math.max(...perContender), 3);
    }
    return `${chunking} ${perContender.map((v) => v.toFixed(2)).join(' / ')}`;
  }).join('; ');

  return { metrics, targets, coalescing };
}

export const sseIngest: Benchmark = { name: 'sse-ingest', run };
