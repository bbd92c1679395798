import type { PROMPTS_ROUTES } from '../../../shared/ipc/routes/prompts';
import type { AppContext } from '../../app-context';
import type { PromptsService } from '../../services/prompts/prompts-service';
import type { Handlers } from '../router';
import { saved } from './saved-files';

/** The handlers of the prompt library's routes: one line each, over the prompts service. */
export function promptsHandlers(
  prompts: PromptsService,
  shell: Pick<AppContext, 'savedFiles'>,
): Handlers<typeof PROMPTS_ROUTES> {
  return {
    listPrompts: (request) => prompts.list(request ?? {}),
    createPrompt: (draft) => prompts.create(draft),
    updatePrompt: ({ id, draft }) => prompts.update(id, draft),
    deletePrompt: ({ id }) => (prompts.delete(id), null),
    setPromptHidden: ({ id, hidden }) => prompts.setHidden(id, hidden),
    linkPromptConversation: ({ promptId, conversationId }) => (
      prompts.linkConversation(promptId, conversationId),
      null
    ),
    getConversationPrompt: ({ conversationId }) => prompts.conversationPrompt(conversationId),
    exportPrompts: async (request) => saved(shell, await prompts.exportToFile(request ?? {})),
    importPrompts: () => prompts.importFromFile(),
  };
}
