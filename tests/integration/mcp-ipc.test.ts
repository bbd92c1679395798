/**
 * The tools routes through the real router and bridge, over the app's services: what the Tools
 * screen can do, with every event checked against the contract and no secret value ever crossing
 * to the page; and an app that quits leaves no server process behind.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/main/app-services';
import { createRouter, trustedSender } from '../../electron/main/ipc/router';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { checkedEvents } from '../fakes/contract-events';
import { pageBridge } from '../fakes/page-bridge';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MISBEHAVING = join(root, 'tests/fixtures/mcp/misbehaving-server.mjs');
const MARKED = join(root, 'tests/fixtures/mcp/marked-server.mjs');
const SECRET = 'mcp-secret-canary-5c1d09';
const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };

let dataDir: string;
let services: AppServices | undefined;
let router: ReturnType<typeof createRouter> | undefined;
let chosen: string[] = [];
/** Main's own questions (running a local server): each answered from the queue, else Cancel. */
let scripted = new ScriptedDialogs();
const crossed: string[] = [];
const events: Array<{ channel: string; payload: unknown }> = [];

async function open() {
  services = await createAppServices({
    userDataDir: dataDir,
    secretStore: new MemorySecretStore(),
    emit: checkedEvents((channel, payload) => {
      events.push({ channel, payload });
      crossed.push(JSON.stringify(payload));
    }),
    dialogs: {
      chooseSavePath: async () => undefined,
      chooseOpenPaths: async () => chosen,
      confirm: (question) => scripted.confirm(question),
    },
    version: '9.9.9',
    platform: 'test',
  });
  const opened = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [1]),
  });
  router = opened;
  return pageBridge(
    async (channel, payload) => {
      const result = await opened.dispatch(channel, payload, sender);
      crossed.push(JSON.stringify(result));
      return result;
    },
    () => () => undefined,
    (channel, payload) => void opened.receive(channel, payload, sender),
  );
}

