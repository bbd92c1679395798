/** What the chat screen asks of main; outcomes go to the stores as events. */
import { watchToolEvents } from './tools/tool-actions';
import { formatList } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { copyText } from '../../lib/clipboard';
import { failureOf } from '../../lib/errors';
import {
  relayBridge,
  requireBridge,
  type Answer,
  type ConnectionSummary,
  type Settings,
} from '../../lib/relay-bridge';
import { recall, remember } from '../../lib/session-memory';
import { showSavedToast, showToast } from '../../lib/toasts';
import { selectConnection } from '../connect/connect-actions';
import { NEW_CHAT_ID, useChatStore, type ModelConnection } from './chat-store';
import { CONVERSATION_PAGE } from './conversation-pages';
import { draftKnowledgeFor, useDraftKnowledge } from './knowledge/draft-knowledge';
import { useModelChoiceStore } from './model-choice-store';
import {
  discardStreamDeltas,
  flushStreamDeltas,
  streamDeltasReceived,
  useStreamStore,
} from './stream-store';

const chat = () => useChatStore.getState();

/**
 * Runs `work`; if it fails, the failure is shown on the chat screen. Resolves to what `work`
 * gave, or undefined after a failure.
 */
async function reportFailure<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    chat().actionFailed(failureOf(error));
    return undefined;
  }
}

/**
 * Messages fetched at a time: a conversation opens with its newest page, older pages come as the
 * person scrolls up. About two screens of rows, so that opening costs the same at any length.
 */
export const PAGE_SIZE = 50;

/** The first page of the conversation list; the rest comes as the sidebar scrolls. */
export async function loadConversations(): Promise<void> {
  chat().listRequested();
  try {
    const first = await requireBridge().listConversations({ limit: CONVERSATION_PAGE });
    chat().listLoaded(first, { append: false, pageSize: CONVERSATION_PAGE });
  } catch (error) {
    chat().listFailed(failureOf(error));
  }
}

let moreLoading: Promise<void> | undefined;

/** The next page of the list (the sidebar scrolled near its end); one request at a time. */
export function loadMoreConversations(): Promise<void> {
  moreLoading ??= (async () => {
    const after = chat().listCursor;
    if (!after) return;
    try {
      const page = await requireBridge().listConversations({ limit: CONVERSATION_PAGE, after });
      // Unless the list started again meanwhile.
      if (chat().listCursor === after)
        chat().listLoaded(page, { append: true, pageSize: CONVERSATION_PAGE });
    } catch (error) {
      chat().listFailed(failureOf(error));
    }
  })().finally(() => {
    moreLoading = undefined;
  });
  return moreLoading;
}

/** Every conversation not loaded yet (to select them all). */
export async function loadAllConversations(): Promise<void> {
  while (chat().listCursor) {
    const before = chat().listCursor;
    await loadMoreConversations();
    if (chat().listCursor === before || chat().listStatus === 'failed') return;
  }
}

/** Something changed in main: the first page again, keeping what was loaded beyond it. */
export async function refreshConversations(): Promise<void> {
  try {
    const first = await requireBridge().listConversations({ limit: CONVERSATION_PAGE });
    chat().listRefreshed(first, CONVERSATION_PAGE);
  } catch (error) {
    chat().listFailed(failureOf(error));
  }
}

/** The conversation open when the app closed: the chat opens it again at the next start. */
const OPEN_KEY = 'relay.chat.open';

/**
 * At start (the chat screen shown, nothing open yet): opens the conversation that was open when
 * the app closed, at the same time as the list loads, with the composer focused to type in. One
 * deleted since is forgotten quietly.
 */
export async function reopenLastConversation(): Promise<void> {
  const id = recall(OPEN_KEY);
  if (chat().activeId !== undefined) return;
  chat().composerFocusRequested(true);
  // Nothing to reopen: the new chat, its message box focused.
  if (id === undefined) return;
  await openConversation(id);
  const state = chat();
  if (state.activeId === id && state.viewStatus === 'failed') {
    chat().conversationClosed();
    chat().composerFocusRequested(false);
    remember(OPEN_KEY, undefined);
  }
}

