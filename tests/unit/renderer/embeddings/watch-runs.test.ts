/**
 * The embeddings screen follows its runs through main's events only while it is shown. A run that
 * ends while the person is on another screen must not leave the screen "in progress" (its Embed
 * button disabled) when they come back.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  startRun,
  watchRuns,
} from '../../../../renderer/src/features/embeddings/embeddings-actions';
import { useEmbeddingsStore } from '../../../../renderer/src/features/embeddings/embeddings-store';
import { exposedBridge } from '../../../fakes/exposed-bridge';

type Listener = (payload: never) => void;

interface RunRecord {
  id: string;
  model: string;
  status: 'running' | 'done' | 'cancelled' | 'failed';
  total: number;
  done: number;
  texts: string[];
}

/** The bridge's embeddings side, backed by runs the test moves along by hand. */
function fakeBridge() {
  const runs = new Map<string, RunRecord>();
  const listeners = { progress: new Set<Listener>(), ended: new Set<Listener>() };
  const on = (set: Set<Listener>) => (listener: Listener) => {
    set.add(listener);
    return () => set.delete(listener);
  };
  const summary = (run: RunRecord) => ({
    id: run.id,
    model: run.model,
    createdAt: '2026-11-25T08:00:00.000Z',
    status: run.status,
    total: run.total,
    done: run.done,
    firstInput: run.texts[0] ?? '',
  });
  let next = 1;
  const bridge = {
    onEmbeddingProgress: on(listeners.progress),
    onEmbeddingRunEnded: on(listeners.ended),
    onRetryScheduled: () => () => undefined,
    listEmbeddingRuns: vi.fn(async () => [...runs.values()].map(summary)),
    startEmbeddingRun: vi.fn(async ({ model, inputs }: { model: string; inputs: string[] }) => {
      const id = `00000000-0000-4000-8000-00000000000${next++}`;
      runs.set(id, { id, model, status: 'running', total: inputs.length, done: 0, texts: inputs });
      return { runId: id };
    }),
    getEmbeddingRun: vi.fn(async ({ runId }: { runId: string }) => {
      const run = runs.get(runId);
      if (!run)
        throw Object.assign(new Error('This run does not exist any more.'), { kind: 'not_found' });
      // One input only, so that no pictures are worked out (they need two).
      return {
        ...summary(run),
        items: run.texts.slice(0, 1).map((text, index) => ({ index, text })),
      };
    }),
  };
  return {
    bridge,
    runs,
    /** Main ends a run, telling whoever listens. */
    end(runId: string) {
      const run = runs.get(runId)!;
      run.status = 'done';
      run.done = run.total;
      const payload = { runId, status: 'done', done: run.done, total: run.total } as never;
      for (const listener of listeners.ended) listener(payload);
    },
    get listening() {
      return listeners.ended.size;
    },
  };
}

const initial = useEmbeddingsStore.getState();

describe('embeddings runs followed across screens', () => {
  let fake: ReturnType<typeof fakeBridge>;

  beforeEach(() => {
    fake = fakeBridge();
    vi.stubGlobal('window', { relay: exposedBridge(fake.bridge) });
    useEmbeddingsStore.setState(initial, true);
    useEmbeddingsStore.setState({
      models: ['demo-embedding'],
      model: 'demo-embedding',
      linesText: 'first text\nsecond text',
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('clears the progress when a run ends while the screen listens', async () => {
    const stop = watchRuns();
    await startRun();
    const runId = useEmbeddingsStore.getState().progress?.runId;
    expect(runId).toBeDefined();
    fake.end(runId!);
    await vi.waitFor(() => expect(useEmbeddingsStore.getState().progress).toBeUndefined());
    expect(useEmbeddingsStore.getState().run).toMatchObject({ id: runId, status: 'done' });
    stop();
  });

  it('catches up with a run that ended while another screen was shown', async () => {
    const stop = watchRuns();
    await startRun();
    const runId = useEmbeddingsStore.getState().progress!.runId;
    // The person goes to another screen: the embeddings screen stops listening.
    stop();
    expect(fake.listening).toBe(0);
    fake.end(runId);
    // Back on the embeddings screen.
    const again = watchRuns();
    await vi.waitFor(() => expect(useEmbeddingsStore.getState().progress).toBeUndefined());
    expect(useEmbeddingsStore.getState().run).toMatchObject({ id: runId, status: 'done' });
    again();
  });

  it('keeps following a run that is still going when the screen comes back', async () => {
    const stop = watchRuns();
    await startRun();
    const runId = useEmbeddingsStore.getState().progress!.runId;
    stop();
    fake.runs.get(runId)!.done = 1;
    const again = watchRuns();
    await vi.waitFor(() =>
      expect(useEmbeddingsStore.getState().progress).toEqual({ runId, done: 1, total: 2 }),
    );
    fake.end(runId);
    await vi.waitFor(() => expect(useEmbeddingsStore.getState().progress).toBeUndefined());
    again();
  });

  it('lets a new run start when the followed run was deleted meanwhile', async () => {
    const stop = watchRuns();
    await startRun();
    const runId = useEmbeddingsStore.getState().progress!.runId;
    stop();
    fake.runs.delete(runId);
    const again = watchRuns();
    await vi.waitFor(() => expect(useEmbeddingsStore.getState().progress).toBeUndefined());
    again();
  });
});
