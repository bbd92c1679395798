/**
 * Opens quick ask: the service of the small window, what that window shows when it opens, and
 * its questions and their hand-over to the main window. Called by the composition root only.
 */
import type { AppContext } from '../../app-context';
import type { ChatStore } from '../chat/store';
import { messageFieldsAs } from '../words';
import { defaultModel } from './default-model';
import { QuickAskService, type ClipboardText } from './quick-ask-service';

/** The app's two windows, as the quick window's routes use them. */
export interface AppWindows {
  /** Shows and focuses the main window (opening it again if it was closed). */
  showMain(): void;
  /** Hides the quick ask window. */
  hideQuickAsk(): void;
}

export type QuickAskDeps = Pick<
  AppContext,
  'connections' | 'models' | 'settings' | 'emit' | 'activeClient' | 'onClose'
> & {
  /** Where quick asks are saved as conversations (the chat's tables). */
  store: ChatStore;
  readClipboard?: (() => Promise<ClipboardText | undefined>) | undefined;
  windows?: AppWindows | undefined;
};

export interface QuickAsk {
  service: QuickAskService;
  /** What the quick window shows as it opens: the model or why there is none, the context. */
  view(): Promise<ReturnType<typeof viewOf>>;
  ask(
    requestId: string,
    prompt: string,
    includeContext: boolean,
  ): ReturnType<QuickAskService['ask']>;
  /** Saves the quick ask as a conversation and opens it in the main window. */
  continueInApp(requestId: string): { conversationId: string };
  hide(): null;
}

function viewOf(
  { model, problem }: Awaited<ReturnType<typeof defaultModel>>,
  settings: Awaited<ReturnType<AppContext['settings']['get']>>,
  active: { name: string; isDemo?: boolean | undefined } | undefined,
  clip: QuickAskService['context'],
) {
  return {
    model,
    ...(problem === undefined ? {} : messageFieldsAs('problem', problem)),
    ...(active ? { connectionName: active.name } : {}),
    isDemo: active?.isDemo ?? false,
    ...(clip ? { context: clip } : {}),
    useClipboard: settings.quickAsk.useClipboard,
    saveConversations: settings.quickAsk.saveConversations,
  };
}

export function openQuickAsk(deps: QuickAskDeps): QuickAsk {
  const { connections, models, settings, emit, windows } = deps;
  const service = new QuickAskService({
    client: async (requestId) => (await deps.activeClient(requestId)).client,
    defaultModel: () => defaultModel(connections, models),
    defaults: async () => (await settings.get()).chatDefaults,
    settings: async () => (await settings.get()).quickAsk,
    store: () => deps.store,
    emitDelta: (payload) => emit('quickAskDelta', payload),
    ...(deps.readClipboard ? { readClipboard: deps.readClipboard } : {}),
  });
  deps.onClose(() => service.close());
  return {
    service,
    async view() {
      const [chosen, current, activeId] = await Promise.all([
        defaultModel(connections, models),
        settings.get(),
        connections.activeId(),
      ]);
      const active =
        activeId === undefined ? undefined : await connections.get(activeId).catch(() => undefined);
      return viewOf(chosen, current, active, service.context);
    },
    async ask(requestId, prompt, includeContext) {
      const answer = await service.ask(requestId, prompt, includeContext);
      if (answer.conversationId !== undefined) emit('conversationsChanged', null);
      return answer;
    },
    continueInApp(requestId) {
      const conversationId = service.continueInApp(requestId);
      emit('conversationsChanged', null);
      emit('openConversation', { conversationId });
      windows?.showMain();
      windows?.hideQuickAsk();
      return { conversationId };
    },
    hide() {
      windows?.hideQuickAsk();
      return null;
    },
  };
}
