/** What the embeddings screen does over the bridge, and the events it listens to. */
import { t } from '../../i18n/i18n';
import { copyText } from '../../lib/clipboard';
import { failureOf } from '../../lib/errors';
import { requireBridge } from '../../lib/relay-bridge';
import { analyse, rank } from './analysis-client';
import { useEmbeddingsStore as store } from './embeddings-store';
import { collectInputs } from './input-check';

/**
 * Values per page of vectors fetched for the pictures: as many as main sends at once (they come
 * as binary float32), so 2,000 vectors of 2,048 dimensions are one answer.
 */
const VECTOR_PAGE_VALUES = 4_194_304;
/** Inputs per answer when a run is opened. */
const ITEMS_PAGE = 250;

export async function loadEmbeddingModels(refresh = false): Promise<void> {
  try {
    const list = await requireBridge().listModels(refresh ? { refresh: true } : undefined);
    const models = list.models.filter((m) => m.kind === 'embedding').map((m) => m.id);
    store.getState().modelsLoaded(models, list.lastModel.embeddings);
  } catch (error) {
    store.getState().modelsFailed(failureOf(error));
  }
}

export function chooseModel(model: string): void {
  store.getState().modelChosen(model);
  void requireBridge()
    .setLastModel({ feature: 'embeddings', modelId: model })
    .catch(() => undefined);
}

export async function loadRuns(): Promise<void> {
  try {
    store.getState().runsLoaded(await requireBridge().listEmbeddingRuns());
  } catch {
    // The list is a convenience; the screen works without it.
  }
}

export async function openInputsFile(): Promise<void> {
  try {
    const file = await requireBridge().openEmbeddingInputs();
    if (file.fileName === undefined) return;
    store.getState().fileOpened({ ...file, fileName: file.fileName });
  } catch (error) {
    store.getState().inputRefused(failureOf(error).message);
  }
}

export async function startRun(): Promise<void> {
  const state = store.getState();
  const { inputs, error } = collectInputs(state.mode, state.linesText, state.listItems, state.file);
  if (error) return state.inputRefused(error);
  if (!state.model) return state.inputRefused(t('embeddings.check.noModel'));
  state.runRequested();
  try {
    const { runId } = await requireBridge().startEmbeddingRun({ model: state.model, inputs });
    store.getState().runStarted(runId, inputs.length);
  } catch (error) {
    store.getState().runStartFailed(failureOf(error));
  }
}

async function followRun(start: () => Promise<{ runId: string }>, total: number) {
  const state = store.getState();
  state.runRequested();
  try {
    const { runId } = await start();
    store.getState().runStarted(runId, total);
  } catch (error) {
    store.getState().runStartFailed(failureOf(error));
  }
}

export const cancelRun = (runId: string) =>
  requireBridge()
    .cancelEmbeddingRun({ runId })
    .catch(() => undefined);

/** Goes on with a run that stopped: only the inputs without a vector are sent. */
export const resumeRun = (runId: string, total: number) =>
  followRun(() => requireBridge().resumeEmbeddingRun({ runId }), total);

export const rerun = (runId: string, total: number) =>
  followRun(() => requireBridge().rerunEmbeddingRun({ runId }), total);

export async function deleteRun(runId: string): Promise<void> {
  try {
    await requireBridge().deleteEmbeddingRun({ runId });
  } finally {
    if (store.getState().run?.id === runId) store.setState({ run: undefined, analysis: undefined });
    await loadRuns();
  }
}

/** Shows a run: its table at once, then its pictures once the worker has worked them out. */
export async function openRun(runId: string): Promise<void> {
  try {
    const bridge = requireBridge();
    const first = await bridge.getEmbeddingRun({ runId, offset: 0, limit: ITEMS_PAGE });
    // The rest of a large run's inputs come in pages, so no one answer blocks the page for long.
    const items = [...first.items];
    while (items.length < first.total) {
      const page = await bridge.getEmbeddingRun({ runId, offset: items.length, limit: ITEMS_PAGE });
      if (page.items.length === 0) break;
      items.push(...page.items);
    }
    const run = { ...first, items };
    store.getState().runLoaded(run);
    if (run.status !== 'running') await drawPictures(runId);
  } catch (error) {
    const failure = failureOf(error);
    // A followed run that is gone (deleted meanwhile) is no longer in progress.
    if (failure.kind === 'not_found') store.getState().runGone(runId);
    store.getState().runStartFailed(failure);
  }
}

