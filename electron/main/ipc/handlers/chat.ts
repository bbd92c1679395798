import type { CHAT_ROUTES } from '../../../shared/ipc/routes/chat';
import type { AppContext } from '../../app-context';
import type { Handlers } from '../router';

/** The handlers of the chat routes: a few lines each, over the chat services. */
export async function chatHandlers(_context: AppContext): Promise<Handlers<typeof CHAT_ROUTES>> {
  return {};
}
