/**
 * The chat screen's state: the conversation list, the open conversation's messages, search, and
 * what each reply is waiting for. Streaming text lives in `stream-store.ts`.
 */
import { create } from 'zustand';
import { FIRST_ITEM_BASE } from './paging';
import type { FailureInfo } from '../../lib/errors';
import type { LoadStatus, PendingRetry } from '../../lib/load-state';
import type { Answer, RelayModel } from '../../lib/relay-bridge';
import type { ChatMessage, ConversationSummary, ReplyFinished, SearchHit } from './chat-types';
import {
  appendPage,
  cursorOf,
  placeConversation,
  refreshFirstPage,
  sortConversations,
  type ConversationCursor,
} from './conversation-pages';
import { appendNewerPage, mergeNewestPage, prependOlderPage } from './paging';

export type ImportRefusal = Answer<'importConversations'>['refused'][number];

/**
 * The id of the new chat: the conversation shown when none is open, made in main only when its
 * first message is sent (`newChatSent`), so that opening the chat or pressing New chat leaves no
 * empty conversation behind. Never sent to main (not a valid id there).
 */
export const NEW_CHAT_ID = 'new-chat';

/** What the new chat starts as: no messages, the app's defaults, the model chosen last. */
function blankChat(model: string | null): ConversationSummary {
  return {
    id: NEW_CHAT_ID,
    title: '',
    createdAt: '',
    updatedAt: '',
    pinned: false,
    model,
    systemPrompt: '',
    temperature: null,
    maxTokens: null,
    messageCount: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    forkedFrom: null,
  };
}

/** The chat models of the connection in use, as the welcome and the model chip show them. */
export type ChatModels =
  | { status: 'loading' }
  | {
      status: 'ready';
      models: RelayModel[];
      /** The model chosen last for chat on this connection, if any. */
      lastModel: string | undefined;
      connection: ModelConnection | undefined;
    }
  | { status: 'failed'; failure: FailureInfo; connection: ModelConnection | undefined };

export interface ModelConnection {
  id: string;
  name: string;
  isDemo: boolean;
}
/** A message sent to several models at once, waiting for the person to choose a reply. */
export type OpenCompare = NonNullable<Answer<'getConversation'>['compare']>;

