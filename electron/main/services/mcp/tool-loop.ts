/**
 * One reply that may use tools: the model is offered the enabled tools of the conversation's
 * servers, each call it makes is decided by the person's rules (`approval.ts`), asked about when
 * they say so, run on its MCP server, and its result sent back; the model then goes on, until it
 * answers without calls or the turn's step limit is reached.
 *
 * A result is untrusted text: it goes back to the model as a `tool` message and never decides
 * anything here; each call the model makes after it is decided afresh. A call that cannot run (a
 * tool not offered, arguments that never became JSON, a server that failed, a denial) is answered
 * with why, so the model can say so instead of waiting.
 */
import type { RelayMessage, ToolMessage } from '../../../shared/relay-requests';
import type { Usage } from '../relay/chat-response';
import type { ChatOptions, RelayClient, ToolCall, ToolCallOutcome } from '../relay/relay-client';
import {
  answerEffect,
  decide,
  grantKey,
  type ApprovalAnswer,
  type Decision,
  type ToolPermissions,
} from './approval';
import type { McpService, OfferedTool } from './mcp-service';
import { resultForModel } from './tool-result';

/** Steps (model replies that call tools) in one turn, unless the person set another limit. */
export const DEFAULT_MAX_STEPS = 10;

/** A call waiting for the person: what the approval card shows. */
export interface ApprovalRequest {
  callId: string;
  serverId: string;
  serverName: string;
  tool: string;
  /** The arguments as the model wrote them. */
  input: Record<string, unknown>;
  why: Extract<Decision, { outcome: 'ask' }>['why'];
}

/** What became of one call, for its card in the reply. */
export interface ToolCallRun {
  callId: string;
  functionName: string;
  serverId: string | null;
  serverName: string | null;
  tool: string | null;
  arguments: string;
  outcome: 'done' | 'denied' | 'failed';
  /** What the model was sent. */
  sent: string;
  /** The tool said its result is an error. */
  toolError: boolean;
  /** How long the server took (0 when it did not run). */
  durationMs: number;
}

/** A call as it starts to run. */
export type RunningCall = Pick<
  ToolCallRun,
  'callId' | 'functionName' | 'serverId' | 'serverName' | 'tool' | 'arguments'
>;

export interface ToolTurnOptions {
  client: Pick<RelayClient, 'chat'>;
  mcp: Pick<McpService, 'offeredTools' | 'callTool'>;
  model: string;
  /** The conversation so far, ending with the person's message. */
  messages: readonly RelayMessage[];
  /** The servers whose tools this conversation may use. */
  serverIds: readonly string[];
  permissions: ToolPermissions;
  /** The tools allowed for this conversation (`grantKey`); an answer "for this conversation" adds. */
  grants: Set<string>;
  /** Asks the person; resolves with their answer. */
  approve: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  /** The person chose "always allow" for a tool: keep the rule. */
  alwaysAllow?: (serverId: string, tool: string) => Promise<void> | void;
  maxSteps?: number;
  /** The characters of a result kept (the settings'); the default cap when absent. */
  maxResultChars?: number;
  signal?: AbortSignal;
  onDelta?: ChatOptions['onDelta'];
  onToolCall?: ChatOptions['onToolCall'];
  /** A model reply ended with calls (its text, and the calls it made), before any runs. */
  onStep?: (step: { text: string; calls: readonly ToolCallOutcome[] }) => void;
  /** A call is about to run on its server (decided, or approved). */
  onCallRunning?: (call: RunningCall) => void;
  /** Each call once it is answered. */
  onCallDone?: (run: ToolCallRun) => void;
  /** Narrows the tools offered (a token budget); all of them when absent. */
  selectTools?: (tools: OfferedTool[]) => OfferedTool[];
  /** How time is read for a call's duration. */
  now?: () => number;
  /** What each step's request spent, as the relay said (also when the turn ends in an error). */
  onUsage?: (usage: Usage) => void;
}

export interface ToolTurnResult {
  /** The last reply's text. */
  content: string;
  finishReason: string | null;
  /** The messages this turn added: assistant calls and tool results, then the final answer. */
  added: RelayMessage[];
  calls: ToolCallRun[];
  /** Model replies in the turn. */
  steps: number;
  /** The turn ended at the step limit with calls left unmade. */
  stoppedAtLimit: boolean;
  /** What the turn's requests spent, summed; absent when the relay said for none of them. */
  usage?: Usage;
}

/** Token counts as the relay's reply or a stored message has them. */
type UsageCounts = { [K in keyof Usage]?: number | undefined };

/** Two usages summed, each count where either knows it; undefined when neither is known. */
export function sumUsage(
  a: UsageCounts | undefined,
  b: UsageCounts | undefined,
): Usage | undefined {
  if (a === undefined && b === undefined) return undefined;
  const sum: Usage = {};
  for (const key of ['promptTokens', 'completionTokens', 'totalTokens'] as const) {
    const x = a?.[key];
    const y = b?.[key];
    if (x !== undefined || y !== undefined) sum[key] = (x ?? 0) + (y ?? 0);
  }
  return sum;
}

