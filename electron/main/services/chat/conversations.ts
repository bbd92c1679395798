/**
 * The conversations as the page reads them: pages of a conversation's path with their files and
 * an open comparison, a version shown, costs, usage, search, and exports and imports.
 */
import type { Emit } from '../../../shared/ipc/contract';
import type { Dialogs } from '../../app-context';
import { AppError } from '../app-error';
import type { ModelCatalog } from '../models/model-catalog';
import { said } from '../words';
import type { AttachmentStore } from './attachments';
import { openAttachment, saveAttachment } from './attachment-files';
import type { ChatService } from './chat-service';
import { exportToFile, type ExportFileFormat } from './export-file';
import type { ReadChosenFiles } from './import-reader';
import type { ChatStore } from './store';
import { importFromFiles, type RetrievalRecords } from './transfer';
import { conversationCost, usageReport } from './usage';
import type { FileOpener } from '../files/file-opener';

export interface ConversationsOptions {
  store: ChatStore;
  attachments: AttachmentStore;
  chat: ChatService;
  emit: Emit;
  dialogs: Dialogs;
  files: FileOpener;
  prices: ModelCatalog['prices'];
  /** Reads the files chosen for an import (in a worker where the app gives one). */
  readChosenFiles: ReadChosenFiles;
  /** The replies' retrieval records, which exports and imports carry. */
  records?: RetrievalRecords;
}

/** The value, or `not_found`: the conversation is gone. */
export function found<T>(value: T | undefined): T {
  if (value === undefined) throw new AppError('not_found', said('chat.conversationGone'));
  return value;
}

/** A conversation's page of messages: before or from a message, or after one. */
export interface PageRequest {
  id: string;
  limit?: number | undefined;
  beforeId?: string | undefined;
  fromId?: string | undefined;
  afterId?: string | undefined;
}

export class Conversations {
  readonly #o: ConversationsOptions;

  constructor(options: ConversationsOptions) {
    this.#o = options;
  }

  /** Stops its replies, then moves it to the trash. */
  async delete(id: string): Promise<null> {
    await this.#o.chat.stopConversation(id);
    found(this.#o.store.softDelete(id) ? true : undefined);
    return null;
  }

  /** A page of the conversation's path, its messages with their files; the comparison open at its end. */
  page({ id, limit, beforeId, fromId, afterId }: PageRequest) {
    const { store, attachments } = this.#o;
    const conversation = found(store.get(id));
    if (afterId !== undefined) {
      const page = store.pathAfter(id, afterId, { limit: limit ?? 10_000, inclusive: false });
      if (page === undefined) throw new AppError('not_found', said('chat.messageOffPath'));
      return {
        conversation,
        ...page,
        messages: attachments.decorate(page.messages),
        hasOlder: true,
        ...(page.hasNewer ? {} : this.#compare(id)),
      };
    }
    const path = store.path(id, { limit, beforeId, fromId });
    return {
      conversation,
      ...path,
      messages: attachments.decorate(path.messages),
      hasNewer: false,
      ...(beforeId === undefined ? this.#compare(id) : {}),
    };
  }

  /** Shows another version of a message: the path from it, a page of it if `limit` is given. */
  showVersion(messageId: string, limit: number | undefined) {
    const { store, attachments } = this.#o;
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
      ...(page.hasNewer ? {} : this.#compare(conversationId)),
    };
  }

  async cost(id: string) {
    found(this.#o.store.get(id));
    return conversationCost(this.#o.store, await this.#o.prices.get(), id);
  }

  async usage(days: number) {
    return usageReport(this.#o.store, await this.#o.prices.get(), days);
  }

  async openAttachment(id: string): Promise<null> {
    await openAttachment(this.#o.attachments, this.#o.files, id);
    return null;
  }

  saveAttachment(id: string) {
    return saveAttachment(this.#o.attachments, this.#o.dialogs, id);
  }

  async thumbnail(id: string) {
    return { url: (await this.#o.attachments.thumbnail(id)) ?? null };
  }

  export(ids: string[], format: ExportFileFormat) {
    const { store, dialogs, attachments, records } = this.#o;
    return exportToFile(store, ids, format, dialogs, {
      attachments,
      ...(records ? { records } : {}),
    });
  }

  /** Imports the files the person chooses; the conversation list changes if any came in. */
  async import() {
    const { store, dialogs, readChosenFiles, attachments, records } = this.#o;
    const imported = await importFromFiles(store, dialogs, readChosenFiles, {
      attachments,
      ...(records ? { records } : {}),
    });
    if (!imported.cancelled) this.#o.emit('conversationsChanged', null);
    return imported;
  }

  #compare(id: string) {
    const compare = this.#o.store.openCompare(id);
    return compare === undefined ? {} : { compare };
  }
}
