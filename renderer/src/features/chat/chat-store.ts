/**
 * The chat screen's state: the conversation list, the open conversation's messages, search, and
 * what each reply is waiting for. Streaming text lives in `stream-store.ts`.
 */
import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { ChatMessage, ConversationSummary, ReplyFinished, SearchHit } from './chat-types';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';

/** A 429 (or other retryable failure): main tries again at `retryAt`. */
export interface ReplyRetry {
  attempt: number;
  retryAt: number;
  message: string;
}

export interface ChatState {
  listStatus: LoadStatus;
  listFailure?: FailureInfo | undefined;
  conversations: ConversationSummary[];
  activeId?: string | undefined;
  viewStatus: LoadStatus;
  viewFailure?: FailureInfo | undefined;
  messages: ChatMessage[];
  /** Replies still arriving, by id. */
  streaming: Record<string, true>;
  retries: Record<string, ReplyRetry>;
  /** A conversation just deleted, for its undo. */
  deleted?: { id: string; title: string } | undefined;
  searchQuery: string;
  searchHits: SearchHit[];
  searchStatus: LoadStatus;
  /** The message a search hit jumps to, and the words to mark in it. */
  focus?: { messageId: string; terms: string[]; at: number } | undefined;
  /** A failure of a send, export or import, shown above the composer. */
  actionFailure?: FailureInfo | undefined;
  notice?: string | undefined;

  listRequested(): void;
  listLoaded(conversations: ConversationSummary[]): void;
  listFailed(failure: FailureInfo): void;
  conversationOpened(id: string): void;
  conversationLoaded(id: string, messages: ChatMessage[], summary: ConversationSummary): void;
  conversationFailed(id: string, failure: FailureInfo): void;
  conversationClosed(): void;
  conversationUpdated(summary: ConversationSummary): void;
  conversationDeleted(summary: ConversationSummary): void;
  undoDismissed(): void;
  messagesSent(messages: ChatMessage[], replaceFromSeq?: number): void;
  replyFinished(finished: ReplyFinished): void;
  retryScheduled(replyId: string, retry: ReplyRetry): void;
  searchChanged(query: string): void;
  searchLoaded(query: string, hits: SearchHit[]): void;
  searchFailed(query: string): void;
  focusRequested(messageId: string, terms: string[]): void;
  actionFailed(failure: FailureInfo | undefined): void;
  noticeShown(notice: string | undefined): void;
}

/** Pinned first, then by last activity, newest first. */
export function sortConversations(list: ConversationSummary[]): ConversationSummary[] {
  return [...list].sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt.localeCompare(a.updatedAt),
  );
}

export const useChatStore = create<ChatState>()((set) => ({
  listStatus: 'idle',
  conversations: [],
  viewStatus: 'idle',
  messages: [],
  streaming: {},
  retries: {},
  searchQuery: '',
  searchHits: [],
  searchStatus: 'idle',

  listRequested: () =>
    set((state) => (state.listStatus === 'ready' ? {} : { listStatus: 'loading' })),
  listLoaded: (conversations) =>
    set({
      listStatus: 'ready',
      listFailure: undefined,
      conversations: sortConversations(conversations),
    }),
  listFailed: (listFailure) => set({ listStatus: 'failed', listFailure }),
  conversationOpened: (id) =>
    set((state) =>
      state.activeId === id
        ? {}
        : {
            activeId: id,
            viewStatus: 'loading',
            viewFailure: undefined,
            messages: [],
            actionFailure: undefined,
          },
    ),
  conversationLoaded: (id, messages, summary) =>
    set((state) => {
      if (state.activeId !== id) return {};
      const streaming = { ...state.streaming };
      for (const message of messages)
        if (message.status === 'streaming') streaming[message.id] = true;
      return {
        viewStatus: 'ready',
        messages,
        streaming,
        conversations: replaceSummary(state.conversations, summary),
      };
    }),
  conversationFailed: (id, viewFailure) =>
    set((state) => (state.activeId === id ? { viewStatus: 'failed', viewFailure } : {})),
  conversationClosed: () => set({ activeId: undefined, viewStatus: 'idle', messages: [] }),
  conversationUpdated: (summary) =>
    set((state) => ({ conversations: replaceSummary(state.conversations, summary) })),
  conversationDeleted: (summary) =>
    set((state) => ({
      conversations: state.conversations.filter((c) => c.id !== summary.id),
      deleted: { id: summary.id, title: summary.title },
      ...(state.activeId === summary.id
        ? { activeId: undefined, viewStatus: 'idle' as const, messages: [] }
        : {}),
    })),
  undoDismissed: () => set({ deleted: undefined }),
  messagesSent: (added, replaceFromSeq) =>
    set((state) => {
      const kept =
        replaceFromSeq === undefined
          ? state.messages
          : state.messages.filter((m) => m.seq < replaceFromSeq);
      const streaming = { ...state.streaming };
      for (const message of added) if (message.status === 'streaming') streaming[message.id] = true;
      return { messages: [...kept, ...added], streaming, actionFailure: undefined };
    }),
  replyFinished: (finished) =>
    set((state) => {
      const streaming = { ...state.streaming };
      delete streaming[finished.replyId];
      const retries = { ...state.retries };
      delete retries[finished.replyId];
      return {
        streaming,
        retries,
        messages: state.messages.map((m) =>
          m.id === finished.replyId
            ? {
                ...m,
                content: finished.content,
                status: finished.status,
                error: finished.error,
                usage: finished.usage,
              }
            : m,
        ),
      };
    }),
  // Kept even before the reply is known here: a 429 on the first request can arrive before the
  // conversation is fetched again after the send. The countdown shows only while it streams.
  retryScheduled: (replyId, retry) =>
    set((state) => ({ retries: { ...state.retries, [replyId]: retry } })),
  searchChanged: (searchQuery) =>
    set(
      searchQuery.trim() === ''
        ? { searchQuery, searchHits: [], searchStatus: 'idle' }
        : { searchQuery, searchStatus: 'loading' },
    ),
  searchLoaded: (query, searchHits) =>
    set((state) => (state.searchQuery === query ? { searchHits, searchStatus: 'ready' } : {})),
  searchFailed: (query) =>
    set((state) => (state.searchQuery === query ? { searchStatus: 'failed', searchHits: [] } : {})),
  focusRequested: (messageId, terms) => set({ focus: { messageId, terms, at: Date.now() } }),
  actionFailed: (actionFailure) => set({ actionFailure }),
  noticeShown: (notice) => set({ notice }),
}));

function replaceSummary(list: ConversationSummary[], summary: ConversationSummary) {
  const others = list.filter((c) => c.id !== summary.id);
  return sortConversations([...others, summary]);
}
