/**
 * MCP servers, real ones started by the tests: `@modelcontextprotocol/server-everything` (echo,
 * add, a long operation with progress, a tiny image, over stdio and Streamable HTTP) and
 * `@modelcontextprotocol/server-filesystem` on a temporary folder, run with `node` and the
 * package's own bin (no npx, no network); and a server on the official SDK that misbehaves on
 * request (a crash in the middle of a call, a hang, an error flood, a 10 MB result, a tool list
 * that changes, a child process of its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerSummary } from '../../electron/shared/ipc/routes/tools';
import { AppError } from '../../electron/main/services/app-error';
import {
  McpService,
  McpToolError,
  type McpServiceOptions,
} from '../../electron/main/services/mcp/mcp-service';
import { nodeProcessHost } from '../../electron/main/services/mcp/processes';
import { resultForModel } from '../../electron/main/services/mcp/tool-result';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { FakeClock } from '../fakes/fake-clock';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const MISBEHAVING = join(root, 'tests/fixtures/mcp/misbehaving-server.mjs');

let dataDir: string;
let folder: string;
let services: McpService[] = [];
let events: McpServerSummary[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mcp-files-'));
  await writeFile(join(folder, 'tides.md'), '# Tides\nHigh water at 06:12 and 18:40.\n');
});
afterAll(() => rm(folder, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(services.map((service) => service.close()));
  services = [];
  events = [];
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function open(options: Partial<McpServiceOptions> = {}): Promise<McpService> {
  dataDir = await mkdtemp(join(tmpdir(), 'mcp-data-'));
  const service = new McpService({
    dataDir,
    secrets: new MemorySecretStore(),
    host: nodeProcessHost(),
    appVersion: '0.1.0',
    timeouts: { startMs: 30_000, callMs: 30_000 },
    loginShellTimeoutMs: 2000,
    onServerChanged: (summary) => events.push(summary),
    // The person chose Run in main's dialog for every command line these tests start.
    dialogs: { chooseOpenPaths: async () => [], confirm: async () => true },
    ...options,
  });
  services.push(service);
  return service;
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

async function until<T>(
  check: () => T | Promise<T>,
  what: string,
  ms = 20_000,
): Promise<NonNullable<T>> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > ms) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** server-everything over stdio, added to the service (started when first needed). */
function addEverything(service: McpService) {
  return service.add({
    name: 'Everything',
    transport: 'stdio',
    command: 'node',
    args: [EVERYTHING, 'stdio'],
  });
}

