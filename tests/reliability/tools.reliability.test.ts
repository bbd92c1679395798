/**
 * Section 14, tools: MCP servers that fail, over and over, against the app's own services. A
 * server on the official SDK that misbehaves on request (tests/fixtures/mcp/misbehaving-server.mjs)
 * crashes in the middle of a call, hangs, floods its error output, answers 10 MB; and the app
 * quits with a server running that started a process of its own. Each failure must end the call
 * with a plain reason (never a hang), keep main's memory bounded, cut the result with a note, and
 * leave no process behind.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { McpService, McpToolError } from '../../electron/main/services/mcp/mcp-service';
import { nodeProcessHost } from '../../electron/main/services/mcp/processes';
import { resultForModel } from '../../electron/main/services/mcp/tool-result';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { openChatApp } from '../fakes/chat-app';
import { cleanUp, suiteDir } from './lib/canary';
import { count, FULL, recordFigures, type Figure } from './lib/record';

const MISBEHAVING = fileURLToPath(
  new URL('../fixtures/mcp/misbehaving-server.mjs', import.meta.url),
);
const CRASHES = count(30, 3);
const HANGS = count(30, 3);
const FLOODS = count(20, 2);
const HUGE = count(10, 2);
const QUITS = count(20, 2);
/** The largest result kept, set in the settings for the chat rounds. */
const KEPT_CHARS = 20_000;
const KEY = 'sk-reliability-tools';

let dir: string;
let relay: DemoRelay;
const figures: Figure[] = [];
const notes: string[] = [];

beforeAll(async () => {
  dir = await suiteDir('tools');
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
});
afterAll(async () => {
  await relay.close();
  recordFigures(14, 'Tools', figures, notes);
  cleanUp([dir]);
});

async function open(): Promise<McpService> {
  return new McpService({
    dataDir: await mkdtemp(join(dir, 'mcp-')),
    secrets: new MemorySecretStore(),
    host: nodeProcessHost(),
    appVersion: '0.1.0',
    timeouts: { startMs: 30_000, callMs: 30_000 },
    loginShellTimeoutMs: 2000,
    // The person chose Run in main's dialog for the server's command line.
    dialogs: { chooseOpenPaths: async () => [], confirm: async () => true },
  });
}

async function misbehaving(service: McpService, args: string[] = []) {
  return service.add({
    name: 'Odd',
    transport: 'stdio',
    command: process.execPath,
    args: [MISBEHAVING, ...args],
  });
}

