/**
 * tools: what the app itself costs around tool calls, over the real services (chat service, tool
 * loop, MCP service, database, router) and a real MCP server on stdio (many-tools-server.mjs,
 * which answers at once), with the model's replies scripted in the services' fetch.
 *
 * - round_trip_overhead_p95_ms: for a reply that calls one tool (the server's rule: allow, so no
 *   one is asked), from the moment the app reads the call's last argument piece off the stream to
 *   the moment it sends the result back to the model (the next request's fetch), minus the
 *   server's own time: from the `tools/call` request written to the server's stdin to its answer
 *   read from its stdout (a timing process host around the machine's own). ROUNDS round trips
 *   after a warm-up; also the median.
 * - cold_start_added_ms_5_servers: the services started in a cold Node process of their own
 *   (tests/bench/services-process, as cold-start does) until they answer a first call, on a user
 *   data folder with 5 stdio servers of 20 tools each (added and used once, so their tool lists
 *   are stored) minus the same folder without them; alternating, median of the differences of
 *   each pair. `servers_started_at_start` counts the servers' processes running once the services
 *   answered (they start when first needed: 0).
 * - long_tasks_over_50ms: renderer main-thread tasks over 50 ms of CPU (Chromium trace) while a
 *   reply with 10 tool calls streams in the real chat screen, from Send to the reply's end;
 *   `_wall` by the page's longtask observer.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppServices } from '../../electron/main/app-services';
import { McpService } from '../../electron/main/services/mcp/mcp-service';
import { nodeProcessHost, type ProcessHost } from '../../electron/main/services/mcp/processes';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { ChatPage } from '../e2e/pages/chat-page';
import { withBenchSession } from './bench-session';
import { median, round, type Benchmark, type BenchResult } from './bench';
import { mainThreadTasks, startTrace, TASK_CATEGORIES } from './chat-render/trace-tasks';
import { percentile } from './chat-transport';
import { bundleServicesProcess, startServicesProcess } from './services-process/host';

const KEY = 'sk-bench-tools';
const SERVER = fileURLToPath(new URL('../fixtures/mcp/many-tools-server.mjs', import.meta.url));
const WARMUP_ROUNDS = 5;
const ROUNDS = Number(process.env.TOOLS_BENCH_ROUNDS ?? 60);
const COLD_WARMUP = 1;
const COLD_RUNS = Number(process.env.TOOLS_BENCH_COLD_RUNS ?? 5);
const PAGE_WARMUP = 1;
const PAGE_RUNS = Number(process.env.TOOLS_BENCH_PAGE_RUNS ?? 3);
/** Pieces each call's arguments are streamed in. */
const PIECES = 8;

const now = () => performance.now();

/** Main's dialogs: the person chose Run for each server's command line; no file dialogs. */
const RUN = {
  chooseSavePath: async () => undefined,
  chooseOpenPaths: async () => [],
  confirm: async () => true,
};

/** What the scripted model does with the next request that offers tools. */
interface Script {
  calls: number;
  /** When the app read the last argument piece of the reply's last call. */
  lastPieceAt?: number;
  /** When the results were sent back (the request with the `tool` messages). */
  resultsSentAt?: number;
}

/** A scripted reply as the relay would stream it, one frame per pull (read by the app). */
function streamed(frames: string[], onPulled?: (index: number) => void): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next >= frames.length) return controller.close();
      onPulled?.(next);
      controller.enqueue(encoder.encode(frames[next++]!));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

function frame(delta: Record<string, unknown>, finish: string | null): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-tools-bench',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'demo-chat',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
}

/**
 * The services' fetch: a request offering tools whose last message is the person's is answered
 * with `script.calls` calls of the first tool offered, each one's arguments in PIECES pieces;
 * the request that carries their results with a short answer; anything else goes to the relay.
 */