function textOf(result: Awaited<ReturnType<McpService['callTool']>>): string {
  return result.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('server-everything over stdio', { timeout: 60_000 }, () => {
  it('starts only when its tools are first needed, then lists and calls them', async () => {
    const service = await open();
    const server = await addEverything(service);
    expect(server.state).toBe('stopped');
    expect(server.toolsListed).toBe(false);
    // Listing the servers starts nothing.
    await service.list();
    expect(service.pidOf(server.id)).toBeUndefined();

    const offered = await service.offeredTools();
    expect(service.pidOf(server.id)).toBeGreaterThan(0);
    const names = offered.map((tool) => tool.tool);
    expect(names).toEqual(
      expect.arrayContaining([
        'echo',
        'get-sum',
        'get-tiny-image',
        'trigger-long-running-operation',
      ]),
    );
    const sum = offered.find((tool) => tool.tool === 'get-sum')!;
    expect(sum.functionName).toBe('get-sum');
    expect(sum.definition.function.parameters).toMatchObject({ required: ['a', 'b'] });
    expect(sum.tokens).toBeGreaterThan(10);
    expect(sum.readOnly).toBe(true);

    expect(textOf(await service.callTool(server.id, 'get-sum', { a: 2, b: 3 }))).toBe(
      'The sum of 2 and 3 is 5.',
    );
    expect(textOf(await service.callTool(server.id, 'echo', { message: 'tide' }))).toBe(
      'Echo: tide',
    );

    const summary = await service.get(server.id);
    expect(summary.state).toBe('running');
    expect(summary.serverInfo?.name).toBe('mcp-servers/everything');
    expect(summary.toolTokens).toBe(summary.tools.reduce((sum, tool) => sum + tool.tokens, 0));
  });

  it('leaves no listener on a reply’s signal after its calls, however many', async () => {
    const service = await open();
    const { id } = await addEverything(service);
    // One reply's signal carries every call of the reply (the model may ask for many).
    const reply = new AbortController();
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on('warning', warned);
    try {
      for (let call = 0; call < 12; call++)
        await service.callTool(id, 'echo', { message: `call ${call}` }, { signal: reply.signal });
      expect(getEventListeners(reply.signal, 'abort')).toHaveLength(0);
      // Let a warning emitted at the 11th listener reach the handler.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', warned);
    }
  });

  it('reports a long operation’s progress and returns a tiny image', async () => {
    const service = await open();
    const { id } = await addEverything(service);
    const progress: number[] = [];
    const long = await service.callTool(
      id,
      'trigger-long-running-operation',
      { duration: 1, steps: 4 },
      {
        onProgress: ({ progress: done }) => progress.push(done),
      },
    );
    expect(long.isError).toBe(false);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const image = await service.callTool(id, 'get-tiny-image', {});
    const picture = image.parts.find((part) => part.type === 'image');
    expect(picture).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(
      Buffer.from(picture?.type === 'image' ? picture.data : '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(resultForModel(image)).toMatch(/\[image: image\/png, \d+ bytes\]/);
  });

  it('keeps tools turned off out of what is offered, and counts only the enabled ones', async () => {
    const service = await open();
    const { id } = await addEverything(service);
    await service.offeredTools();
    const before = await service.get(id);
    const off = await service.setToolEnabled(id, 'echo', false);
    const echoTokens = before.tools.find((t) => t.name === 'echo')!.tokens;
    expect(off.toolTokens).toBe(before.toolTokens - echoTokens);
    expect((await service.offeredTools()).map((t) => t.tool)).not.toContain('echo');
    await expect(service.callTool(id, 'echo', { message: 'x' })).rejects.toMatchObject({
      messageId: 'tools.toolDisabled',
    });
  });
});

describe('the person’s rules for calls', () => {
  it('keeps a default per server and rules per tool, through an edit and a restart, until revoked', async () => {
    const service = await open();
    const { id } = await service.add({ name: 'Files', transport: 'stdio', command: 'node' });
    expect(await service.get(id)).toMatchObject({ rule: 'ask', toolRules: [] });
    await service.setServerRule(id, 'allow');
    await service.setToolRule(id, 'write_file', 'deny');
    const ruled = await service.setToolRule(id, 'read_file', 'allow');
    expect(ruled).toMatchObject({
      rule: 'allow',
      toolRules: [
        { tool: 'read_file', rule: 'allow' },
        { tool: 'write_file', rule: 'deny' },
      ],
    });
    // Settings edited: the rules stay; the app started again: they are read back.
    await service.update(id, {
      name: 'My files',
      transport: 'stdio',
      command: 'node',
      args: ['x'],
    });
    await service.close();
    const again = new McpService({
      dataDir,
      secrets: new MemorySecretStore(),
      host: nodeProcessHost(),
    });
    services.push(again);
    expect(await again.permissions()).toEqual({
      servers: { [id]: 'allow' },
      tools: { [id]: { read_file: 'allow', write_file: 'deny' } },
    });
    await again.setToolRule(id, 'read_file', null);
    await again.setServerRule(id, 'ask');
    expect(await again.permissions()).toEqual({
      servers: {},
      tools: { [id]: { write_file: 'deny' } },
    });
    await again.remove(id);
    expect(await again.permissions()).toEqual({ servers: {}, tools: {} });
  });
});

describe('server-everything over Streamable HTTP', { timeout: 60_000 }, () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = undefined;
  });

  async function freePort(): Promise<number> {
    return new Promise((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
  }

  it('connects by URL with its headers, the secret one kept in the key store', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(() => output.includes('listening'), 'the HTTP server to listen');

    const secrets = new MemorySecretStore();
    const service = await open({ secrets });
    const server = await service.add({
      name: 'Remote',
      transport: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      headers: [{ name: 'X-Api-Key', value: 'very-secret-value', secret: true }],
    });
    expect(JSON.stringify(server)).not.toContain('very-secret-value');
    expect(server.headers).toEqual([{ name: 'X-Api-Key', secret: true, hasValue: true }]);
    expect(await readFile(join(dataDir, 'mcp-servers.json'), 'utf8')).not.toContain(
      'very-secret-value',
    );
    expect([...(await secrets.getAll()).values()].join()).toContain('very-secret-value');

    expect(textOf(await service.callTool(server.id, 'get-sum', { a: 40, b: 2 }))).toBe(
      'The sum of 40 and 2 is 42.',
    );
  });

  it('says plainly when nothing answers at the address', async () => {
    const service = await open();
    const server = await service.add({
      name: 'Nowhere',
      transport: 'http',
      url: `http://127.0.0.1:${await freePort()}/mcp`,
    });
    const result = await service.test(server.id);
    expect(result.ok).toBe(false);
    expect(result.problem?.diagnosis).toBe('unreachable');
  });
});

describe('server-filesystem on a temporary folder', { timeout: 60_000 }, () => {
  it('reads a file of the folder by its name', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Files',
      transport: 'stdio',
      command: 'node',
      args: [FILESYSTEM, folder],
    });
    const offered = (await service.offeredTools()).map((t) => t.tool);
    expect(offered).toEqual(
      expect.arrayContaining(['read_text_file', 'list_directory', 'write_file']),
    );
    const summary = await service.get(id);
    expect(summary.tools.find((t) => t.name === 'write_file')?.destructive).toBe(true);
    const read = await service.callTool(id, 'read_text_file', { path: 'tides.md' });
    expect(textOf(read)).toContain('High water at 06:12');
  });
});

