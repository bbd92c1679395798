/**
 * Opens the knowledge bases: the service over their tables and files, the retrieval chat asks
 * before each reply, the demo base and the files a reply's passages came from. Called by the
 * composition root only.
 */
import { basename } from 'node:path';
import type { AppContext } from '../../app-context';
import { AppError, errorInfo } from '../app-error';
import { migrate, type Db } from '../database';
import { said } from '../words';
import { KnowledgeIndexer, type KnowledgeIndexerOptions } from './knowledge-indexer';
import { KnowledgeSearch } from './knowledge-search';
import { KnowledgeService, type KnowledgeServiceDeps } from './knowledge-service';
import { KnowledgeStore } from './knowledge-store';
import { KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS } from './migrations';
import { KnowledgeRetrieval } from './retrieval';

/** The demo knowledge base's name, and the demo relay's embeddings model it is built with. */
export const DEMO_KNOWLEDGE_BASE = 'Demo knowledge base';
export const DEMO_EMBEDDINGS_MODEL = 'demo-embedding';

export type KnowledgeDeps = Pick<
  AppContext,
  | 'db'
  | 'emit'
  | 'clientFor'
  | 'connections'
  | 'readDocuments'
  | 'dialogs'
  | 'desktop'
  | 'files'
  | 'models'
  | 'knowledgeSamplesDir'
  | 'onClose'
>;

export interface Knowledge {
  service: KnowledgeService;
  retrieval: KnowledgeRetrieval;
  /** Builds the demo base from the sample documents, on the demo relay (started if needed). */
  createDemo(): ReturnType<KnowledgeService['create']>;
  /** Shows in the file manager, or opens, the file a reply's passage came from. */
  revealRetrievedFile(messageId: string, chunkId: string, action: 'show' | 'open'): Promise<null>;
}

export type KnowledgeServiceOptions = KnowledgeServiceDeps &
  Omit<KnowledgeIndexerOptions, 'store' | 'chunksChanged' | 'statusChanged'> & { db: Db };

/**
 * The knowledge service over its store, indexer and search, its tables migrated; bases left
 * indexing when the app last closed are marked cancelled (their saved chunks and vectors stay;
 * Index resumes).
 */
export async function openKnowledgeService(
  options: KnowledgeServiceOptions,
): Promise<KnowledgeService> {
  const { db, emit, client } = options;
  await migrate(db, KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS);
  const store = new KnowledgeStore(db);
  store.cancelInterrupted(
    errorInfo(new AppError('aborted', said('knowledge.closedWhileIndexing'))),
  );
  const search = new KnowledgeSearch(store, client);
  const indexer = new KnowledgeIndexer({
    ...options,
    store,
    chunksChanged: (id) => search.invalidate(id),
    // Indexing changes what the page shows of a base, never what syncs.
    statusChanged: (id) => emit('knowledgeChanged', { kbId: id }),
  });
  return new KnowledgeService(options, { store, indexer, search });
}

export async function openKnowledge(deps: KnowledgeDeps): Promise<Knowledge> {
  const { connections, desktop, files, emit } = deps;
  const service = await openKnowledgeService({
    db: deps.db,
    emit,
    client: (connectionId, requestId) => deps.clientFor(connectionId, requestId),
    activeConnection: () => connections.activeId(),
    connectionNames: async () => new Map((await connections.list()).map((c) => [c.id, c.name])),
    readDocuments: deps.readDocuments,
    dialogs: deps.dialogs,
    showInFolder: (path) => desktop.showInFolder(path),
    inputPrice: async (model) => {
      const list = await deps.models.prices.get();
      const price = list.prices[model];
      return price ? { perMillion: price.inputPerMillion, currency: list.currency } : undefined;
    },
  });
  deps.onClose(() => service.close());
  const retrieval = new KnowledgeRetrieval(deps.db, service);
  return {
    service,
    retrieval,
    async createDemo() {
      const folder = deps.knowledgeSamplesDir;
      if (folder === undefined) throw new AppError('not_found', said('knowledge.noSamples'));
      const demo = await connections.ensureDemo();
      emit('connectionsChanged', null);
      const base = await service.create(DEMO_KNOWLEDGE_BASE, DEMO_EMBEDDINGS_MODEL, demo.id);
      await service.addSources(base.id, [folder], 'folder');
      return (await service.list()).find((b) => b.id === base.id) ?? base;
    },
    async revealRetrievedFile(messageId, chunkId, action) {
      const path = await retrieval.retrievedFile(messageId, chunkId);
      if (action === 'show') {
        desktop.showInFolder(path);
        return null;
      }
      if (!files.canOpen) throw new AppError('invalid_request', said('knowledge.cannotOpen'));
      const opened = await files.openChosen(path);
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
