/**
 * Opens the chat domain: its tables, the files sent with messages and the composer's drafts,
 * the reply service, and the conversations as the page reads them. Called by the composition
 * root (`app-services.ts`) only.
 */
import type { AppContext } from '../../app-context';
import type { ReplyRetrieval } from '../knowledge/retrieval';
import type { McpService } from '../mcp/mcp-service';
import { AttachmentDrafts, AttachmentStore } from './attachments';
import { ChatService } from './chat-service';
import type { ChatTools } from './chat-tools';
import { Conversations } from './conversations';
import { readInProcess, readInWorker } from './import-reader';
import { Outgoing } from './outgoing';
import { ChatStore } from './store';
import type { RetrievalRecords } from './transfer';

export type ChatDeps = Pick<
  AppContext,
  | 'db'
  | 'emit'
  | 'settings'
  | 'models'
  | 'readDocuments'
  | 'dialogs'
  | 'files'
  | 'startImportWorker'
  | 'activeClient'
  | 'mcp'
  | 'onClose'
> & {
  /** The knowledge bases asked before each reply. */
  retrieval?: ReplyRetrieval;
  /** The replies' retrieval records, which exports and imports carry. */
  records?: RetrievalRecords;
  /** Days a deleted conversation stays restorable (sync keeps 30); purged at start if 0. */
  trashDays?: number;
};

export interface Chat {
  store: ChatStore;
  attachments: AttachmentStore;
  drafts: AttachmentDrafts;
  replies: ChatService;
  conversations: Conversations;
  outgoing: Outgoing;
}

/**
 * The chat's view of the MCP servers: the person's rules are the MCP service's, kept with each
 * server, so "Always allow" holds after a restart and shows (revocable) on the Tools screen.
 */
function chatTools(mcp: McpService, settings: ChatDeps['settings']): ChatTools {
  return {
    mcp,
    permissions: () => mcp.permissions(),
    alwaysAllow: async (serverId, tool) => {
      await mcp.setToolRule(serverId, tool, 'allow');
    },
    settings: async () => (await settings.get()).tools,
  };
}

export async function openChat(deps: ChatDeps): Promise<Chat> {
  const { db, emit, settings, models, dialogs, mcp } = deps;
  const store = await ChatStore.open(db, undefined, { trashDays: deps.trashDays ?? 0 });
  const attachments = new AttachmentStore(db);
  const drafts = new AttachmentDrafts(deps.readDocuments, async () => {
    const { attachments: limits } = await settings.get();
    return {
      maxBytes: limits.maxFileMb * 1024 * 1024,
      contextTokens: limits.contextTokens,
      imageMaxSide: limits.imageMaxSide,
    };
  });
  const acceptsImages = (model: string) => models.acceptsImages(model);
  const replies = new ChatService({
    store,
    attachments,
    ...(deps.retrieval ? { retrieval: deps.retrieval } : {}),
    emit,
    client: async (requestId) => (await deps.activeClient(requestId)).client,
    acceptsImages,
    defaults: async () => (await settings.get()).chatDefaults,
    ...(mcp ? { tools: chatTools(mcp, settings) } : {}),
  });
  deps.onClose(() => replies.close());
  const conversations = new Conversations({
    store,
    attachments,
    chat: replies,
    emit,
    dialogs,
    files: deps.files,
    prices: models.prices,
    // Off main's event loop where the app gives a worker; on it otherwise (some tests).
    readChosenFiles: deps.startImportWorker
      ? readInWorker(deps.startImportWorker)
      : readInProcess(),
    ...(deps.records ? { records: deps.records } : {}),
  });
  const outgoing = new Outgoing({ store, chat: replies, drafts, dialogs, acceptsImages, mcp });
  return { store, attachments, drafts, replies, conversations, outgoing };
}