describe('servers that misbehave', { timeout: 60_000 }, () => {
  it('follows a tool list that changes (tools/list_changed)', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Odd',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING],
    });
    await service.offeredTools();
    expect(textOf(await service.callTool(id, 'add_tool', {}))).toBe('added extra_1');
    const changed = await until(
      () => events.find((e) => e.id === id && e.tools.some((t) => t.name === 'extra_1')),
      'the new tool in an event',
    );
    expect(changed.tools.map((t) => t.name)).toContain('extra_1');
    expect((await service.offeredTools()).map((t) => t.tool)).toContain('extra_1');
    // Kept for the next start: the file holds the new list.
    expect(await readFile(join(dataDir, 'mcp-servers.json'), 'utf8')).toContain('extra_1');
  });

  it('fails a call whose server crashes mid-call, says so, and starts the server again', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Odd',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING],
    });
    await service.offeredTools();
    const first = service.pidOf(id);
    const error = await service.callTool(id, 'crash', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpToolError);
    expect((error as McpToolError).diagnosis).toBe('crashed');
    expect((error as McpToolError).message).toBe(
      '“Odd” stopped while running crash (exit code 3). It will be started again; see its error output on the Tools screen.',
    );
    const restarting = await until(
      () => events.find((e) => e.id === id && e.state === 'restarting'),
      'restarting',
    );
    expect(restarting.restartInMs).toBeGreaterThan(0);
    expect(restarting.errorOutput).toContain('about to crash');
    await until(async () => (await service.get(id)).state === 'running', 'the restart');
    expect(service.pidOf(id)).not.toBe(first);
    expect(textOf(await service.callTool(id, 'add', { a: 1, b: 2 }))).toBe('3');
  });

  it('gives up a call that hangs, in the time given, said plainly', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Odd',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING],
    });
    const error = await service
      .callTool(id, 'hang', {}, { timeoutMs: 800 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpToolError);
    expect((error as McpToolError).kind).toBe('timeout');
    expect((error as McpToolError).message).toBe(
      '“Odd” did not answer hang within 0.8 seconds, so the call was given up.',
    );
    // The server itself is fine.
    expect(textOf(await service.callTool(id, 'add', { a: 2, b: 2 }))).toBe('4');
  });

  it('keeps only the last lines of an error output flood', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Odd',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING],
    });
    expect(textOf(await service.callTool(id, 'flood', {}))).toBe('flooded');
    const summary = await until(async () => {
      const now = await service.get(id);
      return now.errorOutput.at(-1) === 'flood done' ? now : undefined;
    }, 'the last line of the flood');
    expect(summary.errorOutput).toHaveLength(50);
    expect(summary.errorOutput.every((line) => line.length <= 2001)).toBe(true);
  });

  it('cuts a 10 MB result with a note', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Odd',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING],
    });
    const result = await service.callTool(id, 'huge', {});
    expect(textOf(result)).toHaveLength(100_000);
    expect(result.cut).toEqual({ chars: 10 * 1024 * 1024, keptChars: 100_000, partsLeftOut: 0 });
    expect(resultForModel(result)).toMatch(
      /\[The result was cut: it held 10485760 characters; the first 100000 are above\.\]$/,
    );
  });

  it('ends the server and the process it started when the service closes: no orphan', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'mcp-pid-')), 'pids.json');
    const service = await open();
    const { id } = await service.add({
      name: 'Parent',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING, 'spawn-child'],
      env: [{ name: 'MCP_TEST_PID_FILE', value: pidFile }],
    });
    await service.offeredTools();
    const pids = JSON.parse(await readFile(pidFile, 'utf8')) as { server: number; child: number };
    expect(service.pidOf(id)).toBe(pids.server);
    expect(running(pids.server)).toBe(true);
    expect(running(pids.child)).toBe(true);
    await service.close();
    expect({ server: running(pids.server), child: running(pids.child) }).toEqual({
      server: false,
      child: false,
    });
  });
});

