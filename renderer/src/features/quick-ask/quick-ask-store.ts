import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { QuickAnswer, QuickAskState } from '../../lib/relay-bridge';

/** The question asked last and its reply, growing while it streams. */
export interface QuickExchange {
  requestId: string;
  prompt: string;
  model: string;
  text: string;
  status: 'streaming' | QuickAnswer['status'];
  error?: QuickAnswer['error'];
  conversationId?: string;
}

export interface QuickAskStoreState {
  status: 'loading' | 'ready' | 'failed';
  info?: QuickAskState | undefined;
  failure?: FailureInfo | undefined;
  /** The clipboard text is sent with the question; the person can leave it out. */
  includeContext: boolean;
  exchange?: QuickExchange | undefined;
  /** An action that failed (opening in the app, stopping). */
  actionFailure?: FailureInfo | undefined;

  infoLoaded(info: QuickAskState): void;
  infoFailed(failure: FailureInfo): void;
  contextDropped(): void;
  questionAsked(exchange: Pick<QuickExchange, 'requestId' | 'prompt' | 'model'>): void;
  deltaReceived(requestId: string, text: string): void;
  replyEnded(answer: QuickAnswer): void;
  askFailed(requestId: string, failure: FailureInfo): void;
  actionFailed(failure: FailureInfo | undefined): void;
}

export const useQuickAskStore = create<QuickAskStoreState>()((set) => ({
  status: 'loading',
  includeContext: true,

  infoLoaded: (info) => set({ status: 'ready', info, failure: undefined, includeContext: true }),
  infoFailed: (failure) => set({ status: 'failed', failure }),
  contextDropped: () => set({ includeContext: false }),
  questionAsked: ({ requestId, prompt, model }) =>
    set({
      exchange: { requestId, prompt, model, text: '', status: 'streaming' },
      actionFailure: undefined,
    }),
  deltaReceived: (requestId, text) =>
    set((state) =>
      state.exchange?.requestId === requestId && state.exchange.status === 'streaming'
        ? { exchange: { ...state.exchange, text: state.exchange.text + text } }
        : {},
    ),
  replyEnded: (answer) =>
    set((state) =>
      state.exchange?.requestId === answer.requestId
        ? {
            exchange: {
              ...state.exchange,
              model: answer.model,
              text: answer.content,
              status: answer.status,
              ...(answer.error ? { error: answer.error } : {}),
              ...(answer.conversationId ? { conversationId: answer.conversationId } : {}),
            },
          }
        : {},
    ),
  askFailed: (requestId, failure) =>
    set((state) =>
      state.exchange?.requestId === requestId
        ? {
            exchange: {
              ...state.exchange,
              status: 'error',
              error: { kind: 'internal', message: failure.message },
            },
          }
        : {},
    ),
  actionFailed: (actionFailure) => set({ actionFailure }),
}));
