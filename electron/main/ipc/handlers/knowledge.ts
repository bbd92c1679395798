import { basename } from 'node:path';
import type { KNOWLEDGE_ROUTES } from '../../../shared/ipc/routes/knowledge';
import type { AppContext } from '../../app-context';
import { AppError } from '../../services/app-error';
import { KnowledgeService } from '../../services/knowledge/knowledge-service';
import { KnowledgeRetrieval } from '../../services/knowledge/retrieval';
import type { Handlers } from '../router';
import { said } from '../../services/words';

/** The demo knowledge base's name, and the demo relay's embeddings model it is built with. */
export const DEMO_KNOWLEDGE_BASE = 'Demo knowledge base';
export const DEMO_EMBEDDINGS_MODEL = 'demo-embedding';

/** The handlers of the knowledge routes: one line each, over the knowledge service. */
export async function knowledgeHandlers(
  context: AppContext,
  /** Given the retrieval the chat service asks before each reply. */
  onRetrieval?: (retrieval: KnowledgeRetrieval) => void,
  /** Given the service, for sync (its bases' sources and settings). */
  onService?: (service: KnowledgeService) => void,
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
  const retrieval = new KnowledgeRetrieval(context.db, knowledge);
  onRetrieval?.(retrieval);
  onService?.(knowledge);
  return {
    listKnowledgeBases: () => knowledge.list(),
    getKnowledgeBase: ({ id }) => knowledge.get(id),
    createKnowledgeBase: ({ name, model }) => knowledge.create(name, model),
    createDemoKnowledgeBase: async () => {
      const folder = context.knowledgeSamplesDir;
      if (folder === undefined) throw new AppError('not_found', said('knowledge.noSamples'));
      const demo = await context.connections.ensureDemo();
      context.emit('connectionsChanged', null);
      const base = await knowledge.create(DEMO_KNOWLEDGE_BASE, DEMO_EMBEDDINGS_MODEL, demo.id);
      await knowledge.addSources(base.id, [folder], 'folder');
      return (await knowledge.list()).find((b) => b.id === base.id) ?? base;
    },
    renameKnowledgeBase: ({ id, name }) => knowledge.rename(id, name),
    deleteKnowledgeBase: async ({ id }) => (await knowledge.delete(id), null),
    addKnowledgeSources: ({ id, kind }) => knowledge.addFromDialog(id, kind),
    addKnowledgeDropped: ({ id, grants }, sender) =>
      knowledge.addDropped(
        id,
        context.grants.take(grants, { webContentsId: sender.webContentsId, purpose: 'knowledge' }),
      ),
    revealKnowledgeFile: async ({ id, fileId }) => (await knowledge.revealFile(id, fileId), null),
    estimateKnowledgeModel: ({ id, model }) => knowledge.estimateModelChange(id, model),
    copyKnowledgeBase: ({ id, model }) => knowledge.copyWithModel(id, model),
    setKnowledgeModel: ({ id, model }) => knowledge.changeModel(id, model),
    removeKnowledgeSource: async ({ id, sourceId }) => (
      await knowledge.removeSource(id, sourceId),
      null
    ),
    indexKnowledgeBase: async ({ id }) => (await knowledge.index(id), null),
    cancelKnowledgeIndexing: ({ id }) => (knowledge.cancel(id), null),
    searchKnowledgeBase: ({ id, question, topK }) => knowledge.search(id, question, topK),
    getConversationKnowledge: ({ conversationId }) => retrieval.get(conversationId),
    setConversationKnowledge: ({ conversationId, ...changes }) =>
      retrieval.set(conversationId, changes),
    steerRetrieval: ({ conversationId, chunkId, action }) =>
      retrieval.steer(conversationId, chunkId, action),
    getRetrieval: ({ messageId }) => retrieval.record(messageId),
    listRetrievals: ({ conversationId }) => retrieval.replies(conversationId),
    revealRetrievedFile: async ({ messageId, chunkId, action }) => {
      const path = await retrieval.retrievedFile(messageId, chunkId);
      if (action === 'show') {
        context.desktop.showInFolder(path);
        return null;
      }
      if (!context.files.canOpen)
        throw new AppError('invalid_request', said('knowledge.cannotOpen'));
      const opened = await context.files.openChosen(path);
      if (opened.outcome === 'failed')
        throw new AppError('not_found', said('knowledge.openFailed', { detail: opened.problem }));
      if (opened.outcome === 'shown')
        throw new AppError(
          'invalid_request',
          said('files.shownNotOpened', { name: basename(path) }),
        );
      return null;
    },
  };
}
