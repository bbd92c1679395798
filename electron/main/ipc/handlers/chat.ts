import type { CHAT_ROUTES } from '../../../shared/ipc/routes/chat';
import type { AppContext } from '../../app-context';
import { writeFileAtomic } from '../../services/connections-file';
import { ChatError, ChatService } from '../../services/chat/chat-service';
import { ChatStore } from '../../services/chat/store';
import { readInProcess, readInWorker } from '../../services/chat/import-reader';
import { buildExport, importConversations, ImportError } from '../../services/chat/transfer';
import { HandlerError, type Handlers } from '../router';

/** Runs a handler, turning the chat services' refusals into errors the router passes on. */
async function guarded<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ChatError) throw new HandlerError(error.kind, error.message);
    if (error instanceof ImportError) throw new HandlerError('invalid_request', error.message);
    throw error;
  }
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw new ChatError('not_found', 'That conversation no longer exists.');
  return value;
}

/** The handlers of the chat routes: a few lines each, over the chat services. */
export async function chatHandlers(context: AppContext): Promise<Handlers<typeof CHAT_ROUTES>> {
  const store = await ChatStore.open(context.db);
  const chat = new ChatService({
    store,
    emit: context.emit,
    client: async (requestId) => (await context.activeClient(requestId)).client,
    defaults: async () => (await context.settings.get()).chatDefaults,
  });
  context.onClose(() => chat.close());
  // Off main's event loop where the app gives a worker; on it otherwise (some tests).
  const readChosenFiles = context.startImportWorker
    ? readInWorker(context.startImportWorker)
    : readInProcess();

  return {
    listConversations: (page) => store.list(page ?? {}),
    createConversation: (draft) => store.create(draft ?? {}),
    renameConversation: ({ id, title }) => guarded(() => found(store.update(id, { title }))),
    setConversationPinned: ({ id, pinned }) => guarded(() => found(store.update(id, { pinned }))),
    deleteConversation: ({ id }) =>
      guarded(async () => {
        await chat.stopConversation(id);
        found(store.softDelete(id) ? true : undefined);
        return null;
      }),
    restoreConversation: ({ id }) => guarded(() => found(store.restore(id))),
    getConversation: ({ id, limit, beforeSeq, fromSeq }) =>
      guarded(() => ({
        conversation: found(store.get(id)),
        ...store.messages(id, {
          ...(limit === undefined ? {} : { limit }),
          ...(beforeSeq === undefined ? {} : { beforeSeq }),
          ...(fromSeq === undefined ? {} : { fromSeq }),
        }),
      })),
    updateConversationSettings: ({ id, ...changes }) =>
      guarded(() => found(store.update(id, changes))),
    sendMessage: ({ conversationId, text, options }) =>
      guarded(() => chat.send(conversationId, text, options)),
    stopReply: ({ replyId }) => ({ stopped: chat.stop(replyId) }),
    regenerateReply: ({ conversationId, options }) =>
      guarded(() => chat.regenerate(conversationId, options)),
    editMessage: ({ messageId, text, options }) =>
      guarded(() => chat.edit(messageId, text, options)),
    searchMessages: ({ query, limit }) => store.search(query, limit),
    exportConversations: ({ ids, format }) =>
      guarded(async () => {
        const conversations = ids.map((id) => found(store.get(id)));
        const file = buildExport(store, conversations, format, new Date());
        const path = await context.dialogs.chooseSavePath({
          title:
            conversations.length === 1 ? 'Export the conversation' : 'Export the conversations',
          defaultName: file.defaultName,
          filters: [{ name: file.extension.toUpperCase(), extensions: [file.extension] }],
        });
        if (path === undefined) return { saved: false, count: 0 };
        try {
          // A saved file like any other program's (0666 less the umask), written whole or not at all.
          await writeFileAtomic(path, file.bytes, { mode: 0o666 });
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (typeof code !== 'string') throw error;
          throw new HandlerError(
            'internal',
            `The export could not be written to ${path} (${code}). Nothing was saved there; choose another place.`,
          );
        }
        return { saved: true, path, count: conversations.length };
      }),
    importConversations: () =>
      guarded(async () => {
        const paths = await context.dialogs.chooseOpenPaths({
          title: 'Import conversations',
          filters: [{ name: 'Chat export (JSON, or a zip of them)', extensions: ['json', 'zip'] }],
          multiple: true,
        });
        if (paths.length === 0) return { cancelled: true, conversationIds: [], refused: [] };
        const { conversations, refused, documents } = await readChosenFiles(paths);
        if (documents === 0)
          throw new ImportError(
            `${refused.map((r) => r.reason).join(' ')} Nothing was imported.`.trim(),
          );
        const conversationIds = await importConversations(store, conversations);
        context.emit('chat:conversations-changed', null);
        return { cancelled: false, conversationIds, refused };
      }),
  };
}
