/**
 * A page read before a reply ended can reach the page after the reply's end: main answered the
 * read while the reply was still being written, and the end came first. The page must not bring
 * the reply back to "Writing…" for ever: what the end said stands, until the reply is continued.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { useChatStore } from '../../../renderer/src/features/chat/chat-store';
import type { ChatMessage } from '../../../renderer/src/features/chat/chat-types';
import { conversationSummary } from '../../fakes/conversation-summary';

const CONVERSATION = 'c1';
const summary = conversationSummary({ id: CONVERSATION, title: 'Rivers', messageCount: 2 });

const question: ChatMessage = {
  id: 'q1',
  conversationId: CONVERSATION,
  parentId: null,
  seq: 0,
  role: 'user',
  content: 'Where do rivers begin?',
  status: 'complete',
  createdAt: '2026-01-01T00:00:00.000Z',
};
/** The reply as main had it stored when it answered the read: still being written. */
const replyWhileWriting: ChatMessage = {
  id: 'r1',
  conversationId: CONVERSATION,
  parentId: 'q1',
  seq: 1,
  role: 'assistant',
  content: 'In the hi',
  status: 'streaming',
  createdAt: '2026-01-01T00:00:01.000Z',
};
const finished = {
  replyId: 'r1',
  conversationId: CONVERSATION,
  status: 'complete' as const,
  content: 'In the hills, from springs and snow.',
  timing: { durationMs: 120, firstTokenMs: 20 },
};

const chat = () => useChatStore.getState();
const reply = () => chat().messages.find((m) => m.id === 'r1');

beforeEach(() => {
  useChatStore.setState({ streaming: {}, ended: {} });
  chat().conversationClosed();
  chat().conversationOpened(CONVERSATION);
  chat().conversationLoaded(CONVERSATION, [question], summary, false);
});

describe('a reply’s end', () => {
  it('changes its conversation’s row in the list, moved to where it now sorts', () => {
    const older = { ...summary, id: 'c0', title: 'Older', updatedAt: '2026-01-01T00:00:05.000Z' };
    chat().listRefreshed([older, summary], 50);
    const now = { ...summary, updatedAt: '2026-01-01T00:00:09.000Z', messageCount: 4 };
    chat().replyFinished({ ...finished, conversation: now });
    expect(chat().conversations.map((c) => [c.id, c.messageCount])).toEqual([
      ['c1', 4],
      ['c0', 2],
    ]);
  });
});

describe('a page older than the reply it shows', () => {
  it('keeps a reply that ended as it ended when the newest page read before its end arrives', () => {
    chat().replyFinished(finished);
    chat().conversationLoaded(CONVERSATION, [question, replyWhileWriting], summary, false);
    expect(chat().streaming).toEqual({});
    expect(reply()).toMatchObject({ status: 'complete', content: finished.content });
    expect(reply()?.timing).toEqual(finished.timing);
  });

  it('does the same for a version switched to and a page after the last loaded one', () => {
    chat().replyFinished(finished);
    chat().pathSwitched(CONVERSATION, [question, replyWhileWriting], summary, false);
    expect(chat().streaming).toEqual({});
    expect(reply()?.status).toBe('complete');

    chat().conversationClosed();
    chat().conversationOpened(CONVERSATION);
    chat().conversationLoaded(CONVERSATION, [question], summary, false, undefined);
    useChatStore.setState({ hasNewer: true });
    chat().newerLoaded(CONVERSATION, [replyWhileWriting], false);
    expect(chat().streaming).toEqual({});
    expect(reply()?.status).toBe('complete');
  });

  it('shows a reply still being written as streaming, and a continued one streams again', () => {
    chat().conversationLoaded(CONVERSATION, [question, replyWhileWriting], summary, false);
    expect(chat().streaming).toEqual({ r1: true });
    chat().replyFinished({ ...finished, status: 'interrupted' });
    expect(reply()?.status).toBe('interrupted');

    // "Continue": the same reply is written on; the page read then shows it streaming.
    chat().replyResumed('r1');
    chat().conversationLoaded(CONVERSATION, [question, replyWhileWriting], summary, false);
    expect(chat().streaming).toEqual({ r1: true });
  });
});