function scriptedFetch(script: () => Script): FetchLike {
  return async (url, init) => {
    if (!url.endsWith('/chat/completions')) return fetch(url, init);
    const at = now();
    const request = JSON.parse(String(init.body)) as {
      messages: Array<{ role: string }>;
      tools?: Array<{ function: { name: string } }>;
    };
    const current = script();
    const last = request.messages.at(-1)?.role;
    if (last === 'tool') {
      current.resultsSentAt = at;
      return streamed([
        frame({ role: 'assistant', content: 'The tools answered.' }, null),
        frame({}, 'stop'),
        'data: [DONE]\n\n',
      ]);
    }
    const name = request.tools?.[0]?.function.name;
    if (name === undefined)
      return streamed([
        frame({ role: 'assistant', content: 'Ready.' }, 'stop'),
        'data: [DONE]\n\n',
      ]);
    const frames = [frame({ role: 'assistant', content: null }, null)];
    let lastPiece = -1;
    for (let call = 0; call < current.calls; call++) {
      const args = JSON.stringify({ text: `call ${call + 1} of the reply, ${'words '.repeat(8)}` });
      const size = Math.ceil(args.length / PIECES);
      frames.push(
        frame(
          {
            tool_calls: [
              {
                index: call,
                id: `call_${call + 1}`,
                type: 'function',
                function: { name, arguments: '' },
              },
            ],
          },
          null,
        ),
      );
      for (let i = 0; i < args.length; i += size) {
        frames.push(
          frame(
            { tool_calls: [{ index: call, function: { arguments: args.slice(i, i + size) } }] },
            null,
          ),
        );
        lastPiece = frames.length - 1;
      }
    }
    frames.push(frame({}, 'tool_calls'), 'data: [DONE]\n\n');
    return streamed(frames, (index) => {
      if (index === lastPiece) current.lastPieceAt = now();
    });
  };
}

/**
 * The machine's process host, timing each `tools/call`: from its request written to the
 * server's stdin to its answer read from the server's stdout (the server's time, pipes included).
 */
function timingHost(onServerTime: (ms: number) => void): ProcessHost {
  const host = nodeProcessHost();
  return {
    ...host,
    spawn(command, args, options) {
      const child = host.spawn(command, args, options);
      const asked = new Map<string | number, number>();
      const stdin = child.stdin!;
      const write = stdin.write.bind(stdin) as (...a: unknown[]) => boolean;
      stdin.write = ((chunk: unknown, ...rest: unknown[]) => {
        const text = typeof chunk === 'string' ? chunk : String(chunk);
        for (const line of text.split('\n')) {
          if (!line.includes('"tools/call"')) continue;
          const message = JSON.parse(line) as { id?: string | number; method?: string };
          if (message.method === 'tools/call' && message.id !== undefined)
            asked.set(message.id, now());
        }
        return write(chunk, ...rest);
      }) as typeof stdin.write;
      let buffer = '';
      // Added before the transport's own listener: it runs first, as the bytes are read.
      child.stdout!.on('data', (chunk: Buffer) => {
        const at = now();
        buffer += chunk.toString('utf8');
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          if (asked.size === 0 || !line.startsWith('{')) continue;
          const id = (JSON.parse(line) as { id?: string | number }).id;
          const started = id === undefined ? undefined : asked.get(id);
          if (started === undefined) continue;
          asked.delete(id!);
          onServerTime(at - started);
        }
      });
      return child;
    },
  };
}

/** The processes running the bench's MCP server, by their command lines. */
async function serverProcesses(): Promise<number> {
  let count = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const line = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (line.includes('many-tools-server.mjs')) count++;
  }
  return count;
}

/** A user data folder with 5 servers of 20 tools (their lists stored), and one without them. */
async function coldStartFolders(work: string): Promise<{ withServers: string; without: string }> {
  const withServers = join(work, 'with-servers');
  const without = join(work, 'without');
  const services = await createAppServices({
    userDataDir: withServers,
    secretStore: new MemorySecretStore(),
    emit: () => undefined,
    dialogs: RUN,
  });
  try {
    for (let i = 1; i <= 5; i++)
      await services.mcp.add({
        name: `Bench server ${i}`,
        transport: 'stdio',
        command: process.execPath,
        args: [SERVER, '20'],
      });
    const offered = await services.mcp.offeredTools();
    if (offered.length !== 100)
      throw new Error(`5 servers offered ${offered.length} tools, not 100`);
  } finally {
    await services.close();
  }
  await cp(withServers, without, { recursive: true });
  await rm(join(without, 'mcp-servers.json'), { force: true });
  return { withServers, without };
}

async function coldStart(
  bundle: string,
  userDataDir: string,
  picturesDir: string,
): Promise<{ readyMs: number; running: number }> {
  const origin = 'http://127.0.0.1:9';
  const services = startServicesProcess(bundle, {
    userDataDir,
    picturesDir,
    activeConnectionId: 'none',
    apiKey: KEY,
    origin,
  });
  try {
    const answered = await services.invoke('tools:list-servers', null, {
      url: `${origin}/`,
      isMainFrame: true,
      webContentsId: 1,
    });
    if (!answered.result.ok) throw new Error('The first call failed');
    return { readyMs: answered.at, running: await serverProcesses() };
  } finally {
    await services.stop();
  }
}