export const DENIED_BY_PERSON = 'The person denied this tool call. Do not try it again unasked.';
export const DENIED_BY_RULE = 'The person’s settings do not allow this tool to run.';

export async function runToolTurn(options: ToolTurnOptions): Promise<ToolTurnResult> {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const now = options.now ?? (() => performance.now());
  const all = await options.mcp.offeredTools(options.serverIds);
  const offered = options.selectTools ? options.selectTools(all) : all;
  const byName = new Map(offered.map((tool) => [tool.functionName, tool]));
  const messages: RelayMessage[] = [...options.messages];
  const added: RelayMessage[] = [];
  const calls: ToolCallRun[] = [];
  let usage: Usage | undefined;
  for (let step = 1; ; step++) {
    options.signal?.throwIfAborted();
    const reply = await options.client.chat(
      {
        model: options.model,
        messages,
        stream: true,
        ...(offered.length > 0 ? { tools: offered.map((tool) => tool.definition) } : {}),
      },
      {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onDelta ? { onDelta: options.onDelta } : {}),
        ...(options.onToolCall ? { onToolCall: options.onToolCall } : {}),
      },
    );
    if (reply.usage !== undefined) {
      usage = sumUsage(usage, reply.usage);
      options.onUsage?.(reply.usage);
    }
    const answered = (reply.toolCalls ?? []).filter((call) => call.id !== undefined);
    const done = (stoppedAtLimit: boolean): ToolTurnResult => {
      if (reply.content !== '') {
        const final: RelayMessage = { role: 'assistant', content: reply.content };
        added.push(final);
      }
      return {
        content: reply.content,
        finishReason: reply.finishReason,
        added,
        calls,
        steps: step,
        stoppedAtLimit,
        ...(usage === undefined ? {} : { usage }),
      };
    };
    if (answered.length === 0) return done(false);
    if (step >= maxSteps) return done(true);

    const turn: RelayMessage = {
      role: 'assistant',
      content: reply.content === '' ? null : reply.content,
      tool_calls: answered.map((call) => ({
        id: call.id!,
        type: 'function' as const,
        function: { name: call.name ?? 'unknown', arguments: call.arguments },
      })),
    };
    options.onStep?.({ text: reply.content, calls: answered });
    const results: ToolMessage[] = [];
    for (const call of answered) {
      options.signal?.throwIfAborted();
      const run =
        call.status === 'ready'
          ? await runCall(call, byName.get(call.name), options, now)
          : failedRun(call.id!, call.name ?? '', call.arguments, call.error.message);
      calls.push(run);
      options.onCallDone?.(run);
      results.push({ role: 'tool', tool_call_id: run.callId, content: run.sent });
    }
    messages.push(turn, ...results);
    added.push(turn, ...results);
  }
}

async function runCall(
  call: ToolCall,
  tool: OfferedTool | undefined,
  options: ToolTurnOptions,
  now: () => number,
): Promise<ToolCallRun> {
  if (tool === undefined) {
    return failedRun(call.id, call.name, call.arguments, `No tool is named ${call.name}.`);
  }
  const base = {
    callId: call.id,
    functionName: call.name,
    serverId: tool.serverId,
    serverName: tool.serverName,
    tool: tool.tool,
    arguments: call.arguments,
  };
  const decision = decide(
    { serverId: tool.serverId, tool: tool.tool, destructive: tool.destructive },
    options.permissions,
    options.grants,
  );
  let allowed = decision.outcome === 'run';
  let denial = DENIED_BY_RULE;
  if (decision.outcome === 'ask') {
    const answer = await options.approve({
      callId: call.id,
      serverId: tool.serverId,
      serverName: tool.serverName,
      tool: tool.tool,
      input: call.input,
      why: decision.why,
    });
    const effect = answerEffect(answer);
    allowed = effect.run;
    denial = DENIED_BY_PERSON;
    if (effect.grantForConversation) options.grants.add(grantKey(tool.serverId, tool.tool));
    if (effect.alwaysAllow) await options.alwaysAllow?.(tool.serverId, tool.tool);
  }
  if (!allowed) {
    return { ...base, outcome: 'denied', sent: denial, toolError: false, durationMs: 0 };
  }
  options.onCallRunning?.(base);
  const started = now();
  try {
    const result = await options.mcp.callTool(tool.serverId, tool.tool, call.input, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxResultChars === undefined ? {} : { maxResultChars: options.maxResultChars }),
    });
    return {
      ...base,
      outcome: 'done',
      sent: resultForModel(result),
      toolError: result.isError,
      durationMs: now() - started,
    };
  } catch (error) {
    options.signal?.throwIfAborted();
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      outcome: 'failed',
      sent: `The tool could not be run: ${reason}`,
      toolError: true,
      durationMs: now() - started,
    };
  }
}

function failedRun(id: string, name: string, args: string, reason: string): ToolCallRun {
  return {
    callId: id,
    functionName: name,
    serverId: null,
    serverName: null,
    tool: null,
    arguments: args,
    outcome: 'failed',
    sent: `The call could not be made: ${reason}`,
    toolError: true,
    durationMs: 0,
  };
}