async function drawPictures(runId: string): Promise<void> {
  const run = store.getState().run;
  if (!run || run.id !== runId) return;
  const indexes = run.items.filter((item) => item.dimensions !== undefined).map((i) => i.index);
  const d = run.dimensions ?? 0;
  if (indexes.length < 2 || d === 0) return;
  store.getState().analysisStarted();
  try {
    const bridge = requireBridge();
    const vectors = new Float32Array(indexes.length * d);
    // Never more rows than the run has (main takes at most a run's worth per page).
    const rows = Math.max(1, Math.min(run.total, Math.floor(VECTOR_PAGE_VALUES / d)));
    let row = 0;
    for (let offset = 0; offset < run.total; offset += rows) {
      const page = await bridge.getEmbeddingVectors({ runId, offset, limit: rows });
      if (page.count === 0 || page.dimensions !== d) break;
      if (page.missing.length === 0 && row + page.count <= indexes.length) {
        // The usual case: every input of the page has its vector, copied in one go.
        vectors.set(page.values, row * d);
        row += page.count;
        continue;
      }
      const missing = new Set(page.missing);
      for (let i = 0; i < page.count && row < indexes.length; i++) {
        if (missing.has(page.offset + i)) continue;
        vectors.set(page.values.subarray(i * d, (i + 1) * d), row * d);
        row++;
      }
    }
    const analysis = await analyse(vectors, indexes.length, d);
    if (store.getState().run?.id !== runId) return;
    store.getState().analysisReady({ ...analysis, runId, indexes });
  } catch (error) {
    store.getState().analysisFailed(failureOf(error).message);
  }
}

export async function findNearest(query: string): Promise<void> {
  const { run, analysis } = store.getState();
  if (!run || !analysis) return;
  if (query.trim() === '') {
    store.getState().nearestFound(undefined, {
      kind: 'invalid_request',
      message: t('embeddings.nearest.empty'),
    });
    return;
  }
  try {
    const { vector } = await requireBridge().embedQuery({ model: run.model, text: query });
    const ranked = await rank(Float32Array.from(vector), 10);
    const texts = run.items;
    store.getState().nearestFound({
      query,
      ranked: ranked.map(([row, score]) => {
        const index = analysis.indexes[row] as number;
        return { index, text: texts[index]?.text ?? '', score };
      }),
    });
  } catch (error) {
    store.getState().nearestFound(undefined, failureOf(error));
  }
}

export async function exportRun(runId: string, format: 'json' | 'csv'): Promise<void> {
  try {
    const result = await requireBridge().exportEmbeddingRun({ runId, format });
    store
      .getState()
      .noted(
        result.path === undefined
          ? undefined
          : t('embeddings.export.saved', { count: result.rows, path: result.path }),
      );
  } catch (error) {
    store.getState().noted(t('embeddings.export.failed', { reason: failureOf(error).message }));
  }
}

export async function copyVector(runId: string, index: number): Promise<void> {
  try {
    const page = await requireBridge().getEmbeddingVectors({ runId, offset: index, limit: 1 });
    if (page.count === 0 || page.missing.includes(index))
      throw new Error(t('embeddings.copy.none'));
    const vector = Array.from(page.values.subarray(0, page.dimensions));
    await copyText(JSON.stringify(vector));
    store.getState().noted(t('embeddings.copy.done', { number: index + 1, count: vector.length }));
  } catch (error) {
    store.getState().noted(t('embeddings.copy.failed', { reason: failureOf(error).message }));
  }
}

/**
 * Listens for progress, ends and retries of runs; returns the way to stop listening. The screen
 * listens only while it is shown, so a run followed before is read again at once: if it ended
 * while the person was on another screen, its end is caught up with (the progress goes, the
 * pictures come) instead of leaving the screen "in progress" for good.
 */
export function watchRuns(): () => void {
  const bridge = requireBridge();
  const offs = [
    bridge.onEmbeddingProgress((progress) => store.getState().progressReceived(progress)),
    bridge.onEmbeddingRunEnded((ended) => {
      void loadRuns();
      if (store.getState().progress?.runId === ended.runId) void openRun(ended.runId);
    }),
    bridge.onRetryScheduled((retry) => {
      if (store.getState().progress?.runId !== retry.requestId) return;
      store.getState().retryScheduled({
        attempt: retry.attempt,
        retryAt: Date.now() + retry.delayMs,
        message: retry.message,
      });
    }),
  ];
  const followed = store.getState().progress?.runId;
  if (followed !== undefined) void openRun(followed);
  return () => offs.forEach((off) => off());
}
