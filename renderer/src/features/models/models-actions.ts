/** What the model picker asks of main; outcomes go to the store as events. */
import { t } from '../../i18n/i18n';
import { failureOf } from '../../lib/errors';
import {
  requireBridge,
  type Feature,
  type ModelKind,
  type ModelPrice,
} from '../../lib/relay-bridge';
import { showToast } from '../../lib/toasts';
import { useModelsStore } from './models-store';

let latestRequest = 0;

/** Loads the active connection's models; only the newest request's answer is kept. */
export async function loadModels(connectionId: string, refresh = false): Promise<void> {
  const request = ++latestRequest;
  const store = useModelsStore.getState();
  store.modelsRequested(connectionId);
  try {
    const list = await requireBridge().listModels(refresh ? { refresh: true } : undefined);
    if (request === latestRequest) store.modelsLoaded(list);
  } catch (error) {
    if (request === latestRequest) store.modelsFailed(connectionId, failureOf(error));
  }
}

/** Shows main's retry countdowns while a list is on its way; returns the unsubscribe. */
export function watchRetries(): () => void {
  return requireBridge().onRetryScheduled(({ attempt, delayMs, message }) => {
    useModelsStore.getState().retryScheduled({ attempt, retryAt: Date.now() + delayMs, message });
  });
}

/** Saves the person's own kind for a model (null: back to automatic), then shows the new list. */
export async function overrideModelKind(
  connectionId: string,
  modelId: string,
  kind: ModelKind | null,
): Promise<void> {
  await requireBridge().setModelKind({ modelId, kind });
  await loadModels(connectionId);
}

/** Saves whether a model reads images (null: as the relay says), then shows the new list. */
export async function overrideImageInput(
  connectionId: string,
  modelId: string,
  acceptsImages: boolean | null,
): Promise<void> {
  await requireBridge().setModelImageInput({ modelId, acceptsImages });
  await loadModels(connectionId);
}

export async function chooseModel(feature: Feature, modelId: string): Promise<void> {
  useModelsStore.getState().modelChosen(feature, modelId);
  await requireBridge().setLastModel({ feature, modelId });
}

/** Replaces the connection's key (after the relay refused it), then tries again. */
export async function replaceKeyAndRetry(connectionId: string, apiKey: string): Promise<void> {
  await requireBridge().updateConnection({ id: connectionId, changes: { apiKey } });
  await loadModels(connectionId, true);
}

/** Reads the person's prices (shown beside the chat models). */
export async function loadPrices(): Promise<void> {
  try {
    useModelsStore.getState().pricesLoaded(await requireBridge().listPrices());
  } catch (error) {
    useModelsStore.getState().pricesFailed(failureOf(error));
  }
}

/** Takes the prices main sends when another computer changed them (sync). */
export function watchPrices(): () => void {
  return requireBridge().onPricesChanged((prices) =>
    useModelsStore.getState().pricesLoaded(prices),
  );
}

/** Saves a model's price (null removes it); rejects with main's error when it is refused. */
export async function saveModelPrice(modelId: string, price: ModelPrice | null): Promise<void> {
  useModelsStore.getState().pricesLoaded(await requireBridge().setModelPrice({ modelId, price }));
}

export async function savePriceCurrency(currency: string): Promise<void> {
  useModelsStore.getState().pricesLoaded(await requireBridge().setPriceCurrency({ currency }));
}

/** Asks for a price list file and adds its prices; says how many were imported. */
export async function importPriceList(): Promise<void> {
  const result = await requireBridge().importPrices();
  useModelsStore.getState().pricesLoaded(result.prices);
  if (!result.cancelled) showToast(t('models.prices.imported', { count: result.imported }));
}

export async function exportPriceList(): Promise<void> {
  const result = await requireBridge().exportPrices();
  if (result.saved) showToast(t('models.prices.exported'));
}