export interface ChatState {
  listStatus: LoadStatus;
  listFailure?: FailureInfo | undefined;
  /** The conversations loaded so far (the sidebar loads more as it scrolls), in main's order. */
  conversations: ConversationSummary[];
  /** Where the next page goes on from; undefined once every conversation is loaded. */
  listCursor?: ConversationCursor | undefined;
  activeId?: string | undefined;
  viewStatus: LoadStatus;
  viewFailure?: FailureInfo | undefined;
  /**
   * The loaded part of the open conversation's path: its newest messages, and older pages on
   * demand; after a version switched in the middle, the path up to there and the new path a page
   * at a time from there (`hasNewer` until its end is loaded).
   */
  messages: ChatMessage[];
  /** Older messages exist before the first one loaded. */
  hasOlder: boolean;
  olderStatus: LoadStatus;
  olderFailure?: FailureInfo | undefined;
  /** The path goes on after the last message loaded (its end is not loaded). */
  hasNewer: boolean;
  newerStatus: LoadStatus;
  newerFailure?: FailureInfo | undefined;
  /**
   * The list position of the first loaded message, lowered by the count of every page put before
   * it, so that the list keeps the person's place when older messages arrive.
   */
  firstItemIndex: number;
  /** The path ends at a message sent to several models: their replies, side by side. */
  compare?: OpenCompare | undefined;
  /**
   * The path's last message, while the loaded part does not reach it (`hasNewer`) and it is a
   * reply still being written: shown after the loaded messages at once (its text so far and the
   * rest as it streams), until the pages loaded reach it.
   */
  pathEnd?: ChatMessage | undefined;
  /** Replies still arriving, by id. */
  streaming: Record<string, true>;
  /**
   * The latest replies main said had ended, by id: a page main read before a reply's end can
   * arrive after it, and must not show the reply as still being written (see `settled`).
   */
  ended: Record<string, ReplyFinished>;
  retries: Record<string, PendingRetry>;
  searchQuery: string;
  searchHits: SearchHit[];
  searchStatus: LoadStatus;
  /** The message a search hit jumps to, and the words to mark in it. */
  focus?: { messageId: string; terms: string[]; at: number } | undefined;
  /** A failure of an export, an import or a conversation's action, shown above the messages. */
  actionFailure?: FailureInfo | undefined;
  /** Files or zip entries the last import left out, each with the reason. */
  importRefusals: ImportRefusal[];
  /** The conversation list is hidden (the person's choice, kept across starts). */
  listHidden: boolean;
  /**
   * Counts the person's sends (a message, a regenerate, an edit): the message list goes to the
   * newest message at each one, and follows the reply from there.
   */
  followRequests: number;
  /** The composer takes the keyboard focus when it next shows (the app reopened a conversation). */
  composerFocus: boolean;
  /** Chat options: replies stream as they are written (else arrive whole). */
  stream: boolean;
  /** Chat options: Enter sends (Shift+Enter breaks the line), else Ctrl+Enter; kept across starts. */
  enterSends: boolean;
  /** A message for the message box (a suggestion chosen), until the composer takes it. */
  draft?: { text: string } | undefined;
  /** The open conversation's system prompt and sampling fields show above the message box. */
  settingsOpen: boolean;
  /** The new chat, shown while no conversation is open (`NEW_CHAT_ID`). */
  newChat: ConversationSummary;
  /**
   * Which conversation the message box is writing for: the open one's id, or the new chat's
   * (a fresh one at each New chat). It stays the same when the new chat becomes a conversation
   * at its first send, so the files attached and the fields typed are not dropped then.
   */
  composerFor: string;
  /** The chat models of the connection in use (the welcome and the model chip). */
  chatModels: ChatModels;
  /** Counts the asks to take the keyboard to the remedy of the relay's problem (its key field). */
  remedyAsks: number;

  listRequested(): void;
  /** The first page (the list starts again from it), or the next one when `append`. */
  listLoaded(page: ConversationSummary[], options: { append: boolean; pageSize: number }): void;
  /** The first page read again: it replaces what it covers, the rest loaded stays. */
  listRefreshed(first: ConversationSummary[], pageSize: number): void;
  listFailed(failure: FailureInfo): void;
  conversationOpened(id: string): void;
  /** The newest page of the conversation (on open, or again after a send or an edit). */
  conversationLoaded(
    id: string,
    messages: ChatMessage[],
    summary: ConversationSummary,
    hasOlder: boolean,
    compare?: OpenCompare,
  ): void;
  /**
   * The person showed another version of a message: the path from it on as main answered (its
   * first page, and whether it goes on).
   */
  pathSwitched(
    id: string,
    fromVersion: ChatMessage[],
    summary: ConversationSummary,
    hasNewer: boolean,
    compare?: OpenCompare,
    end?: ChatMessage,
  ): void;
  olderRequested(id: string): void;
  olderLoaded(id: string, messages: ChatMessage[], hasOlder: boolean): void;
  olderFailed(id: string, failure: FailureInfo): void;
  newerRequested(id: string): void;
  /** The next page of the path after the last one loaded (and at its end, an open compare). */
  newerLoaded(id: string, messages: ChatMessage[], hasNewer: boolean, compare?: OpenCompare): void;
  newerFailed(id: string, failure: FailureInfo): void;
  conversationFailed(id: string, failure: FailureInfo): void;
  conversationClosed(): void;
  conversationUpdated(summary: ConversationSummary): void;
  conversationDeleted(summary: ConversationSummary): void;
  replyFinished(finished: ReplyFinished): void;
  /** "Continue": an ended reply is written on, under the same id. */
  replyResumed(replyId: string): void;
  retryScheduled(replyId: string, retry: PendingRetry): void;
  searchChanged(query: string): void;
  searchLoaded(query: string, hits: SearchHit[]): void;
  searchFailed(query: string): void;
  focusRequested(messageId: string, terms: string[]): void;
  actionFailed(failure: FailureInfo | undefined): void;
  importRefused(refusals: ImportRefusal[]): void;
  listToggled(hidden?: boolean): void;
  followRequested(): void;
  /** The chat screen was left: what it said for the moment is not shown on the next visit. */
  screenLeft(): void;
  composerFocusRequested(focus: boolean): void;
  streamSet(stream: boolean): void;
  enterSendsSet(enterSends: boolean): void;
  settingsToggled(open?: boolean): void;
  draftRequested(text: string): void;
  draftTaken(): void;
  /** New chat: no conversation open, the new chat shown with its model and nothing else kept. */
  newChatShown(): void;
  /** The model, system prompt or sampling chosen for the new chat. */
  newChatChanged(
    changes: Partial<
      Pick<
        ConversationSummary,
        'model' | 'systemPrompt' | 'temperature' | 'maxTokens' | 'toolServerIds'
      >
    >,
  ): void;
  /** The new chat's first send made it a conversation in main: it is the open one now. */
  newChatSent(summary: ConversationSummary): void;
  chatModelsRequested(): void;
  chatModelsLoaded(models: Extract<ChatModels, { status: 'ready' }>): void;
  chatModelsFailed(failure: FailureInfo, connection: ModelConnection | undefined): void;
  remedyRequested(): void;
}

