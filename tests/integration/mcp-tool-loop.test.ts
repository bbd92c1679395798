/**
 * A reply that uses tools, end to end on real parts: the demo relay's demo-tools model, the app's
 * relay client, and server-everything over stdio. The person's rules and answers decide each call:
 * allowed once, denied (the model is told), allowed for the conversation, always allowed, refused
 * by a server's default; a turn ends at its step limit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import {
  withToolRule,
  type ApprovalAnswer,
  type ToolPermissions,
} from '../../electron/main/services/mcp/approval';
import { McpService } from '../../electron/main/services/mcp/mcp-service';
import { nodeProcessHost } from '../../electron/main/services/mcp/processes';
import {
  DENIED_BY_PERSON,
  DENIED_BY_RULE,
  runToolTurn,
  type ApprovalRequest,
  type ToolTurnOptions,
} from '../../electron/main/services/mcp/tool-loop';
import {
  createRelayClient,
  type RelayClient,
} from '../../electron/main/services/relay/relay-client';
import { MemorySecretStore } from '../../electron/main/services/secret-store';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SUM = 'What is the sum of 2 and 3?';

let relay: DemoRelay;
let client: RelayClient;
let mcp: McpService;
let dataDir: string;
let serverId: string;

beforeAll(async () => {
  relay = await startDemoRelay({ tokensPerSecond: 0, ratePerMinute: 10_000 });
  client = createRelayClient({ baseUrl: relay.url, apiKey: relay.keys[0]!, maxRetries: 0 });
  dataDir = await mkdtemp(join(tmpdir(), 'mcp-loop-'));
  mcp = new McpService({
    dataDir,
    secrets: new MemorySecretStore(),
    host: nodeProcessHost(),
    appVersion: '0.1.0',
    timeouts: { startMs: 30_000, callMs: 30_000 },
    loginShellTimeoutMs: 2000,
    // The person chose Run in main's dialog for the server's command line.
    dialogs: { chooseOpenPaths: async () => [], confirm: async () => true },
  });
  serverId = (
    await mcp.add({
      name: 'Everything',
      transport: 'stdio',
      command: 'node',
      args: [EVERYTHING, 'stdio'],
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await mcp.close();
  await relay.close();
  await rm(dataDir, { recursive: true, force: true });
});

const ASK: ToolPermissions = { servers: {}, tools: {} };

function turn(
  answers: ApprovalAnswer[],
  overrides: Partial<ToolTurnOptions> = {},
): { asked: ApprovalRequest[]; options: ToolTurnOptions } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    options: {
      client,
      mcp,
      model: 'demo-tools',
      messages: [{ role: 'user', content: SUM }],
      serverIds: [serverId],
      permissions: ASK,
      grants: new Set(),
      approve: async (request) => {
        asked.push(request);
        const answer = answers.shift();
        if (answer === undefined) throw new Error('asked more often than expected');
        return answer;
      },
      ...overrides,
    },
  };
}

describe('a reply that uses tools', { timeout: 60_000 }, () => {
  it('asks, runs the call allowed once, and answers from its result', async () => {
    const { asked, options } = turn(['once']);
    const result = await runToolTurn(options);
    expect(asked).toEqual([
      expect.objectContaining({
        serverId,
        serverName: 'Everything',
        tool: 'get-sum',
        input: { a: 2, b: 3 },
        why: 'rule',
      }),
    ]);
    expect(result.calls).toEqual([
      expect.objectContaining({
        tool: 'get-sum',
        outcome: 'done',
        sent: 'The sum of 2 and 3 is 5.',
        toolError: false,
      }),
    ]);
    expect(result.content).toContain('The sum of 2 and 3 is 5.');
    expect(result.steps).toBe(2);
    expect(result.stoppedAtLimit).toBe(false);
    // The history the turn adds: the calls, their results, the answer.
    expect(result.added.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(result.added[1]).toMatchObject({ role: 'tool', content: 'The sum of 2 and 3 is 5.' });
  });

  it('tells the model a call the person denied, and runs nothing', async () => {
    const { asked, options } = turn(['deny']);
    const result = await runToolTurn(options);
    expect(asked).toHaveLength(1);
    expect(result.calls).toEqual([
      expect.objectContaining({ outcome: 'denied', sent: DENIED_BY_PERSON, durationMs: 0 }),
    ]);
    expect(result.content).toContain(DENIED_BY_PERSON);
    expect(result.content).not.toContain('is 5');
  });

  it('asks once for a tool allowed for the conversation, and never for one always allowed', async () => {
    const grants = new Set<string>();
    const first = turn(['conversation'], { grants });
    await runToolTurn(first.options);
    const second = turn([], { grants });
    const again = await runToolTurn(second.options);
    expect([first.asked.length, second.asked.length]).toEqual([1, 0]);
    expect(again.calls[0]?.outcome).toBe('done');
    // Another conversation (no grants) asks again.
    let permissions = ASK;
    const elsewhere = turn(['always'], {
      alwaysAllow: (id, tool) => void (permissions = withToolRule(permissions, id, tool, 'allow')),
    });
    await runToolTurn(elsewhere.options);
    expect(elsewhere.asked).toHaveLength(1);
    expect(permissions.tools).toEqual({ [serverId]: { 'get-sum': 'allow' } });
    const later = turn([], { permissions });
    expect((await runToolTurn(later.options)).calls[0]?.outcome).toBe('done');
    expect(later.asked).toHaveLength(0);
  });

  it('refuses by a server’s default without asking, and the model is told', async () => {
    const { asked, options } = turn([], {
      permissions: { servers: { [serverId]: 'deny' }, tools: {} },
    });
    const result = await runToolTurn(options);
    expect(asked).toHaveLength(0);
    expect(result.calls[0]).toMatchObject({ outcome: 'denied', sent: DENIED_BY_RULE });
  });

  it('ends a turn at its step limit, with the calls left unmade', async () => {
    const { asked, options } = turn([], { maxSteps: 1 });
    const result = await runToolTurn(options);
    expect(result).toMatchObject({ steps: 1, stoppedAtLimit: true, calls: [] });
    expect(asked).toHaveLength(0);
  });

  it('stops when the person stops the reply', async () => {
    const controller = new AbortController();
    const { options } = turn([], {
      signal: controller.signal,
      approve: async () => {
        controller.abort();
        return 'once';
      },
    });
    await expect(runToolTurn(options)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
