import type { QUICK_ASK_ROUTES } from '../../../shared/ipc/routes/quick-ask';
import type { QuickAsk } from '../../services/quick-ask';
import type { Handlers } from '../router';

/** The handlers of the quick ask routes: one line each, over quick ask. */
export function quickAskHandlers(quickAsk: QuickAsk): Handlers<typeof QUICK_ASK_ROUTES> {
  return {
    getQuickAsk: () => quickAsk.view(),
    askQuick: ({ requestId, prompt, includeContext }) =>
      quickAsk.ask(requestId, prompt, includeContext),
    stopQuickAsk: ({ requestId }) => ({ stopped: quickAsk.service.stop(requestId) }),
    continueQuickAsk: ({ requestId }) => quickAsk.continueInApp(requestId),
    hideQuickAsk: () => quickAsk.hide(),
  };
}
