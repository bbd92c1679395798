import { basename } from 'node:path';
import type { EMBEDDINGS_ROUTES } from '../../../shared/ipc/routes/embeddings';
import type { AppContext } from '../../app-context';
import { EmbeddingsService } from '../../services/embeddings/embeddings-service';
import type { Handlers } from '../router';

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
    exportEmbeddingRun: async ({ runId, format }) => {
      const run = service.get(runId);
      const stamp = run.createdAt.slice(0, 19).replace(/[:T]/g, '-');
      const path = await context.dialogs.chooseSavePath({
        title: `Export embeddings as ${format.toUpperCase()}`,
        defaultName: `embeddings-${stamp}.${format}`,
        filters: [{ name: format.toUpperCase(), extensions: [format] }],
      });
      if (path === undefined) return { rows: 0 };
      return { path, rows: await service.export(runId, format, path) };
    },
    openEmbeddingInputs: async () => {
      const [path] = await context.dialogs.chooseOpenPaths({
        title: 'Open texts to embed',
        filters: [{ name: 'Text or CSV', extensions: ['txt', 'csv'] }],
      });
      if (path === undefined) return { inputs: [], skippedEmpty: 0 };
      const file = await service.readInputFile(path);
      return { ...file, fileName: basename(file.fileName) };
    },
  };
}
