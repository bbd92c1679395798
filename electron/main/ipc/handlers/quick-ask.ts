import type { QUICK_ASK_ROUTES } from '../../../shared/ipc/routes/quick-ask';
import type { AppContext } from '../../app-context';
import { ChatStore } from '../../services/chat/store';
import { QuickAskService, type ClipboardText } from '../../services/quick-ask/quick-ask-service';
import type { Handlers } from '../router';
import { errorInfo } from '../../services/app-error';
import { said, type Said } from '../../services/words';

/** The app's two windows, as the quick window's routes use them. */
export interface AppWindows {
  /** Shows and focuses the main window (opening it again if it was closed). */
  showMain(): void;
  /** Hides the quick ask window. */
  hideQuickAsk(): void;
}

/** The chat model quick ask uses: the one last chosen in Chat, else the relay's first. */
async function defaultModel(
  context: AppContext,
): Promise<{ model: string | null; problem?: Said }> {
  if ((await context.connections.activeId()) === undefined) {
    return { model: null, problem: said('quickAsk.connectFirst') };
  }
  let listing;
  try {
    listing = await context.models.list();
  } catch (error) {
    // The relay's own words stay as it said them (in English when they have no key here).
    const why =
      errorInfo(error)?.message ?? (error instanceof Error ? error.message : String(error));
    return { model: null, problem: said('quickAsk.modelsUnlisted', { why }) };
  }
  const chat = (listing?.models ?? []).filter((m) => m.kind === 'chat').map((m) => m.id);
  const last = listing?.lastModel.chat;
  const model = last !== undefined && chat.includes(last) ? last : (chat[0] ?? null);
  return model === null ? { model, problem: said('quickAsk.noChatModel') } : { model };
}

export function openQuickAsk(
  context: AppContext,
  readClipboard?: () => Promise<ClipboardText | undefined>,
): QuickAskService {
  let store: ChatStore | undefined;
  const service = new QuickAskService({
    client: async (requestId) => (await context.activeClient(requestId)).client,
    defaultModel: () => defaultModel(context),
    defaults: async () => (await context.settings.get()).chatDefaults,
    settings: async () => (await context.settings.get()).quickAsk,
    // The chat handlers opened (and migrated) the tables already.
    store: () => (store ??= new ChatStore(context.db)),
    emitDelta: (payload) => context.emit('quickAskDelta', payload),
    ...(readClipboard ? { readClipboard } : {}),
  });
  context.onClose(() => service.close());
  return service;
}

/** The handlers of the quick ask routes: a few lines each, over the quick ask service. */
export function quickAskHandlers(
  context: AppContext,
  service: QuickAskService,
  windows: AppWindows | undefined,
): Handlers<typeof QUICK_ASK_ROUTES> {
  return {
    getQuickAsk: async () => {
      const [{ model, problem }, settings, activeId] = await Promise.all([
        defaultModel(context),
        context.settings.get(),
        context.connections.activeId(),
      ]);
      const active =
        activeId === undefined
          ? undefined
          : await context.connections.get(activeId).catch(() => undefined);
      const clip = service.context;
      return {
        model,
        ...(problem === undefined
          ? {}
          : {
              problem: problem.english,
              messageId: problem.id,
              ...(problem.values ? { values: problem.values } : {}),
            }),
        ...(active ? { connectionName: active.name } : {}),
        isDemo: active?.isDemo ?? false,
        ...(clip ? { context: clip } : {}),
        useClipboard: settings.quickAsk.useClipboard,
        saveConversations: settings.quickAsk.saveConversations,
      };
    },
    askQuick: async ({ requestId, prompt, includeContext }) => {
      const answer = await service.ask(requestId, prompt, includeContext);
      if (answer.conversationId !== undefined) context.emit('conversationsChanged', null);
      return answer;
    },
    stopQuickAsk: ({ requestId }) => ({ stopped: service.stop(requestId) }),
    continueQuickAsk: ({ requestId }) => {
      const conversationId = service.continueInApp(requestId);
      context.emit('conversationsChanged', null);
      context.emit('openConversation', { conversationId });
      windows?.showMain();
      windows?.hideQuickAsk();
      return { conversationId };
    },
    hideQuickAsk: () => {
      windows?.hideQuickAsk();
      return null;
    },
  };
}