/** Whether a process runs: a zombie (ended, not yet reaped by whoever adopted it) does not. */
function running(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function until<T>(check: () => T | Promise<T>, what: string, ms = 30_000) {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > ms) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function textOf(result: Awaited<ReturnType<McpService['callTool']>>): string {
  return result.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function ms(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return `median ${at(0.5).toFixed(0)} ms, max ${at(1).toFixed(0)} ms`;
}

it(
  `fails each of ${CRASHES} calls whose server crashes mid-call with the reason, and the server comes back`,
  async () => {
    let said = 0;
    let restarted = 0;
    let leftRunning = 0;
    for (let round = 0; round < CRASHES; round++) {
      const service = await open();
      try {
        const { id } = await misbehaving(service);
        await service.offeredTools();
        const first = service.pidOf(id);
        const error = await service.callTool(id, 'crash', {}).catch((e: unknown) => e);
        if (
          error instanceof McpToolError &&
          error.diagnosis === 'crashed' &&
          /stopped while running crash \(exit code 3\)/.test(error.message)
        )
          said++;
        await until(async () => (await service.get(id)).state === 'running', 'the restart');
        if (
          service.pidOf(id) !== first &&
          textOf(await service.callTool(id, 'add', { a: 1, b: 2 })) === '3'
        )
          restarted++;
        const pid = service.pidOf(id);
        await service.close();
        if (running(first) || running(pid)) leftRunning++;
      } finally {
        await service.close();
      }
    }
    figures.push(
      {
        name: 'Calls whose server crashed mid-call',
        value: CRASHES,
        target: FULL ? '30' : undefined,
      },
      {
        name: '… failed at once with the reason (exit code, "started again")',
        value: said,
        target: `${CRASHES}`,
        ok: said === CRASHES,
      },
      {
        name: '… server started again, answering the next call',
        value: restarted,
        target: `${CRASHES}`,
        ok: restarted === CRASHES,
      },
      {
        name: '… server processes left running',
        value: leftRunning,
        target: '0',
        ok: leftRunning === 0,
      },
    );
    expect({ said, restarted, leftRunning }).toEqual({
      said: CRASHES,
      restarted: CRASHES,
      leftRunning: 0,
    });
  },
  CRASHES * 30_000,
);

it(
  `gives up each of ${HANGS} calls that hang at the time limit, said plainly, the server still usable`,
  async () => {
    const service = await open();
    const limitMs = 500;
    let plain = 0;
    let usable = 0;
    const gaveUpMs: number[] = [];
    try {
      const { id } = await misbehaving(service);
      await service.offeredTools();
      for (let round = 0; round < HANGS; round++) {
        const started = performance.now();
        const error = await service
          .callTool(id, 'hang', {}, { timeoutMs: limitMs })
          .catch((e: unknown) => e);
        gaveUpMs.push(performance.now() - started);
        if (
          error instanceof McpToolError &&
          error.kind === 'timeout' &&
          error.message ===
            '“Odd” did not answer hang within 0.5 seconds, so the call was given up.'
        )
          plain++;
        if (textOf(await service.callTool(id, 'add', { a: round, b: 1 })) === String(round + 1))
          usable++;
      }
    } finally {
      await service.close();
    }
    figures.push(
      { name: 'Calls that hang (time limit 0.5 s)', value: HANGS, target: FULL ? '30' : undefined },
      {
        name: '… given up with "did not answer … within 0.5 seconds"',
        value: plain,
        target: `${HANGS}`,
        ok: plain === HANGS,
      },
      { name: '… time from the call to its end', value: ms(gaveUpMs) },
      {
        name: '… the server answered the next call',
        value: usable,
        target: `${HANGS}`,
        ok: usable === HANGS,
      },
    );
    expect({ plain, usable }).toEqual({ plain: HANGS, usable: HANGS });
  },
  HANGS * 30_000,
);

it(
  `keeps the last 50 lines of ${FLOODS} error output floods (3.8 MB each), main's memory bounded`,
  async () => {
    const service = await open();
    let kept = 0;
    let answered = 0;
    let longest = 0;
    const heap: number[] = [];
    try {
      const { id } = await misbehaving(service);
      await service.offeredTools();
      for (let round = 0; round < FLOODS; round++) {
        if (textOf(await service.callTool(id, 'flood', {})) === 'flooded') answered++;
        const summary = await until(async () => {
          const now = await service.get(id);
          return now.errorOutput.at(-1) === 'flood done' ? now : undefined;
        }, 'the last line of the flood');
        if (summary.errorOutput.length === 50) kept++;
        longest = Math.max(longest, ...summary.errorOutput.map((line) => line.length));
        heap.push(process.memoryUsage().heapUsed);
      }
    } finally {
      await service.close();
    }
    const growthMb = (heap.at(-1)! - heap[0]!) / 2 ** 20;
    figures.push(
      {
        name: 'Error output floods (20,000 lines, 3.8 MB each)',
        value: FLOODS,
        target: FULL ? '20' : undefined,
      },
      {
        name: '… the call answered',
        value: answered,
        target: `${FLOODS}`,
        ok: answered === FLOODS,
      },
      {
        name: '… exactly the last 50 lines kept',
        value: kept,
        target: `${FLOODS}`,
        ok: kept === FLOODS,
      },
      {
        name: '… longest line kept',
        value: longest,
        unit: 'characters',
        target: '<= 2001',
        ok: longest <= 2001,
      },
      {
        name: '… main’s heap from the first flood to the last (no forced GC)',
        value: growthMb.toFixed(1),
        unit: 'MB',
      },
    );
    expect({ answered, kept }).toEqual({ answered: FLOODS, kept: FLOODS });
    expect(longest).toBeLessThanOrEqual(2001);
  },
  FLOODS * 30_000,
);

it(
  `cuts each of ${HUGE} 10 MB results to the size set, with a note, in a chat that carries on`,
  async () => {
    const app = await openChatApp(await mkdtemp(join(dir, 'chat-')));
    let cutToSetting = 0;
    let noted = 0;
    let answered = 0;
    let responsive = 0;
    const stalls: number[] = [];
    try {
      const { api, services } = app;
      await api.createConnection({ name: 'Local', baseUrl: relay.url, apiKey: KEY });
      await api.updateSettings({
        tools: { tokenBudget: 8000, maxSteps: 10, maxResultChars: KEPT_CHARS },
      });
      const server = await misbehaving(services.mcp);
      await services.mcp.setServerRule(server.id, 'allow');
      app.dialogs.confirmAnswers.push(true);
      for (let round = 0; round < HUGE; round++) {
        // A conversation of its own each round: the results before do not add to its context.
        const { id } = await api.createConversation({ model: 'demo-tools' });
        await api.updateConversationSettings({ id, toolServerIds: [server.id] });
        const delay = monitorEventLoopDelay({ resolution: 10 });
        delay.enable();
        const sent = await api.sendMessage({ conversationId: id, text: 'Something huge, please.' });
        // Main answers a call the page makes while the tool runs and its result is read.
        await app.until(() =>
          app.events.find(
            (e) =>
              e.channel === 'chat:reply-tools' &&
              e.payload.replyId === sent.replyId &&
              JSON.stringify(e.payload.tools).includes('"state":"running"'),
          ),
        );
        if ((await api.getSettings()).tools.maxResultChars === KEPT_CHARS) responsive++;
        const reply = await app.finished(sent.replyId);
        delay.disable();
        stalls.push(delay.max / 1e6);
        if (reply.status === 'complete') answered++;
        else
          notes.push(
            `A reply with a 10 MB result ended ${reply.status}: ${reply.error?.message ?? 'no error'}`,
          );
        const stored = (await api.getConversation({ id })).messages.find(
          (m) => m.id === sent.replyId,
        );
        const call = stored?.tools?.steps[0]?.calls[0];
        const body = call?.result ?? '';
        if (
          call?.state === 'done' &&
          body.startsWith('x'.repeat(KEPT_CHARS)) &&
          !body.includes('x'.repeat(KEPT_CHARS + 1))
        )
          cutToSetting++;
        if (
          body.endsWith(
            `[The result was cut: it held 10485760 characters; the first ${KEPT_CHARS} are above.]`,
          )
        )
          noted++;
      }
    } finally {
      await app.services.close();
    }
    // The same with the default limit, through the MCP service alone.
    const service = await open();
    let cutByDefault = false;
    try {
      const { id } = await misbehaving(service);
      const result = await service.callTool(id, 'huge', {});
      cutByDefault =
        textOf(result).length === 100_000 &&
        resultForModel(result).endsWith('the first 100000 are above.]');
    } finally {
      await service.close();
    }
    figures.push(
      { name: '10 MB results in a chat (largest result set to 20,000 characters)', value: HUGE },
      {
        name: '… the reply complete',
        value: answered,
        target: `${HUGE}`,
        ok: answered === HUGE,
      },
      {
        name: '… stored and sent cut to 20,000 characters',
        value: cutToSetting,
        target: `${HUGE}`,
        ok: cutToSetting === HUGE,
      },
      {
        name: '… with the note saying what it held',
        value: noted,
        target: `${HUGE}`,
        ok: noted === HUGE,
      },
      {
        name: '… main answered a call the page made while the tool ran',
        value: responsive,
        target: `${HUGE}`,
        ok: responsive === HUGE,
      },
      { name: '… main’s longest event-loop stall in a round', value: ms(stalls) },
      {
        name: 'A 10 MB result with the default limit: cut to 100,000 characters, with the note',
        value: cutByDefault ? 'yes' : 'no',
        target: 'yes',
        ok: cutByDefault,
      },
    );
    expect({ answered, cutToSetting, noted, responsive, cutByDefault }).toEqual({
      answered: HUGE,
      cutToSetting: HUGE,
      noted: HUGE,
      responsive: HUGE,
      cutByDefault: true,
    });
  },
  HUGE * 60_000,
);

it(
  `leaves no server process and no process a server started after each of ${QUITS} quits`,
  async () => {
    let serversLeft = 0;
    let childrenLeft = 0;
    let started = 0;
    for (let round = 0; round < QUITS; round++) {
      const pidFile = join(await mkdtemp(join(dir, 'pids-')), 'pids.json');
      const app = await openChatApp(await mkdtemp(join(dir, 'quit-')));
      let pids: { server: number; child: number } | undefined;
      try {
        const { id } = await app.services.mcp.add({
          name: 'Parent',
          transport: 'stdio',
          command: process.execPath,
          args: [MISBEHAVING, 'spawn-child'],
          env: [{ name: 'MCP_TEST_PID_FILE', value: pidFile }],
        });
        app.dialogs.confirmAnswers.push(true);
        await app.services.mcp.offeredTools([id]);
        pids = JSON.parse(await readFile(pidFile, 'utf8')) as { server: number; child: number };
        if (running(pids.server) && running(pids.child)) started++;
      } finally {
        // As the app quits: every service closed.
        await app.services.close();
      }
      if (running(pids?.server)) serversLeft++;
      if (running(pids?.child)) childrenLeft++;
    }
    figures.push(
      { name: 'Quits with a server running that started a process of its own', value: QUITS },
      {
        name: '… servers running before the quit',
        value: started,
        target: `${QUITS}`,
        ok: started === QUITS,
      },
      {
        name: '… server processes left after it',
        value: serversLeft,
        target: '0',
        ok: serversLeft === 0,
      },
      {
        name: '… processes the servers started left after it',
        value: childrenLeft,
        target: '0',
        ok: childrenLeft === 0,
      },
    );
    notes.push(
      'Processes checked with kill(pid, 0) and /proc/<pid>/stat (a zombie counts as ended), right after the services closed.',
    );
    expect({ started, serversLeft, childrenLeft }).toEqual({
      started: QUITS,
      serversLeft: 0,
      childrenLeft: 0,
    });
  },
  QUITS * 30_000,
);