describe('a server that keeps stopping', { timeout: 60_000 }, () => {
  it('is started again after waits that double, then left failed with the reason', async () => {
    const clock = new FakeClock('2026-11-28T10:00:00Z');
    const service = await open({ clock });
    const { id } = await service.add({
      name: 'Flaky',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING, 'crash-soon'],
    });
    await service.offeredTools();
    const waits: number[] = [];
    for (let stop = 1; stop < 5; stop++) {
      const restarting = await until(
        () => events.filter((e) => e.id === id && e.state === 'restarting').at(stop - 1),
        `stop ${stop}`,
      );
      expect(restarting.problem?.message).toBe('“Flaky” stopped by itself (exit code 4).');
      waits.push(restarting.restartInMs ?? -1);
      await clock.advance(restarting.restartInMs ?? 0);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    const failed = await until(
      () => events.find((e) => e.id === id && e.state === 'failed'),
      'giving up',
    );
    expect(failed.problem).toMatchObject({
      diagnosis: 'crashed',
      messageId: 'tools.crashedTooOften',
    });
    expect(failed.problem?.message).toMatch(
      /stopped by itself 5 times in a row \(last: exit code 4\)/,
    );
    // Nothing is waiting to start it again; once closed, nothing at all.
    await service.close();
    expect(clock.pending).toBe(0);
  });
});

