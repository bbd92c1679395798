/**
 * The tool loop's answers to calls that cannot run, on a scripted relay and server: a function no
 * tool is named, arguments that never became JSON, a server that fails the call. Each is answered
 * with why, so the model goes on instead of waiting, and nothing is asked of the person.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../electron/main/services/app-error';
import type { OfferedTool } from '../../../../electron/main/services/mcp/mcp-service';
import { runToolTurn } from '../../../../electron/main/services/mcp/tool-loop';
import type { ChatResult } from '../../../../electron/main/services/relay/relay-client';
import { RelayError } from '../../../../electron/main/services/relay/relay-error';
import type { RelayMessage } from '../../../../electron/shared/relay-requests';

const TOOL: OfferedTool = {
  serverId: 's1',
  serverName: 'Files',
  tool: 'read',
  functionName: 'read',
  definition: {
    type: 'function',
    function: { name: 'read', description: 'Reads', parameters: { type: 'object' } },
  },
  tokens: 10,
  readOnly: true,
  destructive: false,
};

describe('calls that cannot run', () => {
  it('are answered with why, and the turn goes on to the answer', async () => {
    const sent: RelayMessage[][] = [];
    const replies: ChatResult[] = [
      {
        content: '',
        finishReason: 'tool_calls',
        interrupted: false,
        toolCalls: [
          { status: 'ready', index: 0, id: 'c0', name: 'write', arguments: '{}', input: {} },
          {
            status: 'failed',
            index: 1,
            id: 'c1',
            name: 'read',
            arguments: '{"path":',
            error: new RelayError('bad_response', 'Its arguments never became JSON.'),
          },
          // No id: nothing can answer it, so it is left out of the history.
          {
            status: 'failed',
            index: 2,
            id: undefined,
            name: undefined,
            arguments: '',
            error: new RelayError('bad_response', 'Never begun.'),
          },
          { status: 'ready', index: 3, id: 'c3', name: 'read', arguments: '{}', input: {} },
        ],
      },
      { content: 'Done.', finishReason: 'stop', interrupted: false },
    ];
    const result = await runToolTurn({
      client: {
        chat: async (request) => {
          sent.push([...request.messages]);
          return replies.shift()!;
        },
      },
      mcp: {
        offeredTools: async () => [TOOL],
        callTool: async () => {
          throw new AppError('server_error', 'The server stopped.');
        },
      },
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      serverIds: ['s1'],
      permissions: { servers: { s1: 'allow' }, tools: {} },
      grants: new Set(),
      approve: async () => {
        throw new Error('nothing here should ask');
      },
    });
    expect(result.calls.map((c) => [c.callId, c.outcome, c.sent])).toEqual([
      ['c0', 'failed', 'The call could not be made: No tool is named write.'],
      ['c1', 'failed', 'The call could not be made: Its arguments never became JSON.'],
      ['c3', 'failed', 'The tool could not be run: The server stopped.'],
    ]);
    expect(result.content).toBe('Done.');
    const second = sent[1]!;
    expect(second[1]).toMatchObject({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c0' }, { id: 'c1' }, { id: 'c3' }],
    });
    expect(second.slice(2).map((m) => (m.role === 'tool' ? m.tool_call_id : m.role))).toEqual([
      'c0',
      'c1',
      'c3',
    ]);
  });
});
