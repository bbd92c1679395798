import { basename } from 'node:path';
import type { EMBEDDINGS_ROUTES } from '../../../shared/ipc/routes/embeddings';
import type { AppContext } from '../../app-context';
import { EmbeddingsError, EmbeddingsService } from '../../services/embeddings/embeddings-service';
import { InputFileError } from '../../services/embeddings/input-file';
import { HandlerError, type Handlers } from '../router';

async function guarded<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EmbeddingsError) throw new HandlerError(error.kind, error.message);
    if (error instanceof InputFileError) throw new HandlerError('invalid_request', error.message);
    throw error;
  }
}

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
    cancelEmbeddingRun: ({ runId }) => guarded(() => (service.cancel(runId), null)),
    resumeEmbeddingRun: ({ runId }) => guarded(() => ({ runId: service.resume(runId) })),
    rerunEmbeddingRun: ({ runId, model }) =>
      guarded(() => ({ runId: service.rerun(runId, model) })),
    getEmbeddingRun: ({ runId, offset, limit }) => guarded(() => service.get(runId, offset, limit)),
    listEmbeddingRuns: () => service.list(),
    deleteEmbeddingRun: ({ runId }) => guarded(() => (service.delete(runId), null)),
    getEmbeddingVectors: ({ runId, offset, limit }) =>
      guarded(() => service.vectors(runId, offset, limit)),
    embedQuery: ({ model, text }) => service.embedQuery(model, text),
    exportEmbeddingRun: ({ runId, format }) =>
      guarded(async () => {
        const run = service.get(runId);
        const stamp = run.createdAt.slice(0, 19).replace(/[:T]/g, '-');
        const path = await context.dialogs.chooseSavePath({
          title: `Export embeddings as ${format.toUpperCase()}`,
          defaultName: `embeddings-${stamp}.${format}`,
          filters: [{ name: format.toUpperCase(), extensions: [format] }],
        });
        if (path === undefined) return { rows: 0 };
        return { path, rows: await service.export(runId, format, path) };
      }),
    openEmbeddingInputs: () =>
      guarded(async () => {
        const [path] = await context.dialogs.chooseOpenPaths({
          title: 'Open texts to embed',
          filters: [{ name: 'Text or CSV', extensions: ['txt', 'csv'] }],
        });
        if (path === undefined) return { inputs: [], skippedEmpty: 0 };
        const file = await service.readInputFile(path);
        return { ...file, fileName: basename(file.fileName) };
      }),
  };
}