/**
 * Opens a conversation at the newest page of its shown path (stretched back to `fromId`, a search
 * hit, if given). Opening the one already open fetches its newest page again and keeps the older
 * ones loaded.
 */
export async function openConversation(id: string, fromId?: string): Promise<void> {
  chat().conversationOpened(id);
  remember(OPEN_KEY, id);
  try {
    const detail = await requireBridge().getConversation({
      id,
      limit: PAGE_SIZE,
      ...(fromId === undefined ? {} : { fromId }),
    });
    adoptStreams([...detail.messages, ...(detail.compare?.replies ?? [])]);
    chat().conversationLoaded(
      id,
      detail.messages,
      detail.conversation,
      detail.hasOlder,
      detail.compare,
    );
  } catch (error) {
    chat().conversationFailed(id, failureOf(error));
  }
}

/** The newest page of the open conversation again: after a send, an edit or a regenerate. */
async function refreshActive(): Promise<void> {
  const id = chat().activeId;
  if (!id) return;
  await reportFailure(async () => {
    const detail = await requireBridge().getConversation({ id, limit: PAGE_SIZE });
    chat().conversationLoaded(
      id,
      detail.messages,
      detail.conversation,
      detail.hasOlder,
      detail.compare,
    );
  });
}

let olderLoading: Promise<void> | undefined;

/**
 * Loads the page before the first loaded message of the open conversation (the person scrolled
 * to the top), or every message back to `fromId`. One request at a time.
 */
export async function loadOlder(fromId?: string): Promise<void> {
  while (olderLoading) await olderLoading;
  const state = chat();
  const id = state.activeId;
  const first = state.messages[0];
  if (!id || !first || !state.hasOlder || state.viewStatus !== 'ready') return;
  if (fromId !== undefined && state.messages.some((m) => m.id === fromId)) return;
  olderLoading = (async () => {
    chat().olderRequested(id);
    try {
      const page = await requireBridge().getConversation({
        id,
        limit: PAGE_SIZE,
        beforeId: first.id,
        ...(fromId === undefined ? {} : { fromId }),
      });
      chat().olderLoaded(id, page.messages, page.hasOlder);
    } catch (error) {
      chat().olderFailed(id, failureOf(error));
    }
  })();
  try {
    await olderLoading;
  } finally {
    olderLoading = undefined;
  }
}

/**
 * New chat (the button, Ctrl+N): the new chat, its message box focused. Nothing is made in main
 * until its first message is sent, and an open conversation that is still empty is kept instead
 * of leaving it behind, so pressing New chat again and again adds no empty conversations.
 */
export function showNewChat(): void {
  const state = chat();
  const open = state.conversations.find((c) => c.id === state.activeId);
  const openIsEmpty =
    open !== undefined &&
    state.viewStatus === 'ready' &&
    open.messageCount === 0 &&
    state.messages.length === 0 &&
    !state.compare;
  if (!openIsEmpty) {
    chat().newChatShown();
    remember(OPEN_KEY, undefined);
  }
  chat().composerFocusRequested(true);
}

/**
 * The new chat becomes a conversation in main, with the model, system prompt and sampling chosen
 * for it, and is the open one from then on. Resolves to its id (undefined when refused).
 */
async function createFromNewChat(): Promise<string | undefined> {
  const draft = chat().newChat;
  return reportFailure(async () => {
    const bridge = requireBridge();
    let created = await bridge.createConversation({
      ...(draft.model ? { model: draft.model } : {}),
      ...(draft.systemPrompt ? { systemPrompt: draft.systemPrompt } : {}),
    });
    // The sampling and the tool servers chosen before it existed, kept before its first send.
    const toolServerIds = draft.toolServerIds ?? [];
    if (draft.temperature !== null || draft.maxTokens !== null || toolServerIds.length > 0)
      created = await bridge.updateConversationSettings({
        id: created.id,
        temperature: draft.temperature,
        maxTokens: draft.maxTokens,
        ...(toolServerIds.length > 0 ? { toolServerIds: [...toolServerIds] } : {}),
      });
    const kbIds = draftKnowledgeFor(useDraftKnowledge.getState(), chat().composerFor);
    chat().newChatSent(created);
    remember(OPEN_KEY, created.id);
    // The knowledge bases chosen before it existed, linked before its first message is sent.
    if (kbIds.length > 0)
      await bridge.setConversationKnowledge({ conversationId: created.id, kbIds: [...kbIds] });
    return created.id;
  });
}

