import type { KNOWLEDGE_ROUTES } from '../../../shared/ipc/routes/knowledge';
import type { AppContext } from '../../app-context';
import type { Knowledge } from '../../services/knowledge';
import type { Handlers } from '../router';

/** The handlers of the knowledge routes: one line each, over the knowledge services. */
export function knowledgeHandlers(
  { service: knowledge, retrieval, createDemo, revealRetrievedFile }: Knowledge,
  shell: Pick<AppContext, 'grants'>,
): Handlers<typeof KNOWLEDGE_ROUTES> {
  return {
    listKnowledgeBases: () => knowledge.list(),
    getKnowledgeBase: ({ id }) => knowledge.get(id),
    createKnowledgeBase: ({ name, model }) => knowledge.create(name, model),
    createDemoKnowledgeBase: () => createDemo(),
    renameKnowledgeBase: ({ id, name }) => knowledge.rename(id, name),
    deleteKnowledgeBase: async ({ id }) => (await knowledge.delete(id), null),
    addKnowledgeSources: ({ id, kind }) => knowledge.addFromDialog(id, kind),
    addKnowledgeDropped: ({ id, grants }, sender) =>
      knowledge.addDropped(
        id,
        shell.grants.take(grants, { webContentsId: sender.webContentsId, purpose: 'knowledge' }),
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
    revealRetrievedFile: ({ messageId, chunkId, action }) =>
      revealRetrievedFile(messageId, chunkId, action),
  };
}
