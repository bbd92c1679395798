/**
 * The Knowledge screen following main while a base is indexed: progress is kept per base, and
 * the end of indexing (main announces it, then that the base changed) loads the bases and the
 * base's detail once, not once per event: a base of 2,000 files is a large answer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchKnowledge } from '../../../renderer/src/features/knowledge/knowledge-actions';
import { useKnowledgeStore } from '../../../renderer/src/features/knowledge/knowledge-store';
import { exposedBridge } from '../../fakes/exposed-bridge';

type Listener = (payload: never) => void;

function installBridge() {
  const listeners = new Map<string, Listener>();
  const on = (name: string) => (listener: Listener) => {
    listeners.set(name, listener);
    return () => listeners.delete(name);
  };
  const bridge = {
    listKnowledgeBases: vi.fn(async () => [{ id: 'kb1', name: 'Notes' }]),
    getKnowledgeBase: vi.fn(async () => ({ id: 'kb1', name: 'Notes', fileList: [] })),
    onKnowledgeChanged: on('changed'),
    onKnowledgeProgress: on('progress'),
    onKnowledgeIndexEnded: on('ended'),
  };
  vi.stubGlobal('window', { relay: exposedBridge(bridge) });
  const emit = (name: string, payload: unknown) => listeners.get(name)?.(payload as never);
  return { bridge, emit };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('following indexing on the Knowledge screen', () => {
  it('keeps the progress, and loads the base once when indexing ends', async () => {
    const { bridge, emit } = installBridge();
    useKnowledgeStore.setState({ selected: 'kb1', progress: {} });
    const stop = watchKnowledge();
    const progress = {
      phase: 'embedding',
      files: { done: 2, total: 2 },
      chunks: { done: 10, total: 20 },
      tokens: 300,
    };
    emit('progress', { kbId: 'kb1', ...progress });
    expect(useKnowledgeStore.getState().progress).toEqual({ kb1: progress });

    // What main sends when indexing ends: the end, then the change.
    emit('ended', { kbId: 'kb1', status: 'ready' });
    emit('changed', { kbId: 'kb1' });
    await vi.waitFor(() => expect(useKnowledgeStore.getState().detail?.id).toBe('kb1'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(useKnowledgeStore.getState().progress).toEqual({});
    expect(bridge.listKnowledgeBases).toHaveBeenCalledTimes(1);
    expect(bridge.getKnowledgeBase).toHaveBeenCalledTimes(1);
    stop();
  });
});