function running(pid: number): boolean {
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

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-mcp-'));
  crossed.length = 0;
  events.length = 0;
  chosen = [];
  scripted = new ScriptedDialogs();
});
afterEach(async () => {
  await services?.close();
  services = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

describe('the tools routes', { timeout: 60_000 }, () => {
  it('add, list without starting, test, turn a tool off, stop and remove; secrets never cross', async () => {
    const api = await open();
    const added = await api.addMcpServer({
      name: 'Everything',
      transport: 'stdio',
      command: 'node',
      args: [EVERYTHING, 'stdio'],
      env: [{ name: 'API_KEY', value: SECRET, secret: true }],
    });
    expect(added).toMatchObject({
      state: 'stopped',
      toolsListed: false,
      env: [{ name: 'API_KEY', secret: true, hasValue: true }],
    });
    expect(await api.listMcpServers()).toHaveLength(1);
    expect(services?.mcp.pidOf(added.id)).toBeUndefined();

    scripted.confirmAnswers.push(true);
    const tested = await api.testMcpServer({ id: added.id });
    expect(tested).toMatchObject({
      ok: true,
      problem: null,
      serverInfo: { name: 'mcp-servers/everything' },
    });
    expect(tested.tools).toBeGreaterThan(5);
    // A test of a server that was not running leaves it stopped.
    const [listed] = await api.listMcpServers();
    expect(listed).toMatchObject({ state: 'stopped', toolsListed: true });
    expect(listed?.toolTokens).toBeGreaterThan(100);

    const off = await api.setMcpToolEnabled({ id: added.id, tool: 'echo', enabled: false });
    expect(off.tools.find((t) => t.name === 'echo')?.enabled).toBe(false);
    expect(off.toolTokens).toBeLessThan(listed!.toolTokens);

    // A secret left empty keeps the saved value.
    const renamed = await api.updateMcpServer({
      id: added.id,
      draft: {
        name: 'Everything 2',
        transport: 'stdio',
        command: 'node',
        args: [EVERYTHING, 'stdio'],
        env: [{ name: 'API_KEY', secret: true }],
      },
    });
    expect(renamed).toMatchObject({
      name: 'Everything 2',
      toolsListed: true,
      env: [{ name: 'API_KEY', hasValue: true }],
    });

    await api.removeMcpServer({ id: added.id });
    expect(await api.listMcpServers()).toEqual([]);
    expect(events.map((e) => e.channel)).toEqual(
      expect.arrayContaining(['tools:server-changed', 'tools:servers-changed']),
    );
    for (const message of crossed) expect(message).not.toContain(SECRET);
  });

  it('refuses a bad draft with its reason, and says why a test failed', async () => {
    const api = await open();
    await expect(
      api.addMcpServer({ name: 'x', transport: 'http', url: 'not an address' }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
      messageId: 'form.tools.url',
    });
    // uvx by a full path that does not exist: the fix names uv, whatever this machine has.
    const missing = join(dataDir, 'no-such-folder', 'uvx');
    const ghost = await api.addMcpServer({ name: 'Ghost', transport: 'stdio', command: missing });
    const tested = await api.testMcpServer({ id: ghost.id });
    expect(tested.ok).toBe(false);
    expect(tested.problem).toMatchObject({
      diagnosis: 'not_found',
      messageId: 'tools.start.notFound',
    });
    expect(tested.problem?.values).toMatchObject({
      command: missing,
      fix: { id: 'tools.fix.uv' },
    });
    await expect(api.stopMcpServer({ id: 'nope' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('answers only the app’s own page, and refuses a payload that does not fit', async () => {
    const api = await open();
    const draft = { name: 'Local', transport: 'stdio', command: 'node' };
    const stranger = { url: 'https://evil.example/', isMainFrame: true, webContentsId: 1 };
    const framed = { ...sender, isMainFrame: false };
    for (const who of [stranger, framed]) {
      expect(await router!.dispatch('tools:add-server', draft, who)).toMatchObject({
        ok: false,
        error: { kind: 'forbidden' },
      });
      expect(await router!.dispatch('tools:list-servers', null, who)).toMatchObject({
        ok: false,
        error: { kind: 'forbidden' },
      });
    }
    // Unknown fields (a path, say) are refused, not ignored.
    expect(
      await router!.dispatch('tools:add-server', { ...draft, cwd: '/etc' }, sender),
    ).toMatchObject({ ok: false, error: { kind: 'invalid_request' } });
    expect(
      await router!.dispatch('tools:test-server', { id: 'x', path: '/etc/passwd' }, sender),
    ).toMatchObject({ ok: false, error: { kind: 'invalid_request' } });
    expect(await api.listMcpServers()).toEqual([]);
  });

  it('imports an mcpServers file chosen in main’s dialog; the page names no path', async () => {
    const file = join(dataDir, 'mcp.json');
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          tools: { command: 'node', args: [EVERYTHING, 'stdio'], env: { API_TOKEN: SECRET } },
          bad: { command: 7 },
        },
      }),
    );
    chosen = [file];
    const api = await open();
    const result = await api.importMcpServers(null);
    expect(result).toMatchObject({
      chosen: true,
      added: ['tools'],
      secrets: 1,
      refused: [{ entry: 'bad', messageId: 'import.tools.badField' }],
    });
    // The route takes nothing but null: no path can be given.
    await expect(api.importMcpServers({ path: file } as never)).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    for (const message of crossed) expect(message).not.toContain(SECRET);
    expect(await readFile(join(dataDir, 'mcp-servers.json'), 'utf8')).not.toContain(SECRET);
    // An imported command line is asked about at its first start like any other.
    const [imported] = await api.listMcpServers();
    scripted.confirmAnswers.push(false);
    expect((await api.testMcpServer({ id: imported!.id })).problem?.diagnosis).toBe('not_allowed');
    expect(scripted.confirmRequests.map((q) => q.message)).toEqual([
      'Run “tools” on this computer?',
    ]);
  });
});

describe(
  'a local server runs only when the person said so in main’s dialog',
  { timeout: 60_000 },
  () => {
    it('asks with the command line shown; Cancel starts nothing, Run starts it, a change asks again', async () => {
      const marker = join(dataDir, 'started.txt');
      const api = await open();
      // What a hostile page could send: any command, any arguments, any environment.
      const added = await api.addMcpServer({
        name: 'Marked',
        transport: 'stdio',
        command: 'node',
        args: [MARKED, 'stdio'],
        env: [
          { name: 'MARKER_FILE', value: marker },
          { name: 'API_KEY', value: SECRET, secret: true },
        ],
      });

      // Cancel (also what Enter and Escape choose): nothing runs, and the server says why.
      scripted.confirmAnswers.push(false);
      const refused = await api.testMcpServer({ id: added.id });
      expect(refused).toMatchObject({
        ok: false,
        problem: { diagnosis: 'not_allowed', messageId: 'tools.start.notAllowed' },
      });
      expect(existsSync(marker)).toBe(false);
      expect(services?.mcp.pidOf(added.id)).toBeUndefined();
      expect(scripted.confirmRequests).toHaveLength(1);
      const [question] = scripted.confirmRequests;
      expect(question?.message).toContain('Marked');
      expect(question?.detail).toContain(`${MARKED} stdio`);
      expect(question?.detail).toContain('MARKER_FILE');
      expect(question?.detail).toContain('API_KEY');
      expect(question?.detail).not.toContain(SECRET);
      expect(question?.confirmLabel).toBe('Run');
      const [stopped] = await api.listMcpServers();
      expect(stopped).toMatchObject({
        state: 'stopped',
        problem: { diagnosis: 'not_allowed', messageId: 'tools.start.notAllowed' },
      });
      // The chat's tool loop asks the same way, and is refused the same way.
      scripted.confirmAnswers.push(false);
      expect(await services!.mcp.offeredTools([added.id])).toEqual([]);
      expect(scripted.confirmRequests).toHaveLength(2);
      expect(existsSync(marker)).toBe(false);

      // Run: it starts, and the yes is remembered for this command line.
      scripted.confirmAnswers.push(true);
      const allowed = await api.testMcpServer({ id: added.id });
      expect(allowed).toMatchObject({ ok: true, problem: null });
      expect(existsSync(marker)).toBe(true);
      expect(await readFile(join(dataDir, 'mcp-servers.json'), 'utf8')).not.toContain(SECRET);
      expect((await api.testMcpServer({ id: added.id })).ok).toBe(true);
      expect(scripted.confirmRequests).toHaveLength(3);
      // A new name is the same command line: no question.
      await api.updateMcpServer({
        id: added.id,
        draft: {
          name: 'Marked again',
          transport: 'stdio',
          command: 'node',
          args: [MARKED, 'stdio'],
          env: [
            { name: 'MARKER_FILE', value: marker },
            { name: 'API_KEY', secret: true },
          ],
        },
      });
      expect((await api.testMcpServer({ id: added.id })).ok).toBe(true);
      expect(scripted.confirmRequests).toHaveLength(3);

      // A new secret value is a new environment: asked again (Run this time).
      await api.updateMcpServer({
        id: added.id,
        draft: {
          name: 'Marked again',
          transport: 'stdio',
          command: 'node',
          args: [MARKED, 'stdio'],
          env: [
            { name: 'MARKER_FILE', value: marker },
            { name: 'API_KEY', value: `${SECRET}-2`, secret: true },
          ],
        },
      });
      scripted.confirmAnswers.push(true);
      expect((await api.testMcpServer({ id: added.id })).ok).toBe(true);
      expect(scripted.confirmRequests).toHaveLength(4);

      // The page changes the arguments: the next start asks again, and a Cancel starts nothing.
      await rm(marker);
      await api.updateMcpServer({
        id: added.id,
        draft: {
          name: 'Marked again',
          transport: 'stdio',
          command: 'node',
          args: [MARKED, 'stdio', '--changed'],
          env: [
            { name: 'MARKER_FILE', value: marker },
            { name: 'API_KEY', secret: true },
          ],
        },
      });
      scripted.confirmAnswers.push(false);
      expect((await api.testMcpServer({ id: added.id })).problem?.diagnosis).toBe('not_allowed');
      expect(scripted.confirmRequests).toHaveLength(5);
      expect(scripted.confirmRequests[4]?.detail).toContain(`${MARKED} stdio --changed`);
      expect(existsSync(marker)).toBe(false);

      for (const message of crossed) expect(message).not.toContain(SECRET);
    });

    it('needs no question for a remote server: nothing runs on this computer', async () => {
      const api = await open();
      const remote = await api.addMcpServer({
        name: 'Remote',
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
      });
      const tested = await api.testMcpServer({ id: remote.id });
      expect(tested.problem?.diagnosis).toBe('unreachable');
      expect(scripted.confirmRequests).toEqual([]);
    });
  },
);

describe('quitting', { timeout: 60_000 }, () => {
  it('ends every server the app started, with the processes they started', async () => {
    const pidFile = join(dataDir, 'pids.json');
    const api = await open();
    const { id } = await api.addMcpServer({
      name: 'Parent',
      transport: 'stdio',
      command: 'node',
      args: [MISBEHAVING, 'spawn-child'],
      env: [{ name: 'MCP_TEST_PID_FILE', value: pidFile }],
    });
    scripted.confirmAnswers.push(true);
    // The chat's tool loop starts it when it offers its tools.
    const offered = await services!.mcp.offeredTools([id]);
    expect(offered.map((t) => t.functionName)).toContain('hang');
    const pids = JSON.parse(await readFile(pidFile, 'utf8')) as { server: number; child: number };
    expect([running(pids.server), running(pids.child)]).toEqual([true, true]);
    await services!.close();
    services = undefined;
    expect([running(pids.server), running(pids.child)]).toEqual([false, false]);
  });
});