/** A send puts the conversation's model first among the picker's recent models. */
function rememberModelUsed(conversationId: string): void {
  const model = chat().conversations.find((c) => c.id === conversationId)?.model;
  const connectionId = activeConnectionId();
  if (model && connectionId) useModelChoiceStore.getState().modelUsed({ connectionId, model });
}

/** The conversation to send to: the one given, or the new chat made a conversation now. */
function conversationToSend(conversationId: string): Promise<string | undefined> {
  return conversationId === NEW_CHAT_ID ? createFromNewChat() : Promise.resolve(conversationId);
}

let modelsRequest = 0;

/**
 * The chat models of the connection in use, for the welcome and the model chip (main keeps the
 * list, so asking again is cheap). No chat model at all is a failure the welcome explains.
 */
export async function loadChatModels(): Promise<void> {
  const request = ++modelsRequest;
  chat().chatModelsRequested();
  const bridge = requireBridge();
  const active = await bridge.listConnections().then(
    (list) => list.find((c) => c.active),
    () => undefined,
  );
  const connection: ModelConnection | undefined = active && {
    id: active.id,
    name: active.name,
    isDemo: active.isDemo,
  };
  try {
    const list = await bridge.listModels();
    const models = list.models.filter((m) => m.kind === 'chat');
    if (models.length === 0)
      throw Object.assign(new Error(t('chat.welcome.noChatModel')), { kind: 'not_found' });
    if (request === modelsRequest)
      chat().chatModelsLoaded({
        status: 'ready',
        models,
        lastModel: list.lastModel.chat,
        connection,
      });
  } catch (error) {
    if (request === modelsRequest) chat().chatModelsFailed(failureOf(error), connection);
  }
}

/** The model chosen in the chip: the conversation's (or the new chat's), and the last one used. */
export async function chooseChatModel(conversationId: string, modelId: string): Promise<void> {
  if (!(await saveConversationSettings({ id: conversationId, model: modelId }))) return;
  await requireBridge()
    .setLastModel({ feature: 'chat', modelId })
    .catch(() => undefined);
}

/** The connection in use, as the chat's models were last listed from it. */
function activeConnectionId(): string | undefined {
  const models = chat().chatModels;
  return models.status === 'loading' ? undefined : models.connection?.id;
}

/**
 * The chat models of every other saved connection, for the model picker: listed as it opens
 * (main keeps each list), each connection on its own, so one that cannot be reached holds up
 * none of the others.
 */
export async function loadOtherChatModels(): Promise<void> {
  const bridge = requireBridge();
  const connections = await bridge.listConnections().catch(() => []);
  const others = connections
    .filter((c) => !c.active)
    .map((c) => ({ id: c.id, name: c.name, isDemo: c.isDemo }));
  const choice = useModelChoiceStore.getState();
  choice.othersRequested(others);
  await Promise.all(
    others.map(async (connection) => {
      try {
        const list = await bridge.listModels({ connectionId: connection.id });
        choice.othersLoaded(
          connection.id,
          list.models.filter((m) => m.kind === 'chat'),
        );
      } catch (error) {
        choice.othersFailed(connection.id, failureOf(error));
      }
    }),
  );
}

/**
 * A model chosen in the picker. One of another connection makes that connection the one in use
 * (the chat asks the connection in use), and the models are listed again from it.
 */
export async function chooseModelOn(
  conversationId: string,
  connectionId: string,
  modelId: string,
): Promise<void> {
  if (connectionId !== activeConnectionId()) {
    const switched = await reportFailure(async () => {
      await selectConnection(connectionId);
      return true;
    });
    if (!switched) return;
    await loadChatModels();
    void loadOtherChatModels();
  }
  await chooseChatModel(conversationId, modelId);
  useModelChoiceStore.getState().modelUsed({ connectionId, model: modelId });
}