const EMPTY_VIEW = {
  messages: [] as ChatMessage[],
  hasOlder: false,
  olderStatus: 'idle' as const,
  olderFailure: undefined,
  firstItemIndex: FIRST_ITEM_BASE,
  compare: undefined,
  pathEnd: undefined,
  hasNewer: false,
  newerStatus: 'idle' as const,
  newerFailure: undefined,
};

/** Marks the replies still arriving among `messages` as streaming. */
function withStreaming(streaming: Record<string, true>, messages: readonly ChatMessage[]) {
  const out = { ...streaming };
  for (const message of messages) if (message.status === 'streaming') out[message.id] = true;
  return out;
}

/** What a reply's end changes in it. */
function withEnd(message: ChatMessage, finished: ReplyFinished): ChatMessage {
  return {
    ...message,
    content: finished.content,
    status: finished.status,
    error: finished.error,
    usage: finished.usage,
    timing: finished.timing,
  };
}

/**
 * A page as it stands now: a reply it shows still being written that main has since said ended
 * (the read was answered before the end, and arrived after it) takes what the end said.
 */
function settled<T extends ChatMessage | undefined>(
  ended: Record<string, ReplyFinished>,
  message: T,
): T {
  if (message === undefined || message.status !== 'streaming') return message;
  const finished = ended[message.id];
  return finished === undefined ? message : (withEnd(message, finished) as T);
}

function settledAll(ended: Record<string, ReplyFinished>, messages: ChatMessage[]) {
  return messages.some((m) => m.status === 'streaming' && ended[m.id] !== undefined)
    ? messages.map((m) => settled(ended, m))
    : messages;
}

function settledCompare(ended: Record<string, ReplyFinished>, compare: OpenCompare | undefined) {
  return compare === undefined
    ? undefined
    : { ...compare, replies: settledAll(ended, compare.replies) };
}

/** How many ended replies are remembered: a late page is at most one read behind. */
const ENDED_KEPT = 64;

function withEnded(ended: Record<string, ReplyFinished>, finished: ReplyFinished) {
  const ids = Object.keys(ended).filter((id) => id !== finished.replyId);
  const kept = ids.slice(Math.max(0, ids.length - (ENDED_KEPT - 1)));
  return Object.fromEntries([...kept.map((id) => [id, ended[id]!]), [finished.replyId, finished]]);
}

