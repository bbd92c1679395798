import {
  MAX_ATTACHMENTS,
  type AttachmentInfo,
  type AttachmentRefusal,
  type CHAT_ROUTES,
} from '../../../shared/ipc/routes/chat';
import type { AppContext } from '../../app-context';
import { AppError } from '../../services/app-error';
import { openAttachment, saveAttachment } from '../../services/chat/attachment-files';
import {
  AttachmentDrafts,
  AttachmentStore,
  imagesRefusedFor,
  type ReadAttachment,
} from '../../services/chat/attachments';
import { ChatService } from '../../services/chat/chat-service';
import { ChatStore } from '../../services/chat/store';
import type { ReplyRetrieval } from '../../services/knowledge/retrieval';
import { exportToFile } from '../../services/chat/export-file';
import { readInProcess, readInWorker } from '../../services/chat/import-reader';
import { importFromFiles, type RetrievalRecords } from '../../services/chat/transfer';
import { conversationCost, usageReport } from '../../services/chat/usage';
import type { Handlers } from '../router';
import { saved } from './saved-files';
import { nativeText, said } from '../../services/words';
import type { ChatTools } from '../../services/chat/chat-tools';
import type { McpService } from '../../services/mcp/mcp-service';
import { resourceFiles } from '../../services/mcp/resource-files';

/** What the attach dialog offers first; "All files" lets any text file with another name in. */
const ATTACHABLE_EXTENSIONS = [
  'txt',
  'md',
  'markdown',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'html',
  'htm',
  'pdf',
  'docx',
  'log',
  'ts',
  'tsx',
  'js',
  'jsx',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'c',
  'h',
  'cpp',
  'cs',
  'php',
  'sh',
  'sql',
  'css',
  'yaml',
  'yml',
  'toml',
  'xml',
  'png',
  'jpg',
  'jpeg',
  'webp',
  'gif',
];

function found<T>(value: T | undefined): T {
  if (value === undefined) throw new AppError('not_found', said('chat.conversationGone'));
  return value;
}

/**
 * The chat's view of the MCP servers: the person's rules are the MCP service's, kept with each
 * server, so "Always allow" holds after a restart and shows (revocable) on the Tools screen.
 */
function chatTools(mcp: McpService, context: AppContext): ChatTools {
  return {
    mcp,
    permissions: () => mcp.permissions(),
    alwaysAllow: async (serverId, tool) => {
      await mcp.setToolRule(serverId, tool, 'allow');
    },
    settings: async () => (await context.settings.get()).tools,
  };
}