/**
 * A conversation without a model gets the one chosen last (or the first chat model) as soon as
 * the list is known.
 */
export async function giveModelIfNone(conversation: { id: string; model: string | null }) {
  const models = chat().chatModels;
  if (conversation.model || conversation.id === NEW_CHAT_ID || models.status !== 'ready') return;
  const preferred = models.lastModel ?? models.models[0]?.id;
  if (preferred) await saveConversationSettings({ id: conversation.id, model: preferred });
}

/** Puts the right key on the connection in use after a 401, then lists its models again. */
export async function replaceActiveKey(apiKey: string): Promise<void> {
  const bridge = requireBridge();
  const active = (await bridge.listConnections()).find((c) => c.active);
  if (!active) throw new Error(t('chat.noConnection'));
  await bridge.updateConnection({ id: active.id, changes: { apiKey } });
  await loadChatModels();
}

/** "Try the demo relay" from the chat: it becomes the connection in use, and its models load. */
export async function tryDemoRelay(): Promise<void> {
  try {
    await requireBridge().startDemoRelay();
    await loadChatModels();
  } catch (error) {
    const models = chat().chatModels;
    chat().chatModelsFailed(
      failureOf(error),
      models.status === 'loading' ? undefined : models.connection,
    );
  }
}

export async function renameConversation(id: string, title: string): Promise<void> {
  chat().conversationUpdated(await requireBridge().renameConversation({ id, title }));
}

export async function pinConversation(id: string, pinned: boolean): Promise<void> {
  await reportFailure(async () =>
    chat().conversationUpdated(await requireBridge().setConversationPinned({ id, pinned })),
  );
}

/**
 * Deletes a conversation and offers Undo in a notice for a few seconds (main keeps it until the
 * app next starts, so Undo works while the notice shows). Resolves to whether it was deleted.
 */
export async function deleteConversation(id: string): Promise<boolean> {
  const summary = chat().conversations.find((c) => c.id === id);
  const deleted = await reportFailure(async () => {
    await requireBridge().deleteConversation({ id });
    if (summary) chat().conversationDeleted(summary);
    return true;
  });
  if (deleted && summary)
    showToast(t('chat.list.deleted', { title: summary.title }), {
      tone: 'info',
      action: { label: t('chat.list.undo'), run: () => void undoDelete(id) },
    });
  return deleted ?? false;
}

export async function undoDelete(id: string): Promise<void> {
  await reportFailure(async () => {
    chat().conversationUpdated(await requireBridge().restoreConversation({ id }));
  });
}

export type ConversationSettings = Parameters<
  ReturnType<typeof requireBridge>['updateConversationSettings']
>[0];

export async function saveConversationSettings(settings: ConversationSettings): Promise<boolean> {
  if (settings.id === NEW_CHAT_ID) {
    const { model, systemPrompt, temperature, maxTokens } = settings;
    chat().newChatChanged({
      ...(model === undefined ? {} : { model }),
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(maxTokens === undefined ? {} : { maxTokens }),
    });
    return true;
  }
  const saved = await reportFailure(async () => {
    chat().conversationUpdated(await requireBridge().updateConversationSettings(settings));
    return true;
  });
  return saved ?? false;
}

type Sent = { replyId: string };

/**
 * Waits for main to take a send, then shows the conversation again with the reply streaming in.
 * The message list goes to the newest message and follows the reply from there.
 */
async function afterSend(sending: () => Promise<Sent>): Promise<boolean> {
  chat().followRequested();
  const sent = await reportFailure(async () => {
    const { replyId } = await sending();
    if (!(replyId in useStreamStore.getState().texts))
      useStreamStore.getState().streamStarted(replyId);
    await refreshActive();
    return true;
  });
  return sent ?? false;
}

/** Whether a reply is still being written in the open conversation (sending waits for it). */
export function isReplying(): boolean {
  return Object.keys(chat().streaming).length > 0;
}

