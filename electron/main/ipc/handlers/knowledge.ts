import type { KNOWLEDGE_ROUTES } from '../../../shared/ipc/routes/knowledge';
import type { AppContext } from '../../app-context';
import { KnowledgeService } from '../../services/knowledge/knowledge-service';
import type { Handlers } from '../router';

/** The handlers of the knowledge routes: one line each, over the knowledge service. */
export async function knowledgeHandlers(
  context: AppContext,
): Promise<Handlers<typeof KNOWLEDGE_ROUTES>> {
  const knowledge = await KnowledgeService.open({
    db: context.db,
    emit: context.emit,
    client: (connectionId, requestId) => context.clientFor(connectionId, requestId),
    activeConnection: () => context.connections.activeId(),
    connectionNames: async () =>
      new Map((await context.connections.list()).map((c) => [c.id, c.name])),
    readDocuments: context.readDocuments,
    dialogs: context.dialogs,
    showInFolder: (path) => context.desktop.showInFolder(path),
    inputPrice: async (model) => {
      const list = await context.models.prices.get();
      const price = list.prices[model];
      return price ? { perMillion: price.inputPerMillion, currency: list.currency } : undefined;
    },
  });
  context.onClose(() => knowledge.close());
  return {
    listKnowledgeBases: () => knowledge.list(),
    getKnowledgeBase: ({ id }) => knowledge.get(id),
    createKnowledgeBase: ({ name, model }) => knowledge.create(name, model),
    renameKnowledgeBase: ({ id, name }) => knowledge.rename(id, name),
    deleteKnowledgeBase: async ({ id }) => (await knowledge.delete(id), null),
    addKnowledgeSources: ({ id, kind }) => knowledge.addFromDialog(id, kind),
    addKnowledgePaths: ({ id, paths }) => knowledge.addDropped(id, paths),
    revealKnowledgeFile: async ({ id, fileId }) => (await knowledge.revealFile(id, fileId), null),
    estimateKnowledgeModel: ({ id, model }) => knowledge.estimateModelChange(id, model),
    copyKnowledgeBase: ({ id, model }) => knowledge.copyWithModel(id, model),
    setKnowledgeModel: ({ id, model }) => knowledge.changeModel(id, model),
    removeKnowledgeSource: async ({ id, path }) => (await knowledge.removeSource(id, path), null),
    indexKnowledgeBase: async ({ id }) => (await knowledge.index(id), null),
    cancelKnowledgeIndexing: ({ id }) => (knowledge.cancel(id), null),
    searchKnowledgeBase: ({ id, question, topK }) => knowledge.search(id, question, topK),
  };
}
