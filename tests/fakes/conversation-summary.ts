import type { ConversationSummary } from '../../electron/shared/ipc/routes/chat';

/** A conversation's row as main lists it: empty, on demo-chat, with what a spec gives. */
export function conversationSummary(
  fields: Partial<ConversationSummary> & Pick<ConversationSummary, 'id'>,
): ConversationSummary {
  return {
    title: fields.id,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    pinned: false,
    model: 'demo-chat',
    systemPrompt: '',
    temperature: null,
    maxTokens: null,
    messageCount: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    forkedFrom: null,
    ...fields,
  };
}