/** Sends a message; the new chat's first one makes it a conversation first. */
export async function sendMessage(
  to: string,
  text: string,
  stream: boolean,
  attachmentIds: readonly string[] = [],
): Promise<boolean> {
  const conversationId = await conversationToSend(to);
  if (conversationId === undefined) return false;
  rememberModelUsed(conversationId);
  return afterSend(() =>
    requireBridge().sendMessage({
      conversationId,
      text,
      ...(attachmentIds.length > 0 ? { attachmentIds: [...attachmentIds] } : {}),
      options: { stream },
    }),
  );
}

/** A new version of the path's last reply, or of `replyId` ("Ask again" under its sources). */
export function regenerateReply(
  conversationId: string,
  stream = true,
  replyId?: string,
): Promise<boolean> {
  return afterSend(() =>
    requireBridge().regenerateReply({
      conversationId,
      ...(replyId === undefined ? {} : { replyId }),
      options: { stream },
    }),
  );
}

/**
 * "Continue" under a stopped reply: the relay's rest is added to the same reply, which streams
 * again from the text it has (shown at once, so nothing flickers while main starts).
 */
export async function continueReply(
  replyId: string,
  text: string,
  stream = true,
): Promise<boolean> {
  const streams = useStreamStore.getState();
  chat().replyResumed(replyId);
  streams.streamStarted(replyId, text);
  const continued = await afterSend(() =>
    requireBridge().continueReply({ replyId, options: { stream } }),
  );
  if (!continued) streams.streamEnded(replyId);
  return continued;
}

export function editAndResend(messageId: string, text: string, stream = true): Promise<boolean> {
  return afterSend(() => requireBridge().editMessage({ messageId, text, options: { stream } }));
}

/** Puts a message on the clipboard, and says so. */
export async function copyMessage(text: string): Promise<void> {
  try {
    await copyText(text);
    showToast(t('chat.toast.copied'));
  } catch (error) {
    showToast(t('chat.toast.notCopied', { message: failureOf(error).message }), { tone: 'error' });
  }
}

/**
 * Replies already streaming before we looked: their text starts from what main has stored. One
 * that main said has ended since it answered the read is not.
 */
function adoptStreams(messages: readonly { id: string; status: string; content: string }[]) {
  const streams = useStreamStore.getState();
  const { ended } = chat();
  for (const message of messages)
    if (
      message.status === 'streaming' &&
      streams.texts[message.id] === undefined &&
      ended[message.id] === undefined
    )
      streams.streamStarted(message.id, message.content);
}

/**
 * Shows another version of a message (the ‹ 2 / 3 › switcher): main moves the path onto it and on
 * to the most recent last message under it, and answers the first page of the path from it on.
 * The messages held up to it stay; the rest of the new path comes a page at a time as the person
 * scrolls down (`loadNewer`), so that a switch costs the same at any length.
 */
export async function showVersion(messageId: string): Promise<void> {
  const id = chat().activeId;
  if (!id) return;
  await reportFailure(async () => {
    const shown = await requireBridge().showVersion({ messageId, limit: PAGE_SIZE });
    adoptStreams([
      ...shown.messages,
      ...(shown.hasNewer ? [] : (shown.compare?.replies ?? [])),
      ...(shown.end ? [shown.end] : []),
    ]);
    chat().pathSwitched(
      id,
      shown.messages,
      shown.conversation,
      shown.hasNewer,
      shown.compare,
      shown.end,
    );
  });
}

let newerLoading: Promise<void> | undefined;

/**
 * Loads the page after the last loaded message of the open conversation (the list reached its end
 * while the path goes on, after a version switched in the middle). One request at a time.
 */
export async function loadNewer(): Promise<void> {
  while (newerLoading) await newerLoading;
  const state = chat();
  const id = state.activeId;
  const last = state.messages.at(-1);
  if (!id || !last || !state.hasNewer || state.viewStatus !== 'ready') return;
  newerLoading = (async () => {
    chat().newerRequested(id);
    try {
      const page = await requireBridge().getConversation({
        id,
        limit: PAGE_SIZE,
        afterId: last.id,
      });
      adoptStreams([...page.messages, ...(page.hasNewer ? [] : (page.compare?.replies ?? []))]);
      chat().newerLoaded(id, page.messages, page.hasNewer, page.compare);
    } catch (error) {
      chat().newerFailed(id, failureOf(error));
    }
  })();
  try {
    await newerLoading;
  } finally {
    newerLoading = undefined;
  }
}

