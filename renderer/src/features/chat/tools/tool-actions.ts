/** What the chat's tools (the header's chip, the approval card) ask of main. */
import { relayBridge, requireBridge, type Answer } from '../../../lib/relay-bridge';
import { runAction } from '../../../lib/run-action';
import { NEW_CHAT_ID, useChatStore } from '../chat-store';
import { flushStreamDeltas, useStreamStore } from '../stream-store';
import { useToolCallsStore } from './tool-calls-store';

export type McpServer = Answer<'listMcpServers'>[number];
export type ToolAnswer = 'once' | 'conversation' | 'always' | 'deny';

/** The person's answer to a call that waits for it. */
export function answerToolCall(replyId: string, callId: string, answer: ToolAnswer) {
  return runAction(() => requireBridge().answerToolCall({ replyId, callId, answer }));
}

/** The MCP servers, to choose from. */
export function readMcpServers() {
  return runAction(() => requireBridge().listMcpServers());
}

/**
 * The servers whose tools the conversation may use (the composer's `/` list and resource panel
 * follow the conversation as the store has it). The new chat keeps them until its first send
 * makes it a conversation, which is then saved with them (`createFromNewChat`).
 */
export function setConversationTools(conversationId: string, toolServerIds: string[]) {
  if (conversationId === NEW_CHAT_ID)
    return runAction(() => {
      useChatStore.getState().newChatChanged({ toolServerIds });
      return useChatStore.getState().newChat;
    });
  return runAction(async () => {
    const updated = await requireBridge().updateConversationSettings({
      id: conversationId,
      toolServerIds,
    });
    useChatStore.getState().conversationUpdated(updated);
    return updated;
  });
}

/** Calls `changed` when servers are added, removed or change; returns the unsubscribe. */
export function watchMcpServers(changed: () => void): (() => void) | undefined {
  const bridge = relayBridge();
  if (!bridge) return undefined;
  const off = [bridge.onMcpServersChanged(changed), bridge.onMcpServerChanged(changed)];
  return () => off.forEach((unsubscribe) => unsubscribe());
}

/**
 * Main's tool events into the store. A new step means the text streamed so far belonged to the
 * model's reply that made the calls (shown above them): the reply's text starts again.
 */
export function watchToolEvents(): () => void {
  return requireBridge().onChatReplyTools(({ replyId, tools }) => {
    const before = useToolCallsStore.getState().live[replyId]?.steps.length ?? 0;
    if (tools.steps.length > before) {
      flushStreamDeltas();
      if (replyId in useStreamStore.getState().texts)
        useStreamStore.getState().streamStarted(replyId, '');
    }
    useToolCallsStore.getState().received(replyId, tools, Date.now());
  });
}
