/**
 * The chat's tool pieces: the tool list held to a token budget (the tools left out named), the
 * messages a stored tool reply adds to a later request, a reply's record as Stop leaves it, and
 * an answer awaited by a call (given once, or rejected by Stop).
 */
import { describe, expect, it } from 'vitest';
import {
  PendingAnswers,
  ReplyToolsRecord,
  STOPPED_CALL,
  toolMessages,
  withinBudget,
} from '../../../../electron/main/services/chat/chat-tools';
import type { OfferedTool } from '../../../../electron/main/services/mcp/mcp-service';
import type { ReplyTools } from '../../../../electron/shared/ipc/routes/chat';

function tool(name: string, tokens: number): OfferedTool {
  return {
    serverId: 's1',
    serverName: 'Everything',
    tool: name,
    functionName: name,
    definition: { type: 'function', function: { name, description: name, parameters: {} } },
    tokens,
    readOnly: null,
    destructive: null,
  };
}

describe('withinBudget', () => {
  it('keeps tools in order while they fit, and leaves out those that do not', () => {
    const { kept, leftOut } = withinBudget(
      [tool('a', 300), tool('big', 900), tool('b', 500), tool('c', 300)],
      1000,
    );
    expect(kept.map((t) => t.tool)).toEqual(['a', 'b']);
    expect(leftOut.map((t) => t.tool)).toEqual(['big', 'c']);
  });

  it('leaves every tool out with a budget of 0, and none with room for all', () => {
    expect(withinBudget([tool('a', 1)], 0).kept).toEqual([]);
    expect(withinBudget([tool('a', 1), tool('b', 2)], 3).leftOut).toEqual([]);
  });
});

describe('toolMessages', () => {
  const tools: ReplyTools = {
    steps: [
      {
        text: 'Let me add them.',
        calls: [
          {
            callId: 'c1',
            functionName: 'get-sum',
            serverId: 's1',
            serverName: 'Everything',
            tool: 'get-sum',
            arguments: '{"a":2,"b":3}',
            state: 'done',
            result: '5',
            toolError: false,
            durationMs: 3,
          },
          {
            callId: 'c2',
            functionName: 'echo',
            serverId: 's1',
            serverName: 'Everything',
            tool: 'echo',
            arguments: '{"message":"hi"}',
            state: 'denied',
            result: 'The person denied this tool call.',
            toolError: false,
            durationMs: 0,
          },
        ],
      },
    ],
    leftOut: [],
    budget: 8000,
    stoppedAtLimit: false,
    maxSteps: 10,
  };

  it('gives each step its calls and their results, then the answer', () => {
    expect(toolMessages(tools, 'It is 5.')).toEqual([
      {
        role: 'assistant',
        content: 'Let me add them.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get-sum', arguments: '{"a":2,"b":3}' } },
          { id: 'c2', type: 'function', function: { name: 'echo', arguments: '{"message":"hi"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '5' },
      { role: 'tool', tool_call_id: 'c2', content: 'The person denied this tool call.' },
      { role: 'assistant', content: 'It is 5.' },
    ]);
  });

  it('sends no empty answer after the calls of a stopped reply', () => {
    const out = toolMessages({ ...tools, steps: [{ ...tools.steps[0]!, text: '' }] }, '');
    expect(out.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c2', content: expect.any(String) });
    expect(out[0]).toMatchObject({ role: 'assistant', content: null });
  });
});

describe('ReplyToolsRecord', () => {
  it('marks calls waiting or running when stopped: the waiting denied, the running failed', () => {
    const sent: ReplyTools[] = [];
    let clock = 1000;
    const record = new ReplyToolsRecord(
      8000,
      10,
      (t) => sent.push(t),
      () => clock,
    );
    record.step('');
    const base = {
      functionName: 'x',
      serverId: 's1',
      serverName: 'S',
      tool: 'x',
      arguments: '{}',
      result: '',
      toolError: false,
    };
    record.upsert({ ...base, callId: 'run', state: 'running' });
    record.upsert({ ...base, callId: 'ask', state: 'waiting', why: 'rule' });
    clock = 3500;
    record.stopAll();
    const calls = record.tools.steps[0]!.calls;
    expect(calls.map((c) => [c.callId, c.state, c.result, c.durationMs])).toEqual([
      ['run', 'failed', STOPPED_CALL, 2500],
      ['ask', 'denied', STOPPED_CALL, 0],
    ]);
    expect(calls[1]!.why).toBeUndefined();
    // Each change was sent as a copy, the last one as the record ends.
    expect(sent.at(-1)).toEqual(record.tools);
    expect(sent.at(-1)).not.toBe(record.tools);
  });
});

describe('PendingAnswers', () => {
  it('gives the answer to the call that waits, once', async () => {
    const answers = new PendingAnswers();
    const waiting = answers.wait('r1', 'c1', new AbortController().signal);
    expect(answers.answer('r1', 'other', 'once')).toBe(false);
    expect(answers.answer('r1', 'c1', 'conversation')).toBe(true);
    await expect(waiting).resolves.toBe('conversation');
    expect(answers.answer('r1', 'c1', 'deny')).toBe(false);
  });

  it('rejects the wait when the reply is stopped, and forgets it', async () => {
    const answers = new PendingAnswers();
    const stop = new AbortController();
    const waiting = answers.wait('r1', 'c1', stop.signal);
    stop.abort();
    await expect(waiting).rejects.toThrow();
    expect(answers.answer('r1', 'c1', 'once')).toBe(false);
  });
});
