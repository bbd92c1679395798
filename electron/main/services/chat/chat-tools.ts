/**
 * Tools in chat: one reply's tool turn (`mcp/tool-loop.ts`) as the page sees it. Each call is a
 * record of the reply (`ReplyTools`) sent whole to the page whenever it changes: waiting for the
 * person's answer (the approval card), running, then done, failed or denied. The tool list is
 * held to the person's token budget, and the tools left out are named. Stopping the reply
 * rejects an answer still awaited and aborts a call that runs (the MCP cancellation), and the
 * calls it cut are marked as stopped.
 */
import type { ReplyTools, ToolCallRecord } from '../../../shared/ipc/routes/chat';
import type { ToolSettings } from '../../../shared/ipc/routes/settings';
import type { RelayMessage } from '../../../shared/relay-requests';
import type { ApprovalAnswer, ToolPermissions } from '../mcp/approval';
import type { McpService, OfferedTool } from '../mcp/mcp-service';

/** What the chat needs of the tools: the servers' tools and the person's rules. */
export interface ChatTools {
  mcp: Pick<McpService, 'offeredTools' | 'callTool'>;
  permissions: () => Promise<ToolPermissions>;
  /** "Always allow this tool": a standing rule for the tool. */
  alwaysAllow: (serverId: string, tool: string) => Promise<void>;
  settings: () => Promise<ToolSettings>;
}

/** What the model is sent for a call cut by Stop. */
export const STOPPED_CALL = 'The person stopped this call before it answered.';

/**
 * The tools that fit the budget, in the order offered (the servers as chosen, their tools as
 * listed): a tool that does not fit is left out and the next ones are still tried.
 */
export function withinBudget(
  tools: readonly OfferedTool[],
  budget: number,
): { kept: OfferedTool[]; leftOut: OfferedTool[] } {
  const kept: OfferedTool[] = [];
  const leftOut: OfferedTool[] = [];
  let used = 0;
  for (const tool of tools) {
    if (used + tool.tokens <= budget) {
      kept.push(tool);
      used += tool.tokens;
    } else leftOut.push(tool);
  }
  return { kept, leftOut };
}

/** The reply's tool record, kept as the turn goes, each change sent to the page. */
export class ReplyToolsRecord {
  readonly tools: ReplyTools;
  readonly #emit: (tools: ReplyTools) => void;
  readonly #started = new Map<string, number>();
  readonly #now: () => number;

  constructor(
    budget: number,
    maxSteps: number,
    emit: (tools: ReplyTools) => void,
    now: () => number,
  ) {
    this.tools = { steps: [], leftOut: [], budget, stoppedAtLimit: false, maxSteps };
    this.#emit = emit;
    this.#now = now;
  }

  changed(): void {
    // A copy: the page's event is validated and sent after this returns.
    this.#emit(structuredClone(this.tools));
  }

  leftOut(tools: readonly OfferedTool[]): void {
    this.tools.leftOut = tools.map((t) => ({
      serverName: t.serverName,
      tool: t.tool,
      tokens: t.tokens,
    }));
    if (tools.length > 0) this.changed();
  }

  step(text: string): void {
    this.tools.steps.push({ text, calls: [] });
    this.changed();
  }

  #current(): ToolCallRecord[] {
    if (this.tools.steps.length === 0) this.tools.steps.push({ text: '', calls: [] });
    return this.tools.steps[this.tools.steps.length - 1]!.calls;
  }

  /** Adds the call, or changes it. */
  upsert(call: Omit<ToolCallRecord, 'durationMs'> & { durationMs?: number }): void {
    const calls = this.#current();
    const record: ToolCallRecord = { durationMs: 0, ...call };
    if (record.state === 'running') this.#started.set(record.callId, this.#now());
    const index = calls.findIndex((c) => c.callId === call.callId);
    if (index === -1) calls.push(record);
    else calls[index] = record;
    this.changed();
  }

  /** Calls still waiting or running when the reply was stopped. */
  stopAll(): void {
    let any = false;
    for (const step of this.tools.steps) {
      for (const call of step.calls) {
        if (call.state !== 'waiting' && call.state !== 'running') continue;
        const started = this.#started.get(call.callId);
        call.durationMs = started === undefined ? 0 : Math.max(0, this.#now() - started);
        call.state = call.state === 'waiting' ? 'denied' : 'failed';
        call.result = STOPPED_CALL;
        call.toolError = true;
        delete call.why;
        any = true;
      }
    }
    if (any) this.changed();
  }

  get used(): boolean {
    return this.tools.steps.length > 0 || this.tools.leftOut.length > 0;
  }
}

/**
 * The messages a reply that used tools adds to a later request: each step's calls as the model
 * made them and their results, then its text. Calls without a record (cut before they ran) are
 * left out, so every call sent has its result.
 */
export function toolMessages(tools: ReplyTools, content: string): RelayMessage[] {
  const out: RelayMessage[] = [];
  for (const step of tools.steps) {
    if (step.calls.length === 0) {
      if (step.text !== '') out.push({ role: 'assistant', content: step.text });
      continue;
    }
    out.push({
      role: 'assistant',
      content: step.text === '' ? null : step.text,
      tool_calls: step.calls.map((call) => ({
        id: call.callId,
        type: 'function' as const,
        function: { name: call.functionName, arguments: call.arguments },
      })),
    });
    for (const call of step.calls)
      out.push({ role: 'tool', tool_call_id: call.callId, content: call.result });
  }
  if (content !== '') out.push({ role: 'assistant', content });
  return out;
}

/** Answers awaited by calls, by reply and call. */
export class PendingAnswers {
  readonly #waiting = new Map<string, (answer: ApprovalAnswer) => void>();

  wait(replyId: string, callId: string, signal: AbortSignal): Promise<ApprovalAnswer> {
    const key = `${replyId}\u0000${callId}`;
    return new Promise<ApprovalAnswer>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(key);
        reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(key, (answer) => {
        signal.removeEventListener('abort', onAbort);
        this.#waiting.delete(key);
        resolve(answer);
      });
    });
  }

  answer(replyId: string, callId: string, answer: ApprovalAnswer): boolean {
    const resolve = this.#waiting.get(`${replyId}\u0000${callId}`);
    if (resolve === undefined) return false;
    resolve(answer);
    return true;
  }
}