/**
 * The CPU time (this process's, user and system) of what the servers add to a start: the MCP
 * service made and its servers listed (as the chat's Tools chip asks at start), on a folder.
 */
async function listingCpuMs(userDataDir: string): Promise<number> {
  const before = process.cpuUsage();
  const service = new McpService({
    dataDir: userDataDir,
    secrets: new MemorySecretStore(),
    host: nodeProcessHost(),
  });
  const servers = await service.list();
  const used = process.cpuUsage(before);
  await service.close();
  if (servers.some((server) => server.state !== 'stopped'))
    throw new Error('A server started when its list was read');
  return (used.user + used.system) / 1000;
}

interface PageGlobals {
  PerformanceObserver: new (
    callback: (list: { getEntries(): Array<{ duration: number }> }) => void,
  ) => { observe(options: { type: string; buffered: boolean }): void; disconnect(): void };
  __benchLong: number[];
  __benchStop?: () => void;
}

export const toolsBench: Benchmark = {
  name: 'tools',
  async run(): Promise<BenchResult> {
    const loadBefore = loadavg()[0]!;
    const work = await mkdtemp(join(tmpdir(), 'relay-bench-tools-'));
    try {
      // ---- cold start: 5 servers of 20 tools, or none -------------------------------------
      const [bundle, folders] = await Promise.all([
        bundleServicesProcess(),
        coldStartFolders(work),
      ]);
      const pictures = join(work, 'Pictures');
      const added: number[] = [];
      const readyWith: number[] = [];
      const readyWithout: number[] = [];
      let startedAtStart = 0;
      for (let i = 0; i < COLD_WARMUP + COLD_RUNS; i++) {
        // Alternating which goes first, so neither always follows the other.
        const order = i % 2 === 0 ? ['with', 'without'] : ['without', 'with'];
        const pair: Record<string, number> = {};
        for (const which of order) {
          const run = await coldStart(
            bundle,
            which === 'with' ? folders.withServers : folders.without,
            pictures,
          );
          pair[which] = run.readyMs;
          if (which === 'with') startedAtStart = Math.max(startedAtStart, run.running);
        }
        if (i < COLD_WARMUP) continue;
        readyWith.push(pair.with!);
        readyWithout.push(pair.without!);
        added.push(pair.with! - pair.without!);
      }

      // The same by CPU time, in this process: steadier than wall time on a shared machine.
      const cpuAdded: number[] = [];
      for (let i = 0; i < 2 + 20; i++) {
        const withMs = await listingCpuMs(folders.withServers);
        const withoutMs = await listingCpuMs(folders.without);
        if (i >= 2) cpuAdded.push(withMs - withoutMs);
      }

      // ---- round trips and the page ---------------------------------------------------------
      let script: Script = { calls: 1 };
      const serverTimes: number[] = [];
      let finished: ((replyId: string) => void) | undefined;
      const result = await withBenchSession(
        {
          name: 'tools',
          key: KEY,
          relay: { ratePerMinute: 100_000 },
          fetch: scriptedFetch(() => script),
          processHost: timingHost((ms) => serverTimes.push(ms)),
          dialogs: RUN,
          eventStream: true,
          onEmit: (channel, payload) => {
            if (channel === 'chat:reply-finished')
              finished?.((payload as { replyId: string }).replyId);
          },
        },
        async (session) => {
          const { services, router, sender } = session;
          const call = async <T>(channel: string, payload?: unknown): Promise<T> => {
            const answer = await router.dispatch(channel, payload, sender);
            if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
            return answer.value as T;
          };
          const server = await services.mcp.add({
            name: 'Echo',
            transport: 'stdio',
            command: process.execPath,
            args: [SERVER, '20'],
          });
          await services.mcp.setServerRule(server.id, 'allow');

          const overheads: number[] = [];
          let conversation = '';
          for (let i = 0; i < WARMUP_ROUNDS + ROUNDS; i++) {
            if (i % 10 === 0) {
              conversation = (await call<{ id: string }>('chat:create', { model: 'demo-chat' })).id;
              await call('chat:settings', { id: conversation, toolServerIds: [server.id] });
            }
            script = { calls: 1 };
            serverTimes.length = 0;
            const done = new Promise<string>((resolve) => (finished = resolve));
            const sent = await call<{ replyId: string }>('chat:send', {
              conversationId: conversation,
              text: 'Echo this, please.',
            });
            while ((await done) !== sent.replyId) await new Promise((r) => setTimeout(r, 1));
            const { lastPieceAt, resultsSentAt } = script;
            if (
              lastPieceAt === undefined ||
              resultsSentAt === undefined ||
              serverTimes.length !== 1
            )
              throw new Error(
                `Round trip ${i + 1} was not measured (calls timed by the server: ${serverTimes.length})`,
              );
            if (i >= WARMUP_ROUNDS) overheads.push(resultsSentAt - lastPieceAt - serverTimes[0]!);
          }
          const serverMs = [...serverTimes];

          // ---- a reply with 10 calls streaming in the page --------------------------------
          const longCpu: number[] = [];
          const longWall: number[] = [];
          for (let i = 0; i < PAGE_WARMUP + PAGE_RUNS; i++) {
            const { context, page, close } = await session.openPage({
              viewport: { width: 1280, height: 860 },
            });
            const chat = new ChatPage(page);
            await chat.open();
            await chat.newChat();
            script = { calls: 0 };
            await chat.send('Hello there');
            await chat.finishedReplyStatus();
            await chat.chooseToolServer('Echo');
            await page.evaluate(() => {
              const page = globalThis as unknown as PageGlobals;
              page.__benchLong = [];
              const long = new page.PerformanceObserver((list) => {
                for (const entry of list.getEntries())
                  if (entry.duration > 50) page.__benchLong.push(entry.duration);
              });
              long.observe({ type: 'longtask', buffered: false });
              page.__benchStop = () => long.disconnect();
            });
            script = { calls: 10 };
            const cdp = await context.newCDPSession(page);
            const stopTrace = await startTrace(cdp, TASK_CATEGORIES);
            await chat.send('Echo ten times, please.');
            const status = await chat.finishedReplyStatus();
            await page.waitForTimeout(300);
            const traced = await stopTrace();
            await cdp.detach();
            const wall = await page.evaluate(() => {
              const page = globalThis as unknown as PageGlobals;
              page.__benchStop?.();
              return page.__benchLong;
            });
            const cards = await page.locator('.chat-tool-call[data-state="done"]').count();
            await close();
            if (status !== 'complete' || cards !== 10)
              throw new Error(`The reply with 10 calls ended ${status} with ${cards} calls done`);
            if (i < PAGE_WARMUP) continue;
            longCpu.push(mainThreadTasks(traced).filter((t) => t.cpuMs > 50).length);
            longWall.push(wall.length);
          }
          return { overheads, serverMs, longCpu, longWall };
        },
      );
      const loadAfter = loadavg()[0]!;
      const { overheads, longCpu, longWall } = result;

      return {
        runs: ROUNDS,
        metrics: {
          round_trip_overhead_p95_ms: round(percentile(overheads, 95)),
          round_trip_overhead_median_ms: round(median(overheads)),
          cold_start_added_ms_5_servers: round(median(added)),
          cold_start_ready_ms_5_servers: round(median(readyWith)),
          cold_start_ready_ms_no_servers: round(median(readyWithout)),
          cold_start_added_cpu_ms_5_servers: round(median(cpuAdded)),
          servers_started_at_start: startedAtStart,
          long_tasks_over_50ms: median(longCpu),
          long_tasks_over_50ms_wall: median(longWall),
          load_average_1m: round(loadBefore, 3),
        },
        targets: {
          round_trip_overhead_p95_ms: { max: 20 },
          cold_start_added_ms_5_servers: { max: 50 },
          servers_started_at_start: { max: 0 },
          long_tasks_over_50ms: { max: 0 },
        },
        notes: [
          `Round trips: ${ROUNDS} after ${WARMUP_ROUNDS} warm-up, one call each (a server that answers at once); overhead per round trip (ms): median ${median(overheads).toFixed(1)}, p95 ${percentile(overheads, 95).toFixed(1)}, max ${Math.max(...overheads).toFixed(1)}.`,
          `Cold start (services answering a first call, ms), per pair with 5 servers / without: ${readyWith.map((w, i) => `${w.toFixed(0)}/${readyWithout[i]!.toFixed(0)}`).join(', ')}; differences: ${added.map((d) => d.toFixed(0)).join(', ')}. By CPU time (the MCP service made and its 5 servers listed, minus none; median of 20 pairs): ${median(cpuAdded).toFixed(2)} ms.`,
          `Page, a reply with 10 tool calls: long tasks over 50 ms by CPU per run ${longCpu.join(', ')}; by wall ${longWall.join(', ')}.`,
          `Load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${availableParallelism()} cores: others' work shares them, so times are indicative.`,
        ],
      };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};