/** The handlers of the chat routes: a line or two each, over the chat services. */
export async function chatHandlers(
  context: AppContext,
  retrieval?: ReplyRetrieval,
  /** The replies' retrieval records, which exports and imports carry. */
  records?: RetrievalRecords,
  /** Days a deleted conversation stays restorable (sync keeps 30); purged at start if 0. */
  options: { trashDays?: number } = {},
): Promise<Handlers<typeof CHAT_ROUTES>> {
  const store = await ChatStore.open(context.db, undefined, options);
  const attachments = new AttachmentStore(context.db);
  const drafts = new AttachmentDrafts(context.readDocuments, async () => {
    const { attachments: limits } = await context.settings.get();
    return {
      maxBytes: limits.maxFileMb * 1024 * 1024,
      contextTokens: limits.contextTokens,
      imageMaxSide: limits.imageMaxSide,
    };
  });
  const chat = new ChatService({
    store,
    attachments,
    ...(retrieval ? { retrieval } : {}),
    emit: context.emit,
    client: async (requestId) => (await context.activeClient(requestId)).client,
    acceptsImages: (model) => context.models.acceptsImages(model),
    defaults: async () => (await context.settings.get()).chatDefaults,
    ...(context.mcp ? { tools: chatTools(context.mcp, context) } : {}),
  });
  context.onClose(() => chat.close());
  // Off main's event loop where the app gives a worker; on it otherwise (some tests).
  const readChosenFiles = context.startImportWorker
    ? readInWorker(context.startImportWorker)
    : readInProcess();
  /** Images to a model that reads none: refused before sending, naming the model and images. */
  const refuseImagesFor = async (models: readonly string[], files: readonly ReadAttachment[]) => {
    if (!files.some((f) => f.kind === 'image')) return;
    for (const model of new Set(models)) {
      const refused = imagesRefusedFor(model, await context.models.acceptsImages(model), files);
      if (refused !== undefined) throw new AppError('invalid_request', refused);
    }
  };
  const withCompare = (id: string) => {
    const compare = store.openCompare(id);
    return compare === undefined ? {} : { compare };
  };

  return {
    listConversations: (page) => store.list(page ?? {}),
    createConversation: (draft) => store.create(draft ?? {}),
    renameConversation: ({ id, title }) => found(store.update(id, { title })),
    setConversationPinned: ({ id, pinned }) => found(store.update(id, { pinned })),
    deleteConversation: async ({ id }) => {
      await chat.stopConversation(id);
      found(store.softDelete(id) ? true : undefined);
      return null;
    },
    restoreConversation: ({ id }) => found(store.restore(id)),
    getConversation: ({ id, limit, beforeId, fromId, afterId }) => {
      const conversation = found(store.get(id));
      if (afterId !== undefined) {
        const page = store.pathAfter(id, afterId, { limit: limit ?? 10_000, inclusive: false });
        if (page === undefined) throw new AppError('not_found', said('chat.messageOffPath'));
        return {
          conversation,
          ...page,
          messages: attachments.decorate(page.messages),
          hasOlder: true,
          ...(page.hasNewer ? {} : withCompare(id)),
        };
      }
      const path = store.path(id, { limit, beforeId, fromId });
      return {
        conversation,
        ...path,
        messages: attachments.decorate(path.messages),
        hasNewer: false,
        ...(beforeId === undefined ? withCompare(id) : {}),
      };
    },
    showVersion: ({ messageId, limit }) => {
      const shown = store.showMessage(messageId);
      if (shown === undefined) throw new AppError('not_found', said('chat.messageGone'));
      const { conversationId, leafId } = shown;
      const page =
        limit === undefined
          ? { messages: store.pathFrom(conversationId, messageId), hasNewer: false }
          : (store.pathAfter(conversationId, messageId, { limit, inclusive: true }) ?? {
              messages: [],
              hasNewer: false,
            });
      // A reply still being written at the end of the path, beyond the page: given too, so that
      // the view shows it (and its text as it streams) at once.
      const leaf = page.hasNewer
        ? store.pathAfter(conversationId, leafId, { limit: 1, inclusive: true })?.messages[0]
        : undefined;
      const end = leaf?.status === 'streaming' ? attachments.decorate([leaf])[0] : undefined;
      return {
        conversation: found(store.get(conversationId)),
        ...page,
        messages: attachments.decorate(page.messages),
        leafId,
        ...(end ? { end } : {}),
        ...(page.hasNewer ? {} : withCompare(conversationId)),
      };
    },
    forkConversation: ({ messageId }) => chat.fork(messageId).conversation,
    updateConversationSettings: ({ id, ...changes }) => found(store.update(id, changes)),
    sendMessage: async ({ conversationId, text, attachmentIds = [], options }) => {
      const files = await drafts.prepare(attachmentIds, text);
      const model = store.get(conversationId)?.model;
      await refuseImagesFor(model ? [model] : [], files);
      const sent = await chat.send(conversationId, text, options, files);
      drafts.sent(attachmentIds);
      return sent;
    },
    attachFiles: async () => {
      const paths = await context.dialogs.chooseOpenPaths({
        title: nativeText('dialog.attachFiles'),
        multiple: true,
        filters: [
          {
            name: nativeText('dialog.attachableFilter'),
            extensions: ATTACHABLE_EXTENSIONS,
          },
          { name: nativeText('dialog.allFiles'), extensions: ['*'] },
        ],
      });
      return drafts.attachPaths(paths.slice(0, MAX_ATTACHMENTS));
    },
    attachDropped: ({ grants }, sender) =>
      drafts.attachPaths(
        context.grants.take(grants, { webContentsId: sender.webContentsId, purpose: 'attach' }),
      ),
    attachBytes: ({ name, base64 }) =>
      drafts.attachBytes(name, new Uint8Array(Buffer.from(base64, 'base64'))),
    discardAttachments: ({ ids }) => (drafts.discard(ids), null),
    attachMcpResource: async ({ serverId, uri }) => {
      if (!context.mcp) throw new AppError('not_found', said('tools.serverGone'));
      const read = await context.mcp.readResource(serverId, uri);
      const result: { attached: AttachmentInfo[]; refused: AttachmentRefusal[] } = {
        attached: [],
        refused: [],
      };
      for (const file of resourceFiles(read.resource, read.contents).slice(0, MAX_ATTACHMENTS)) {
        if (!file.ok) {
          result.refused.push(file.refusal);
          continue;
        }
        const one = await drafts.attachBytes(file.name, file.bytes);
        result.attached.push(...one.attached);
        result.refused.push(...one.refused);
      }
      if (result.attached.length === 0 && result.refused.length === 0)
        throw new AppError('invalid_request', said('tools.resource.empty', { uri }));
      return result;
    },
    attachmentThumbnail: async ({ id }) => ({ url: (await attachments.thumbnail(id)) ?? null }),
    openAttachment: async ({ id }) => {
      await openAttachment(attachments, context.files, id);
      return null;
    },
    saveAttachment: async ({ id }) =>
      saved(context, await saveAttachment(attachments, context.dialogs, id)),
    answerToolCall: ({ replyId, callId, answer }) => chat.answerToolCall(replyId, callId, answer),
    stopReply: ({ replyId }) => ({ stopped: chat.stop(replyId) }),
    regenerateReply: ({ conversationId, replyId, options }) =>
      chat.regenerate(conversationId, { ...options, replyId }),
    continueReply: ({ replyId, options }) => chat.continueReply(replyId, options),
    compareMessage: async ({ conversationId, text, targets, attachmentIds = [], options }) => {
      const files = await drafts.prepare(attachmentIds, text);
      await refuseImagesFor(
        targets.map((t) => t.model),
        files,
      );
      const started = await chat.compare(conversationId, text, targets, options, files);
      drafts.sent(attachmentIds);
      return started;
    },
    continueWith: async ({ replyId }) => (await chat.continueWith(replyId), null),
    chatFrameReady: () => chat.frameShown(),
    editMessage: ({ messageId, text, options }) => chat.edit(messageId, text, options),
    getConversationCost: async ({ id }) => {
      found(store.get(id));
      return conversationCost(store, await context.models.prices.get(), id);
    },
    getUsage: async ({ days }) => usageReport(store, await context.models.prices.get(), days),
    searchMessages: ({ query, limit }) => store.search(query, limit),
    exportConversations: async ({ ids, format }) =>
      saved(
        context,
        await exportToFile(store, ids, format, context.dialogs, {
          attachments,
          ...(records ? { records } : {}),
        }),
      ),
    importConversations: async () => {
      const imported = await importFromFiles(store, context.dialogs, readChosenFiles, {
        attachments,
        ...(records ? { records } : {}),
      });
      if (!imported.cancelled) context.emit('conversationsChanged', null);
      return imported;
    },
  };
}
