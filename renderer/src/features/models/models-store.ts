import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { Feature, ModelList, PriceList, RelayModel } from '../../lib/relay-bridge';

import type { LoadStatus, PendingRetry } from '../../lib/load-state';

export interface ModelsState {
  /** The connection the list (or the failure) belongs to. */
  connectionId?: string | undefined;
  status: LoadStatus;
  /** True while a list is shown and a newer one is on its way. */
  refreshing: boolean;
  models: RelayModel[];
  fetchedAt?: string | undefined;
  /** Why the list could not be fetched; with status 'ready', why the last refresh failed. */
  failure?: FailureInfo | undefined;
  query: string;
  /** The model last chosen for each screen, as main remembers it. */
  chosen: { [F in Feature]?: string | undefined };
  /** Set while the list is being fetched and main waits to try again. */
  retry?: PendingRetry | undefined;
  /** The person's prices per model (all connections share them); undefined until read. */
  prices?: PriceList | undefined;
  /** Why the prices could not be read. */
  pricesFailure?: FailureInfo | undefined;

  modelsRequested(connectionId: string): void;
  modelsLoaded(list: ModelList): void;
  modelsFailed(connectionId: string, failure: FailureInfo): void;
  queryChanged(query: string): void;
  modelChosen(feature: Feature, modelId: string): void;
  retryScheduled(retry: PendingRetry): void;
  pricesLoaded(prices: PriceList): void;
  pricesFailed(failure: FailureInfo): void;
}

export const useModelsStore = create<ModelsState>()((set) => ({
  status: 'idle',
  refreshing: false,
  models: [],
  query: '',
  chosen: {},

  modelsRequested: (connectionId) =>
    set((state) =>
      state.connectionId === connectionId && state.status === 'ready'
        ? { refreshing: true }
        : {
            connectionId,
            status: 'loading',
            refreshing: false,
            models: [],
            failure: undefined,
            retry: undefined,
          },
    ),
  modelsLoaded: (list) =>
    set({
      connectionId: list.connectionId,
      status: 'ready',
      refreshing: false,
      models: list.models,
      fetchedAt: list.fetchedAt,
      failure: undefined,
      chosen: list.lastModel,
      retry: undefined,
    }),
  // A refresh that fails keeps the list it was refreshing (the failure shows above it).
  modelsFailed: (connectionId, failure) =>
    set((state) =>
      state.connectionId === connectionId && state.status === 'ready'
        ? { refreshing: false, failure, retry: undefined }
        : { connectionId, status: 'failed', refreshing: false, failure, retry: undefined },
    ),
  queryChanged: (query) => set({ query }),
  modelChosen: (feature, modelId) =>
    set((state) => ({ chosen: { ...state.chosen, [feature]: modelId } })),
  // Only a list on its way can be waiting: a retry of another request is not ours to show.
  retryScheduled: (retry) =>
    set((state) => (state.status === 'loading' || state.refreshing ? { retry } : {})),
  pricesLoaded: (prices) => set({ prices, pricesFailure: undefined }),
  pricesFailed: (pricesFailure) => set({ pricesFailure }),
}));
