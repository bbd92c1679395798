import { t } from '../../i18n/i18n';
import { failureOf } from '../../lib/errors';
import { requireBridge } from '../../lib/relay-bridge';
import { runAction, type Outcome } from '../../lib/run-action';
import { showToast } from '../../lib/toasts';
import { useKnowledgeStore as store, type KnowledgeHit } from './knowledge-store';

let loadSeq = 0;

/** The list, and the selected base's files. */
export async function loadKnowledge(): Promise<void> {
  const seq = ++loadSeq;
  if (store.getState().status === 'idle') store.setState({ status: 'loading' });
  try {
    const bases = await requireBridge().listKnowledgeBases();
    if (seq !== loadSeq) return;
    const selected = bases.some((b) => b.id === store.getState().selected)
      ? store.getState().selected
      : bases[0]?.id;
    store.setState({ bases, status: 'ready', failure: undefined, selected });
    await loadDetail(selected);
  } catch (error) {
    if (seq === loadSeq) store.setState({ status: 'failed', failure: failureOf(error) });
  }
}

async function loadDetail(id: string | undefined): Promise<void> {
  if (id === undefined) {
    store.setState({ detail: undefined });
    return;
  }
  try {
    const detail = await requireBridge().getKnowledgeBase({ id });
    if (store.getState().selected === id) store.setState({ detail });
  } catch {
    // Deleted meanwhile: the list that follows says so.
  }
}

export async function loadKnowledgeModels(): Promise<void> {
  try {
    const list = await requireBridge().listModels();
    store.setState({
      models: list.models.filter((m) => m.kind === 'embedding').map((m) => m.id),
    });
  } catch {
    store.setState({ models: [] });
  }
}

/**
 * Follows main: changes reload the list, progress and ends are kept per base. The end of
 * indexing is always followed by a change, which reloads the list and the base once.
 */
export function watchKnowledge(): () => void {
  const bridge = requireBridge();
  const offs = [
    bridge.onKnowledgeChanged(() => void loadKnowledge()),
    bridge.onKnowledgeProgress(({ kbId, ...progress }) =>
      store.setState((s) => ({ progress: { ...s.progress, [kbId]: progress } })),
    ),
    bridge.onKnowledgeIndexEnded(({ kbId }) =>
      store.setState((s) => {
        const { [kbId]: _ended, ...progress } = s.progress;
        return { progress };
      }),
    ),
  ];
  return () => offs.forEach((off) => off());
}

export function selectBase(id: string): void {
  store.setState({ selected: id, detail: undefined, hits: undefined, searchFailure: undefined });
  void loadDetail(id);
}

/** Creates a base; the error for the person is thrown (the form shows it). */
export async function createBase(name: string, model: string): Promise<void> {
  const base = await requireBridge().createKnowledgeBase({ name, model });
  store.setState({ selected: base.id });
  await loadKnowledge();
}

/** "Try the demo knowledge base": sample documents, embedded by the demo relay. */
export async function createDemoBase(): Promise<void> {
  try {
    const base = await requireBridge().createDemoKnowledgeBase();
    store.setState({ selected: base.id });
    await loadKnowledge();
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

export async function addSources(id: string, kind: 'files' | 'folder'): Promise<void> {
  try {
    await requireBridge().addKnowledgeSources({ id, kind });
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

export async function indexBase(id: string): Promise<void> {
  try {
    await requireBridge().indexKnowledgeBase({ id });
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

export function cancelIndexing(id: string): void {
  void requireBridge()
    .cancelKnowledgeIndexing({ id })
    .catch(() => undefined);
}

export async function deleteBase(id: string): Promise<void> {
  try {
    await requireBridge().deleteKnowledgeBase({ id });
    store.setState({ selected: undefined, detail: undefined, hits: undefined });
    await loadKnowledge();
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

export async function askQuestion(id: string, question: string, topK: number): Promise<void> {
  store.setState({ searching: true, searchFailure: undefined });
  try {
    const { hits } = await requireBridge().searchKnowledgeBase({ id, question, topK });
    store.setState({ hits, searching: false });
  } catch (error) {
    store.setState({ searching: false, hits: undefined, searchFailure: failureOf(error) });
  }
}

/** Renames a base; the error for the person is thrown (the field shows it). */
export async function renameBase(id: string, name: string): Promise<void> {
  await requireBridge().renameKnowledgeBase({ id, name });
}

export async function removeSource(id: string, sourceId: string): Promise<void> {
  try {
    await requireBridge().removeKnowledgeSource({ id, sourceId });
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

/**
 * Files and folders dropped on the screen: those on disk go in (by the grants main gave the
 * preload for them; the page never sees a path), the rest are named.
 */
export async function addDropped(id: string, files: readonly File[]): Promise<void> {
  const bridge = requireBridge();
  try {
    const granted = (await bridge.grantDroppedFiles?.(files, 'knowledge')) ?? [];
    const grants = granted.filter((grant): grant is string => grant !== null);
    const unnamed = files.length - grants.length;
    const { refused } =
      grants.length > 0 ? await bridge.addKnowledgeDropped({ id, grants }) : { refused: [] };
    const reasons = refused.map((r) => r.reason);
    if (unnamed > 0) reasons.push(t('knowledge.drop.notOnDisk', { count: unnamed }));
    if (reasons.length > 0) showToast(reasons.join(' '), { tone: 'error' });
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

export async function revealFile(id: string, fileId: string): Promise<void> {
  try {
    await requireBridge().revealKnowledgeFile({ id, fileId });
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

/** What moving to another model would send and cost; the error for the person is thrown. */
export function estimateModel(id: string, model: string) {
  return requireBridge().estimateKnowledgeModel({ id, model });
}

/** Moves the base to another model; the error for the person is thrown (the dialog shows it). */
export async function changeModel(id: string, model: string): Promise<void> {
  await requireBridge().setKnowledgeModel({ id, model });
  // Passages found with the old model's vectors say nothing about the new one.
  store.setState({ hits: undefined, searchFailure: undefined });
}

/** The passages of base `id` nearest to `question`, for the comparison of two bases. */
export function searchBase(
  id: string,
  question: string,
  topK: number,
): Promise<Outcome<KnowledgeHit[]>> {
  return runAction(
    async () => (await requireBridge().searchKnowledgeBase({ id, question, topK })).hits,
  );
}

/** A copy of base `id` (the same files) embedded with another model; answers the copy's id. */
export function copyBaseWithModel(id: string, model: string): Promise<Outcome<string>> {
  return runAction(async () => (await requireBridge().copyKnowledgeBase({ id, model })).id);
}
