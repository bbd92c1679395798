import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { PendingRetry } from '../../lib/load-state';
import type { Answer } from '../../lib/relay-bridge';
import type { Analysis } from './analysis-protocol';

export type EmbeddingRun = Answer<'getEmbeddingRun'>;
export type EmbeddingRunSummary = Answer<'listEmbeddingRuns'>[number];
export type RunError = NonNullable<EmbeddingRun['error']>;
export type InputMode = 'lines' | 'list' | 'file';

export interface OpenedFile {
  fileName: string;
  inputs: string[];
  skippedEmpty: number;
}

/** The pictures' numbers, for the inputs of the run that have a vector (`indexes`). */
export interface ShownAnalysis extends Analysis {
  runId: string;
  indexes: number[];
}

export interface Nearest {
  query: string;
  ranked: Array<{ index: number; text: string; score: number }>;
}

export interface EmbeddingsState {
  mode: InputMode;
  linesText: string;
  listItems: string[];
  file?: OpenedFile | undefined;
  inputError?: string | undefined;

  models: string[];
  model?: string | undefined;
  modelsFailure?: FailureInfo | undefined;

  runs: EmbeddingRunSummary[];
  run?: EmbeddingRun | undefined;
  progress?: { runId: string; done: number; total: number } | undefined;
  starting: boolean;
  startFailure?: FailureInfo | undefined;
  retry?: PendingRetry | undefined;

  analysisStatus: 'idle' | 'working' | 'ready' | 'failed';
  analysis?: ShownAnalysis | undefined;
  analysisFailure?: string | undefined;

  nearest?: Nearest | undefined;
  nearestFailure?: FailureInfo | undefined;
  /** What the last export or copy did, for a status line. */
  note?: string | undefined;

  modeChanged(mode: InputMode): void;
  linesEdited(text: string): void;
  listEdited(items: string[]): void;
  fileOpened(file: OpenedFile): void;
  inputRefused(message: string | undefined): void;
  modelsLoaded(models: string[], chosen: string | undefined): void;
  modelsFailed(failure: FailureInfo): void;
  modelChosen(model: string): void;
  runsLoaded(runs: EmbeddingRunSummary[]): void;
  runRequested(): void;
  runStartFailed(failure: FailureInfo): void;
  runStarted(runId: string, total: number): void;
  progressReceived(progress: { runId: string; done: number; total: number }): void;
  retryScheduled(retry: PendingRetry): void;
  runLoaded(run: EmbeddingRun): void;
  /** The run no longer exists (deleted): it is not in progress any more. */
  runGone(runId: string): void;
  analysisStarted(): void;
  analysisReady(analysis: ShownAnalysis): void;
  analysisFailed(message: string): void;
  nearestFound(nearest: Nearest | undefined, failure?: FailureInfo): void;
  noted(note: string | undefined): void;
}

export const useEmbeddingsStore = create<EmbeddingsState>()((set) => ({
  mode: 'lines',
  linesText: '',
  listItems: [''],
  models: [],
  runs: [],
  starting: false,
  analysisStatus: 'idle',

  modeChanged: (mode) => set({ mode, inputError: undefined }),
  linesEdited: (linesText) => set({ linesText, inputError: undefined }),
  listEdited: (listItems) => set({ listItems, inputError: undefined }),
  fileOpened: (file) => set({ file, mode: 'file', inputError: undefined }),
  inputRefused: (inputError) => set({ inputError }),
  modelsLoaded: (models, chosen) =>
    set({
      models,
      model: chosen && models.includes(chosen) ? chosen : models[0],
      modelsFailure: undefined,
    }),
  modelsFailed: (modelsFailure) => set({ modelsFailure }),
  modelChosen: (model) => set({ model }),
  runsLoaded: (runs) => set({ runs }),
  runRequested: () => set({ starting: true, startFailure: undefined, note: undefined }),
  runStartFailed: (startFailure) => set({ starting: false, startFailure }),
  runStarted: (runId, total) =>
    set({
      starting: false,
      run: undefined,
      progress: { runId, done: 0, total },
      retry: undefined,
      analysis: undefined,
      analysisStatus: 'idle',
      nearest: undefined,
    }),
  progressReceived: (progress) =>
    set((state) =>
      state.progress?.runId === progress.runId ? { progress, retry: undefined } : {},
    ),
  retryScheduled: (retry) => set({ retry }),
  runLoaded: (run) =>
    set((state) => ({
      run,
      retry: undefined,
      progress:
        run.status === 'running'
          ? { runId: run.id, done: run.done, total: run.total }
          : state.progress?.runId === run.id
            ? undefined
            : state.progress,
      ...(state.analysis && state.analysis.runId !== run.id
        ? { analysis: undefined, analysisStatus: 'idle' as const, nearest: undefined }
        : {}),
    })),
  runGone: (runId) =>
    set((state) =>
      state.progress?.runId === runId ? { progress: undefined, retry: undefined } : {},
    ),
  analysisStarted: () => set({ analysisStatus: 'working', analysisFailure: undefined }),
  analysisReady: (analysis) => set({ analysis, analysisStatus: 'ready' }),
  analysisFailed: (analysisFailure) => set({ analysisStatus: 'failed', analysisFailure }),
  nearestFound: (nearest, nearestFailure) => set({ nearest, nearestFailure }),
  noted: (note) => set({ note }),
}));
