import type { EMBEDDINGS_ROUTES } from '../../../shared/ipc/routes/embeddings';
import type { AppContext } from '../../app-context';
import { exportRunToFile, openInputsFile } from '../../services/embeddings/embeddings-files';
import { EmbeddingsService } from '../../services/embeddings/embeddings-service';
import type { Handlers } from '../router';
import { saved } from './saved-files';

/** The handlers of the embeddings routes: a few lines each, over the embeddings service. */
export async function embeddingsHandlers(
  context: AppContext,
): Promise<Handlers<typeof EMBEDDINGS_ROUTES>> {
  const service = await EmbeddingsService.open({
    db: context.db,
    client: async (requestId) => (await context.activeClient(requestId)).client,
    emit: context.emit,
  });
  context.onClose(() => service.close());

  return {
    startEmbeddingRun: async ({ model, inputs }) => {
      await context.activeClient(); // no connection: say so now, not as a failed run
      return { runId: service.start(model, inputs) };
    },
    cancelEmbeddingRun: ({ runId }) => (service.cancel(runId), null),
    resumeEmbeddingRun: ({ runId }) => ({ runId: service.resume(runId) }),
    rerunEmbeddingRun: ({ runId, model }) => ({ runId: service.rerun(runId, model) }),
    getEmbeddingRun: ({ runId, offset, limit }) => service.get(runId, offset, limit),
    listEmbeddingRuns: () => service.list(),
    deleteEmbeddingRun: ({ runId }) => (service.delete(runId), null),
    getEmbeddingVectors: ({ runId, offset, limit }) => service.vectors(runId, offset, limit),
    embedQuery: ({ model, text }) => service.embedQuery(model, text),
    exportEmbeddingRun: async ({ runId, format }) =>
      saved(context, await exportRunToFile(service, context.dialogs, runId, format)),
    openEmbeddingInputs: () => openInputsFile(service, context.dialogs),
  };
}