/** Where the person's chat choices are kept (read as the store is made, so defined before it). */
const LIST_HIDDEN_KEY = 'relay.chat.listHidden';
const ENTER_SENDS_KEY = 'relay.chat.enterSends';

export const useChatStore = create<ChatState>()((set) => ({
  listStatus: 'idle',
  conversations: [],
  viewStatus: 'idle',
  ...EMPTY_VIEW,
  streaming: {},
  ended: {},
  retries: {},
  searchQuery: '',
  searchHits: [],
  searchStatus: 'idle',
  importRefusals: [],
  listHidden: readListHidden(),
  followRequests: 0,
  composerFocus: false,
  stream: true,
  enterSends: readFlag(ENTER_SENDS_KEY) !== false,
  settingsOpen: false,
  newChat: blankChat(null),
  composerFor: NEW_CHAT_ID,
  chatModels: { status: 'loading' },
  remedyAsks: 0,

  listRequested: () =>
    set((state) => (state.listStatus === 'ready' ? {} : { listStatus: 'loading' })),
  listLoaded: (page, { append, pageSize }) =>
    set((state) => {
      const last = page.at(-1);
      return {
        listStatus: 'ready',
        listFailure: undefined,
        conversations: append ? appendPage(state.conversations, page) : sortConversations(page),
        listCursor: page.length >= pageSize && last ? cursorOf(last) : undefined,
      };
    }),
  listRefreshed: (first, pageSize) =>
    set((state) => {
      const last = first.at(-1);
      const complete = first.length < pageSize;
      return {
        listStatus: 'ready',
        listFailure: undefined,
        conversations: refreshFirstPage(state.conversations, first, pageSize),
        // Beyond the first page, paging goes on from where it had got to.
        listCursor: complete
          ? undefined
          : (state.listCursor ?? (last ? cursorOf(last) : undefined)),
      };
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
            ...EMPTY_VIEW,
            actionFailure: undefined,
            composerFor: id,
          },
    ),
  conversationLoaded: (id, loadedPage, summary, pageHasOlder, loadedCompare) =>
    set((state) => {
      if (state.activeId !== id) return {};
      const page = settledAll(state.ended, loadedPage);
      const compare = settledCompare(state.ended, loadedCompare);
      const streaming = withStreaming(state.streaming, [...page, ...(compare?.replies ?? [])]);
      const view =
        state.viewStatus === 'ready'
          ? mergeNewestPage(
              state.messages,
              state.firstItemIndex,
              page,
              pageHasOlder,
              state.hasOlder,
            )
          : {
              messages: page,
              hasOlder: pageHasOlder,
              firstItemIndex: FIRST_ITEM_BASE - page.length,
            };
      return {
        viewStatus: 'ready',
        ...view,
        // The newest page ends at the path's end.
        hasNewer: false,
        newerStatus: 'idle',
        newerFailure: undefined,
        compare,
        pathEnd: undefined,
        streaming,
        conversations: replaceSummary(state.conversations, summary),
      };
    }),
  pathSwitched: (id, switchedPath, summary, hasNewer, switchedCompare, switchedEnd) =>
    set((state) => {
      if (state.activeId !== id || state.viewStatus !== 'ready') return {};
      const fromVersion = settledAll(state.ended, switchedPath);
      const compare = settledCompare(state.ended, switchedCompare);
      const end = settled(state.ended, switchedEnd);
      // A compare at the path's end shows once the end is loaded.
      const shownCompare = hasNewer ? undefined : compare;
      const pathEnd = hasNewer ? end : undefined;
      const streaming = withStreaming(state.streaming, [
        ...fromVersion,
        ...(shownCompare?.replies ?? []),
        ...(pathEnd ? [pathEnd] : []),
      ]);
      const first = fromVersion[0];
      return {
        ...mergeNewestPage(
          state.messages,
          state.firstItemIndex,
          fromVersion,
          first !== undefined && first.parentId !== null,
          state.hasOlder,
        ),
        hasNewer,
        newerStatus: 'idle',
        newerFailure: undefined,
        compare: shownCompare,
        pathEnd,
        streaming,
        conversations: replaceSummary(state.conversations, summary),
      };
    }),
  olderRequested: (id) =>
    set((state) =>
      state.activeId === id ? { olderStatus: 'loading', olderFailure: undefined } : {},
    ),
  olderLoaded: (id, page, hasOlder) =>
    set((state) => {
      if (state.activeId !== id) return {};
      return {
        olderStatus: 'ready',
        hasOlder,
        ...prependOlderPage(state.messages, state.firstItemIndex, page),
      };
    }),
  olderFailed: (id, olderFailure) =>
    set((state) => (state.activeId === id ? { olderStatus: 'failed', olderFailure } : {})),
  newerRequested: (id) =>
    set((state) =>
      state.activeId === id ? { newerStatus: 'loading', newerFailure: undefined } : {},
    ),
  newerLoaded: (id, newerPage, hasNewer, newerCompare) =>
    set((state) => {
      if (state.activeId !== id || !state.hasNewer) return {};
      const page = settledAll(state.ended, newerPage);
      const compare = settledCompare(state.ended, newerCompare);
      const shownCompare = hasNewer ? undefined : compare;
      const messages = appendNewerPage(state.messages, page);
      // The path's end shown ahead of its page: a message of the list once its page is in.
      const reached =
        !hasNewer ||
        (state.pathEnd !== undefined && messages.some((m) => m.id === state.pathEnd!.id));
      return {
        newerStatus: 'ready',
        hasNewer,
        messages,
        ...(reached ? { pathEnd: undefined } : {}),
        compare: shownCompare,
        streaming: withStreaming(state.streaming, [...page, ...(shownCompare?.replies ?? [])]),
      };
    }),
  newerFailed: (id, newerFailure) =>
    set((state) => (state.activeId === id ? { newerStatus: 'failed', newerFailure } : {})),
  conversationFailed: (id, viewFailure) =>
    set((state) => (state.activeId === id ? { viewStatus: 'failed', viewFailure } : {})),
  conversationClosed: () =>
    set({ activeId: undefined, viewStatus: 'idle', ...EMPTY_VIEW, composerFor: NEW_CHAT_ID }),
  conversationUpdated: (summary) =>
    set((state) => ({ conversations: replaceSummary(state.conversations, summary) })),
  conversationDeleted: (summary) =>
    set((state) => ({
      conversations: state.conversations.filter((c) => c.id !== summary.id),
      ...(state.activeId === summary.id
        ? {
            activeId: undefined,
            viewStatus: 'idle' as const,
            ...EMPTY_VIEW,
            composerFor: NEW_CHAT_ID,
          }
        : {}),
    })),
  replyFinished: (finished) =>
    set((state) => {
      const streaming = { ...state.streaming };
      delete streaming[finished.replyId];
      const retries = { ...state.retries };
      delete retries[finished.replyId];
      const update = (m: ChatMessage): ChatMessage =>
        m.id === finished.replyId ? withEnd(m, finished) : m;
      // Only what holds the reply is new: a compared reply is not in the list, and the list
      // (with its rows) is not rendered again for it.
      const listed = state.messages.some((m) => m.id === finished.replyId);
      return {
        streaming,
        retries,
        ended: withEnded(state.ended, finished),
        // The reply's conversation as it stands now: its row only, not the whole list again.
        ...(finished.conversation
          ? { conversations: replaceSummary(state.conversations, finished.conversation) }
          : {}),
        ...(listed ? { messages: state.messages.map(update) } : {}),
        ...(state.pathEnd?.id === finished.replyId ? { pathEnd: update(state.pathEnd) } : {}),
        ...(state.compare
          ? { compare: { ...state.compare, replies: state.compare.replies.map(update) } }
          : {}),
      };
    }),
  replyResumed: (replyId) =>
    set((state) => {
      if (state.ended[replyId] === undefined) return {};
      const ended = { ...state.ended };
      delete ended[replyId];
      return { ended };
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
  importRefused: (importRefusals) => set({ importRefusals }),
  listToggled: (hidden) =>
    set((state) => {
      const listHidden = hidden ?? !state.listHidden;
      writeListHidden(listHidden);
      return { listHidden };
    }),
  followRequested: () => set((state) => ({ followRequests: state.followRequests + 1 })),
  screenLeft: () => set({ actionFailure: undefined, importRefusals: [] }),
  composerFocusRequested: (composerFocus) => set({ composerFocus }),
  streamSet: (stream) => set({ stream }),
  draftRequested: (text) => set({ draft: { text } }),
  draftTaken: () => set({ draft: undefined }),
  settingsToggled: (open) => set((state) => ({ settingsOpen: open ?? !state.settingsOpen })),
  newChatShown: () =>
    set((state) => ({
      activeId: undefined,
      viewStatus: 'idle',
      viewFailure: undefined,
      ...EMPTY_VIEW,
      actionFailure: undefined,
      newChat: blankChat(state.newChat.model),
      composerFor: `${NEW_CHAT_ID}-${Date.now()}`,
    })),
  newChatChanged: (changes) => set((state) => ({ newChat: { ...state.newChat, ...changes } })),
  newChatSent: (summary) =>
    set((state) => ({
      conversations: placeConversation(state.conversations, summary),
      activeId: summary.id,
      viewStatus: 'ready',
      viewFailure: undefined,
      ...EMPTY_VIEW,
      newChat: blankChat(state.newChat.model),
    })),
  chatModelsRequested: () =>
    set((state) =>
      state.chatModels.status === 'failed' ? { chatModels: { status: 'loading' } } : {},
    ),
  chatModelsLoaded: (chatModels) =>
    set((state) => ({
      chatModels,
      // The new chat without a model takes the one chosen last, else the first.
      ...(state.newChat.model === null ||
      !chatModels.models.some((m) => m.id === state.newChat.model)
        ? {
            newChat: {
              ...state.newChat,
              model: chatModels.lastModel ?? chatModels.models[0]?.id ?? null,
            },
          }
        : {}),
    })),
  chatModelsFailed: (failure, connection) =>
    set({ chatModels: { status: 'failed', failure, connection } }),
  remedyRequested: () => set((state) => ({ remedyAsks: state.remedyAsks + 1 })),
  enterSendsSet: (enterSends) => {
    writeFlag(ENTER_SENDS_KEY, enterSends);
    set({ enterSends });
  },
}));

function readListHidden(): boolean {
  return readFlag(LIST_HIDDEN_KEY) === true;
}

function writeListHidden(hidden: boolean): void {
  writeFlag(LIST_HIDDEN_KEY, hidden);
}

/** A choice kept in local storage: true, false, or undefined when never made (or unreadable). */
function readFlag(key: string): boolean | undefined {
  try {
    const value = localStorage.getItem(key);
    return value === null ? undefined : value === 'true';
  } catch {
    return undefined;
  }
}

function writeFlag(key: string, value: boolean): void {
  try {
    localStorage.setItem(key, String(value));
  } catch {
    // Storage refused: the choice lasts until the window closes.
  }
}

/**
 * The list with the summary put in its place; the same list when the summary is the one it holds
 * already (a version switched, a page loaded), so that the sidebar and the chat screen's parts
 * that read the open conversation's summary do not render again for nothing.
 */
function replaceSummary(list: ConversationSummary[], summary: ConversationSummary) {
  const held = list.find((c) => c.id === summary.id);
  if (held && JSON.stringify(held) === JSON.stringify(summary)) return list;
  return placeConversation(list, summary);
}