/**
 * "Jump to latest" while the path's end is not loaded (after a switch in the middle): the newest
 * page instead of every page in between, and the list follows from there.
 */
export async function showLatest(): Promise<void> {
  chat().followRequested();
  if (chat().hasNewer) await refreshActive();
}

/**
 * "Branch from here": a new conversation with a copy of the path up to the message, opened at
 * once; the one it came from is left as it is.
 */
export async function branchFromHere(messageId: string): Promise<string | undefined> {
  return reportFailure(async () => {
    const created = await requireBridge().forkConversation({ messageId });
    chat().conversationUpdated(created);
    showToast(t('chat.toast.branched', { title: created.title }));
    await openConversation(created.id);
    return created.id;
  });
}

export type CompareTarget = Parameters<
  ReturnType<typeof requireBridge>['compareMessage']
>[0]['targets'][number];

/**
 * Sends one message to several models (or temperatures) at once; their replies stream side by
 * side until the person continues with one.
 */
export async function compareModels(
  to: string,
  text: string,
  targets: CompareTarget[],
  attachmentIds: string[] = [],
): Promise<boolean> {
  const conversationId = await conversationToSend(to);
  if (conversationId === undefined) return false;
  const sent = await reportFailure(async () => {
    const { replyIds } = await requireBridge().compareMessage({
      conversationId,
      text,
      targets,
      ...(attachmentIds.length > 0 ? { attachmentIds } : {}),
      options: { stream: true },
    });
    for (const replyId of replyIds)
      if (!(replyId in useStreamStore.getState().texts))
        useStreamStore.getState().streamStarted(replyId);
    await refreshActive();
    return true;
  });
  return sent ?? false;
}

/** What "Compare…" offers: the chat models, and the temperature a column left empty is asked at. */
export async function compareChoices(): Promise<{ models: string[]; defaultTemperature: number }> {
  const bridge = requireBridge();
  const [list, settings] = await Promise.all([bridge.listModels(), bridge.getSettings()]);
  return {
    models: list.models.filter((m) => m.kind === 'chat').map((m) => m.id),
    defaultTemperature: settings.chatDefaults.temperature,
  };
}

/** "Continue with this one": the reply becomes the path; the others stay as its versions. */
export async function continueWith(replyId: string): Promise<void> {
  await reportFailure(async () => {
    await requireBridge().continueWith({ replyId });
    await refreshActive();
  });
}

export async function stopReply(replyId: string): Promise<void> {
  await reportFailure(() => requireBridge().stopReply({ replyId }));
}

/** Stops every reply of the open conversation that is still arriving (Esc). */
export function stopStreaming(): void {
  for (const id of Object.keys(chat().streaming)) void stopReply(id);
}

let latestSearch = 0;

export async function searchMessages(query: string): Promise<void> {
  const request = ++latestSearch;
  chat().searchChanged(query);
  if (query.trim() === '') return;
  try {
    const hits = await requireBridge().searchMessages({ query, limit: 50 });
    if (request === latestSearch) chat().searchLoaded(query, hits);
  } catch {
    if (request === latestSearch) chat().searchFailed(query);
  }
}

/**
 * Opens the hit's conversation and scrolls to its message, marking the words found. A hit on
 * another branch shows that branch first; a hit older than what is loaded brings in every
 * message back to it.
 */
export async function jumpToHit(
  hit: { conversationId: string; messageId: string },
  terms: string[],
) {
  // Asked for first, so that the conversation opens at the message.
  chat().focusRequested(hit.messageId, terms);
  const loaded = chat().activeId === hit.conversationId;
  if (loaded && chat().messages.some((m) => m.id === hit.messageId)) return;
  const shown = await reportFailure(() =>
    requireBridge().showVersion({ messageId: hit.messageId, limit: 1 }),
  );
  if (shown === undefined) return;
  // The hit is older than what is loaded of the same path: the pages back to it are added.
  const onLoadedPath =
    loaded && !chat().hasNewer && shown.leafId === chat().messages.at(-1)?.id && chat().hasOlder;
  if (onLoadedPath) await loadOlder(hit.messageId);
  else {
    chat().conversationClosed();
    await openConversation(hit.conversationId, hit.messageId);
  }
}

