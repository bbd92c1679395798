/**
 * The tool calls of replies as main last sent them (`chatReplyTools`): kept after the reply
 * finished, so its cards stay until the conversation is read again (then they come with it).
 */
import { create } from 'zustand';
import type { Answer } from '../../../lib/relay-bridge';

export type ReplyTools = NonNullable<Answer<'getConversation'>['messages'][number]['tools']>;
export type ToolCallRecord = ReplyTools['steps'][number]['calls'][number];

export interface ToolCallsState {
  live: Record<string, ReplyTools>;
  /** When each running call was first seen running (the page's clock), by call id. */
  runningSince: Record<string, number>;
  received(replyId: string, tools: ReplyTools, now: number): void;
}

export const useToolCallsStore = create<ToolCallsState>()((set) => ({
  live: {},
  runningSince: {},
  received: (replyId, tools, now) =>
    set((state) => {
      const runningSince = { ...state.runningSince };
      for (const step of tools.steps)
        for (const call of step.calls)
          if (call.state === 'running') runningSince[call.callId] ??= now - call.durationMs;
          else delete runningSince[call.callId];
      return { live: { ...state.live, [replyId]: tools }, runningSince };
    }),
}));