describe('importing an mcpServers file', { timeout: 60_000 }, () => {
  it('adds its servers through main’s dialog, secrets to the key store, bad entries by name', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'mcp-import-')), 'claude_desktop_config.json');
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          everything: {
            command: 'node',
            args: [EVERYTHING, 'stdio'],
            env: { API_KEY: 'sk-very-secret', MODE: 'demo' },
          },
          remote: {
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer token-123' },
          },
          legacy: { type: 'sse', url: 'https://mcp.example.com/sse' },
          broken: { command: ['npx'] },
        },
      }),
    );
    const secrets = new MemorySecretStore();
    const asked: unknown[] = [];
    const service = await open({
      secrets,
      dialogs: {
        chooseOpenPaths: async (options) => (asked.push(options), [file]),
        confirm: async () => true,
      },
    });
    const result = await service.importFromFile();
    expect(asked).toEqual([
      expect.objectContaining({ title: 'Import MCP servers', multiple: false }),
    ]);
    expect(result).toMatchObject({ chosen: true, added: ['everything', 'remote'], secrets: 2 });
    expect(result.refused.map((r) => [r.entry, r.messageId])).toEqual([
      ['legacy', 'import.tools.sse'],
      ['broken', 'import.tools.badField'],
    ]);
    const listed = await service.list();
    expect(JSON.stringify(listed)).not.toMatch(/sk-very-secret|token-123/);
    expect(await readFile(join(dataDir, 'mcp-servers.json'), 'utf8')).not.toMatch(
      /sk-very-secret|token-123/,
    );
    expect(listed[0]?.env).toEqual([
      { name: 'API_KEY', secret: true, hasValue: true },
      { name: 'MODE', secret: false, value: 'demo', hasValue: true },
    ]);
    // The imported server runs with its secret value.
    expect(textOf(await service.callTool(listed[0]!.id, 'get-env', {}))).toContain(
      'sk-very-secret',
    );

    // Imported again: every entry is a name already there.
    const again = await service.importFromFile();
    expect(again.added).toEqual([]);
    expect(
      again.refused.filter((r) => r.messageId === 'tools.nameTaken').map((r) => r.entry),
    ).toEqual(['everything', 'remote']);
  });

  it('refuses a file that is not one, by its name and why', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'mcp-import-')), 'notes.json');
    await writeFile(file, '{"provider": "x"}');
    const service = await open({ dialogs: { chooseOpenPaths: async () => [file] } });
    await expect(service.importFromFile()).rejects.toMatchObject({
      message:
        '“notes.json” cannot be imported: it holds no mcpServers list (the format Claude desktop, Cursor and others use).',
    });
    const cancelled = await (
      await open({ dialogs: { chooseOpenPaths: async () => [] } })
    ).importFromFile();
    expect(cancelled).toEqual({ chosen: false, added: [], secrets: 0, refused: [] });
  });
});

describe('why a server would not start', { timeout: 60_000 }, () => {
  it('names a missing command, where it looked, and the fix', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Ghost',
      transport: 'stdio',
      command: 'npx-not-installed-here',
      args: ['-y', 'x'],
    });
    const result = await service.test(id);
    expect(result.ok).toBe(false);
    expect(result.problem?.diagnosis).toBe('not_found');
    expect(result.problem?.message).toMatch(
      /^“npx-not-installed-here” was not found, so “Ghost” could not start; it looked in \/.+\. Install it, or write its full path/,
    );
    expect((await service.get(id)).state).toBe('failed');
  });

  it('tells a server that exits at start by its code, with its last error lines', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Quitter',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING, 'exit-at-start'],
    });
    const result = await service.test(id);
    expect(result.problem?.diagnosis).toBe('exited');
    expect(result.problem?.message).toContain('(exit code 2)');
    expect(result.errorOutput).toContain('fatal: MISBEHAVING_TOKEN is not set');
  });

  it('tells a handshake that never comes by its time limit, quoting text on stdout', async () => {
    const service = await open({ timeouts: { startMs: 1500 } });
    const silent = await service.add({
      name: 'Silent',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING, 'silent'],
    });
    const noisy = await service.add({
      name: 'Noisy',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING, 'stdout-noise'],
    });
    const [quiet, loud] = await Promise.all([service.test(silent.id), service.test(noisy.id)]);
    expect(quiet.problem?.diagnosis).toBe('timed_out');
    expect(quiet.problem?.message).toMatch(/did not answer within 1\.5 seconds of starting/);
    expect(loud.problem?.message).toContain('Server listening on stdio (this line is not MCP)');
    // Nothing of either is left running.
    expect(service.pidOf(silent.id)).toBeUndefined();
  });

  it('calls to a server that cannot start fail with the reason', async () => {
    const service = await open();
    const { id } = await service.add({
      name: 'Quitter',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING, 'exit-at-start'],
    });
    const error = await service.callTool(id, 'add', { a: 1, b: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).messageId).toBe('tools.start.exited');
  });
});
