/**
 * Compared replies finishing: each changes its own column, and nothing else the chat view holds
 * (the message list above the columns is not rendered again, with its rows, for a reply that is
 * not in it).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { useChatStore } from '../../../renderer/src/features/chat/chat-store';
import type { ChatMessage } from '../../../renderer/src/features/chat/chat-types';
import { conversationSummary } from '../../fakes/conversation-summary';

const CONVERSATION = 'c1';
const summary = conversationSummary({ id: CONVERSATION, title: 'Compared' });

function message(id: string, role: 'user' | 'assistant', parentId: string | null): ChatMessage {
  return {
    id,
    conversationId: CONVERSATION,
    parentId,
    seq: 0,
    role,
    content: role === 'user' ? 'Compare these' : '',
    status: role === 'user' ? 'complete' : 'streaming',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

const chat = () => useChatStore.getState();

beforeEach(() => {
  chat().conversationClosed();
  chat().conversationOpened(CONVERSATION);
  chat().conversationLoaded(CONVERSATION, [message('u1', 'user', null)], summary, false, {
    userMessageId: 'u1',
    replies: [message('r1', 'assistant', 'u1'), message('r2', 'assistant', 'u1')],
  });
});

describe('compared replies finishing', () => {
  it('change their own column only, not the message list nor the other column', () => {
    const messages = chat().messages;
    const other = chat().compare!.replies[1];
    chat().replyFinished({
      replyId: 'r1',
      conversationId: CONVERSATION,
      content: 'the first reply',
      status: 'complete',
    });
    expect(chat().compare!.replies[0]).toMatchObject({ content: 'the first reply' });
    expect(chat().compare!.replies[1]).toBe(other);
    expect(chat().messages).toBe(messages);
  });

  it('a reply in the list still changes the list', () => {
    chat().replyFinished({
      replyId: 'u1',
      conversationId: CONVERSATION,
      content: 'changed',
      status: 'complete',
    });
    expect(chat().messages[0]).toMatchObject({ content: 'changed' });
  });
});