/**
 * Exports to a file main asks where to save: Markdown, JSON, or a zip that carries the files sent
 * with the messages. A lone JSON file leaves those files out, and the note names them.
 */
export async function exportConversations(ids: string[], format: 'markdown' | 'json' | 'zip') {
  const result = await reportFailure(() => requireBridge().exportConversations({ ids, format }));
  if (!result?.saved) return;
  const saved =
    result.path === undefined
      ? t('chat.toast.exportedChosen', { count: result.count })
      : t('chat.toast.exported', { count: result.count, path: result.path });
  const left = result.filesLeftOut ?? [];
  showSavedToast(
    left.length === 0
      ? saved
      : `${saved} ${t('chat.toast.filesLeftOut', { names: formatList(left) })}`,
    result.savedId,
  );
}

/**
 * Imports JSON exports or zips of them. What was imported is said; what was left out is listed,
 * each with its reason; nothing importable at all is an error with every reason.
 */
export async function importConversations(): Promise<void> {
  try {
    const result = await requireBridge().importConversations();
    if (result.cancelled) return;
    chat().importRefused(result.refused);
    await loadConversations();
    const count = result.conversationIds.length;
    showToast(
      result.refused.length > 0
        ? `${t('chat.toast.imported', { count })} ${t('chat.toast.importRefused', { count: result.refused.length })}`
        : t('chat.toast.imported', { count }),
    );
    const first = result.conversationIds[0];
    if (first) await openConversation(first);
  } catch (error) {
    chat().importRefused([]);
    chat().actionFailed(failureOf(error));
  }
}

/** Puts a new key on the active connection after a 401, then asks for the reply again. */
export async function replaceKeyAndRegenerate(conversationId: string, apiKey: string) {
  const bridge = requireBridge();
  const active = (await bridge.listConnections()).find((c) => c.active);
  if (!active) throw new Error(t('chat.noConnection'));
  await bridge.updateConnection({ id: active.id, changes: { apiKey } });
  await regenerateReply(conversationId);
}

/** Main's chat events, into the stores; returns the unsubscribe. */
export function watchChatEvents(): () => void {
  const bridge = requireBridge();
  const off = [
    bridge.onChatDelta(({ deltas }) => streamDeltasReceived(deltas)),
    bridge.onChatReplyFinished((finished) => {
      flushStreamDeltas();
      discardStreamDeltas(finished.replyId);
      chat().replyFinished(finished);
      useStreamStore.getState().streamEnded(finished.replyId);
    }),
    watchToolEvents(),
    bridge.onConversationsChanged(() => void refreshConversations()),
    bridge.onRetryScheduled(({ requestId, attempt, delayMs, message }) =>
      chat().retryScheduled(requestId, { attempt, retryAt: Date.now() + delayMs, message }),
    ),
  ];
  return () => {
    for (const unsubscribe of off) unsubscribe();
  };
}

/*
 * Reads for the chat's components that main answers outside the stores. Each is undefined
 * outside the app (a plain browser, a component test), where there is nothing to read.
 */

/** The settings the composer starts from (the chat defaults, the attachments' budget). */
export function readComposerSettings(): Promise<Settings> | undefined {
  return relayBridge()?.getSettings();
}

/** The saved connections, for a failure that names the active one. */
export function readConnections(): Promise<ConnectionSummary[]> | undefined {
  return relayBridge()?.listConnections();
}

/** The snippets the `/` list offers. */
export function readSnippets(): Promise<Answer<'listPrompts'>> | undefined {
  return relayBridge()?.listPrompts({ kind: 'snippet' });
}

/** The saved prompt a conversation was started from, if any. */
export function readConversationPrompt(
  conversationId: string,
): Promise<Answer<'getConversationPrompt'>> | undefined {
  return relayBridge()?.getConversationPrompt({ conversationId });
}

/** Calls `changed` after each change of the prompt library; returns the unsubscribe. */
export function watchPrompts(changed: () => void): (() => void) | undefined {
  return relayBridge()?.onPromptsChanged(changed);
}
