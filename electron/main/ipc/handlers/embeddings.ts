import type { EMBEDDINGS_ROUTES } from '../../../shared/ipc/routes/embeddings';
import type { AppContext } from '../../app-context';
import type { Embeddings } from '../../services/embeddings';
import type { Handlers } from '../router';
import { saved } from './saved-files';

/** The handlers of the embeddings routes: one line each, over the embeddings service. */
export function embeddingsHandlers(
  { service, start, exportRun, openInputs }: Embeddings,
  shell: Pick<AppContext, 'savedFiles'>,
): Handlers<typeof EMBEDDINGS_ROUTES> {
  return {
    startEmbeddingRun: ({ model, inputs }) => start(model, inputs),
    cancelEmbeddingRun: ({ runId }) => (service.cancel(runId), null),
    resumeEmbeddingRun: ({ runId }) => ({ runId: service.resume(runId) }),
    rerunEmbeddingRun: ({ runId, model }) => ({ runId: service.rerun(runId, model) }),
    getEmbeddingRun: ({ runId, offset, limit }) => service.get(runId, offset, limit),
    listEmbeddingRuns: () => service.list(),
    deleteEmbeddingRun: ({ runId }) => (service.delete(runId), null),
    getEmbeddingVectors: ({ runId, offset, limit }) => service.vectors(runId, offset, limit),
    embedQuery: ({ model, text }) => service.embedQuery(model, text),
    exportEmbeddingRun: async ({ runId, format }) => saved(shell, await exportRun(runId, format)),
    openEmbeddingInputs: () => openInputs(),
  };
}
