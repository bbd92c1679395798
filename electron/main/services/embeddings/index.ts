/** Opens the embeddings runs: the service over their tables, and their files. Composition root only. */
import type { AppContext } from '../../app-context';
import { exportRunToFile, openInputsFile } from './embeddings-files';
import { EmbeddingsService } from './embeddings-service';

export type EmbeddingsDeps = Pick<
  AppContext,
  'db' | 'emit' | 'dialogs' | 'activeClient' | 'onClose'
>;

export interface Embeddings {
  service: EmbeddingsService;
  /** Starts a run; with no connection, says so now rather than as a failed run. */
  start(model: string, inputs: string[]): Promise<{ runId: string }>;
  exportRun(runId: string, format: 'json' | 'csv'): ReturnType<typeof exportRunToFile>;
  openInputs(): ReturnType<typeof openInputsFile>;
}

export async function openEmbeddings(deps: EmbeddingsDeps): Promise<Embeddings> {
  const service = await EmbeddingsService.open({
    db: deps.db,
    client: async (requestId) => (await deps.activeClient(requestId)).client,
    emit: deps.emit,
  });
  deps.onClose(() => service.close());
  return {
    service,
    async start(model, inputs) {
      await deps.activeClient();
      return { runId: service.start(model, inputs) };
    },
    exportRun: (runId, format) => exportRunToFile(service, deps.dialogs, runId, format),
    openInputs: () => openInputsFile(service, deps.dialogs),
  };
}
