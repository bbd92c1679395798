/**
 * Files dropped on a knowledge base: those on disk go to main by the grants main gave the preload
 * for them (the page never sees a path); the rest (a snippet dragged from a browser, say) and
 * what main refuses are named in one message, and nothing is added twice.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDropped } from '../../../renderer/src/features/knowledge/knowledge-actions';
import { useToastStore } from '../../../renderer/src/lib/toasts';
import { inLocale } from './i18n/compiled-catalogue';
import { exposedBridge } from '../../fakes/exposed-bridge';

function file(name: string): File {
  return new File(['text'], name, { type: 'text/plain' });
}

const GRANT = 'g'.repeat(32);

function installBridge(addKnowledgeDropped: (request: unknown) => Promise<unknown>) {
  // As the preload answers: a grant for the file on disk, null for the rest.
  const grantDroppedFiles = vi.fn(async (files: readonly File[], purpose: string) =>
    purpose === 'knowledge' ? files.map((f) => (f.name === 'guide.md' ? GRANT : null)) : [],
  );
  vi.stubGlobal('window', { relay: exposedBridge({ addKnowledgeDropped, grantDroppedFiles }) });
}

beforeEach(() => inLocale('en', 'knowledge'));
afterEach(() => {
  vi.unstubAllGlobals();
  useToastStore.setState({ toasts: [] });
});

describe('dropping files on a knowledge base', () => {
  it('sends the grants of the files on disk, and names what has none and what main refused', async () => {
    const add = vi.fn(async () => ({
      added: 1,
      refused: [{ name: 'gone.md', reason: 'gone.md could not be found.' }],
    }));
    installBridge(add);
    await addDropped('kb1', [file('guide.md'), file('snippet.txt')]);
    expect(add).toHaveBeenCalledWith({ id: 'kb1', grants: [GRANT] });
    expect(useToastStore.getState().toasts.map((t) => [t.tone, t.text])).toEqual([
      [
        'error',
        'gone.md could not be found. One dropped item is not a file on disk (drop files or folders from the file manager).',
      ],
    ]);
  });

  it('asks main for nothing when no dropped item is on disk, and says so', async () => {
    const add = vi.fn();
    installBridge(add);
    await addDropped('kb1', [file('a.txt'), file('b.txt')]);
    expect(add).not.toHaveBeenCalled();
    expect(useToastStore.getState().toasts[0]?.text).toMatch(
      /^2 dropped items are not files on disk/,
    );
  });

  it('says it in the language shown', async () => {
    installBridge(vi.fn());
    inLocale('de', 'knowledge');
    await addDropped('kb1', [file('a.txt')]);
    expect(useToastStore.getState().toasts[0]?.text).toMatch(
      /^Ein abgelegtes Element ist keine Datei/,
    );
  });

  it('says nothing when everything went in', async () => {
    installBridge(async () => ({ added: 1, refused: [] }));
    await addDropped('kb1', [file('guide.md')]);
    expect(useToastStore.getState().toasts).toEqual([]);
  });
});
