import type { CHAT_ROUTES } from '../../../shared/ipc/routes/chat';
import type { AppContext } from '../../app-context';
import { found } from '../../services/chat/conversations';
import type { Chat } from '../../services/chat';
import type { Handlers } from '../router';
import { saved } from './saved-files';

/** The handlers of the chat routes: a line or two each, over the chat services. */
export function chatHandlers(
  { store, drafts, replies, conversations, outgoing }: Chat,
  shell: Pick<AppContext, 'grants' | 'savedFiles'>,
): Handlers<typeof CHAT_ROUTES> {
  return {
    listConversations: (page) => store.list(page ?? {}),
    createConversation: (draft) => store.create(draft ?? {}),
    renameConversation: ({ id, title }) => found(store.update(id, { title })),
    setConversationPinned: ({ id, pinned }) => found(store.update(id, { pinned })),
    deleteConversation: ({ id }) => conversations.delete(id),
    restoreConversation: ({ id }) => found(store.restore(id)),
    getConversation: (request) => conversations.page(request),
    showVersion: ({ messageId, limit }) => conversations.showVersion(messageId, limit),
    forkConversation: ({ messageId }) => replies.fork(messageId).conversation,
    updateConversationSettings: ({ id, ...changes }) => found(store.update(id, changes)),
    sendMessage: ({ conversationId, text, attachmentIds = [], options }) =>
      outgoing.send(conversationId, text, attachmentIds, options),
    attachFiles: () => outgoing.attachChosen(),
    attachDropped: ({ grants }, sender) =>
      drafts.attachPaths(
        shell.grants.take(grants, { webContentsId: sender.webContentsId, purpose: 'attach' }),
      ),
    attachBytes: ({ name, base64 }) =>
      drafts.attachBytes(name, new Uint8Array(Buffer.from(base64, 'base64'))),
    discardAttachments: ({ ids }) => (drafts.discard(ids), null),
    attachMcpResource: ({ serverId, uri }) => outgoing.attachMcpResource(serverId, uri),
    attachmentThumbnail: ({ id }) => conversations.thumbnail(id),
    openAttachment: ({ id }) => conversations.openAttachment(id),
    saveAttachment: async ({ id }) => saved(shell, await conversations.saveAttachment(id)),
    answerToolCall: ({ replyId, callId, answer }) =>
      replies.answerToolCall(replyId, callId, answer),
    stopReply: ({ replyId }) => ({ stopped: replies.stop(replyId) }),
    regenerateReply: ({ conversationId, replyId, options }) =>
      replies.regenerate(conversationId, { ...options, replyId }),
    continueReply: ({ replyId, options }) => replies.continueReply(replyId, options),
    compareMessage: ({ conversationId, text, targets, attachmentIds = [], options }) =>
      outgoing.compare(conversationId, text, targets, attachmentIds, options),
    continueWith: async ({ replyId }) => (await replies.continueWith(replyId), null),
    chatFrameReady: () => replies.frameShown(),
    editMessage: ({ messageId, text, options }) => replies.edit(messageId, text, options),
    getConversationCost: ({ id }) => conversations.cost(id),
    getUsage: ({ days }) => conversations.usage(days),
    searchMessages: ({ query, limit }) => store.search(query, limit),
    exportConversations: async ({ ids, format }) =>
      saved(shell, await conversations.export(ids, format)),
    importConversations: () => conversations.import(),
  };
}
