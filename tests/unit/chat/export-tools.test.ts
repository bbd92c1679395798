/**
 * Tool calls in exports: Markdown fences arguments and results with a fence longer than any run
 * of backticks in them (a result cannot close its fence and go on as Markdown or HTML), and an
 * imported call that was waiting or running when exported reads as stopped.
 */
import { describe, expect, it } from 'vitest';
import { toMarkdown } from '../../../electron/main/services/chat/export-file';
import {
  importedTools,
  parseExport,
  type ExportedConversation,
} from '../../../electron/main/services/chat/transfer';
import type { ReplyTools, ToolCallRecord } from '../../../electron/shared/ipc/routes/chat';

const AT = '2026-01-01T00:00:00.000Z';

function call(overrides: Partial<ToolCallRecord>): ToolCallRecord {
  return {
    callId: 'call-1',
    functionName: 'read_file',
    serverId: 'srv-1',
    serverName: 'Files',
    tool: 'read_file',
    arguments: '{"path":"notes.md"}',
    state: 'done',
    result: 'hello',
    toolError: false,
    durationMs: 12,
    ...overrides,
  };
}

function tools(calls: ToolCallRecord[]): ReplyTools {
  return {
    steps: [{ text: 'Reading it.', calls }],
    leftOut: [],
    budget: 8000,
    stoppedAtLimit: false,
    maxSteps: 10,
  };
}

function conversation(replyTools: ReplyTools): ExportedConversation {
  return {
    title: 'Notes',
    createdAt: AT,
    updatedAt: AT,
    pinned: false,
    model: 'demo-tools',
    systemPrompt: '',
    temperature: null,
    maxTokens: null,
    messages: [
      {
        id: 'u',
        parentId: null,
        role: 'user',
        content: 'Read notes.md',
        status: 'complete',
        createdAt: AT,
      },
      {
        id: 'a',
        parentId: 'u',
        role: 'assistant',
        content: 'It says hello.',
        status: 'complete',
        createdAt: AT,
        tools: replyTools,
      },
    ],
    currentId: 'a',
  };
}

describe('tool calls in a Markdown export', () => {
  it('shows each call’s tool, server, state, arguments and result, in fences nothing closes', () => {
    const hostile = 'a ``` fence\n```\n<script>alert(1)</script>\n````';
    const markdown = toMarkdown(
      conversation(
        tools([
          call({ result: hostile }),
          call({
            callId: 'call-2',
            tool: 'write_file',
            state: 'failed',
            result: 'No such folder',
            toolError: true,
            durationMs: 0,
          }),
          call({
            callId: 'call-3',
            tool: null,
            functionName: 'rm_rf',
            serverName: null,
            state: 'denied',
            result: 'The person denied this tool call.',
            durationMs: 0,
          }),
        ]),
      ),
    );
    expect(markdown).toContain('**Tool call: read\\_file** on Files · done · 12 ms');
    expect(markdown).toContain('Arguments:\n\n```text\n{\n  "path": "notes.md"\n}\n```');
    // The result holds runs of 3 and 4 backticks: its fence is 5 long, and it is there whole.
    expect(markdown).toContain(`Result:\n\n\`\`\`\`\`text\n${hostile}\n\`\`\`\`\`\n`);
    expect(markdown).toContain('**Tool call: write\\_file** on Files · failed\n');
    expect(markdown).toContain('Error:\n\n```text\nNo such folder\n```');
    expect(markdown).toContain('**Tool call: rm\\_rf** · denied');
    expect(markdown).toContain(
      'The model was told:\n\n```text\nThe person denied this tool call.\n```',
    );
    // The step's text, then the calls, then the reply's text.
    expect(markdown.indexOf('Reading it.')).toBeLessThan(markdown.indexOf('**Tool call'));
    expect(markdown.indexOf('It says hello.')).toBeGreaterThan(markdown.lastIndexOf('```'));
  });
});

describe('tool calls in an import', () => {
  it('reads a call exported while it waited or ran as stopped; the others as they were', () => {
    const exported = tools([
      call({ state: 'waiting', why: 'destructive', result: '' }),
      call({ callId: 'call-2', state: 'running', result: '' }),
      call({ callId: 'call-3' }),
    ]);
    const document = parseExport(
      'notes.json',
      JSON.stringify({
        format: 'relay-desktop-chat',
        version: 4,
        exportedAt: AT,
        conversations: [conversation(exported)],
      }),
    );
    const read = document.conversations[0]!.messages[1]!.tools!;
    expect(read).toEqual(exported);
    const calls = importedTools(read).steps[0]!.calls;
    expect(calls.map((c) => [c.state, c.toolError, 'why' in c])).toEqual([
      ['denied', true, false],
      ['failed', true, false],
      ['done', false, false],
    ]);
  });

  it('refuses a tool call record of the wrong shape, naming where', () => {
    const bad = conversation(tools([call({})]));
    (bad.messages[1]!.tools!.steps[0]!.calls[0] as { state: string }).state = 'exploded';
    expect(() =>
      parseExport(
        'bad.json',
        JSON.stringify({
          format: 'relay-desktop-chat',
          version: 4,
          exportedAt: AT,
          conversations: [bad],
        }),
      ),
    ).toThrow(/conversations\[0\]\.messages\[1\]\.tools\.steps\[0\]\.calls\[0\]\.state/);
  });
});
