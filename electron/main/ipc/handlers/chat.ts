import type { CHAT_ROUTES } from '../../../shared/ipc/routes/chat';
import type { AppContext } from '../../app-context';
import { HandlerError, type Handlers } from '../router';

const notYet = () => {
  throw new HandlerError('internal', 'Chat is not available yet.');
};

/** The handlers of the chat routes: a few lines each, over the chat services. */
export async function chatHandlers(_context: AppContext): Promise<Handlers<typeof CHAT_ROUTES>> {
  return {
    listConversations: notYet,
    createConversation: notYet,
    renameConversation: notYet,
    setConversationPinned: notYet,
    deleteConversation: notYet,
    restoreConversation: notYet,
    getConversation: notYet,
    updateConversationSettings: notYet,
    sendMessage: notYet,
    stopReply: notYet,
    regenerateReply: notYet,
    editMessage: notYet,
    searchMessages: notYet,
    exportConversations: notYet,
    importConversations: notYet,
  };
}
