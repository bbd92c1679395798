/**
 * Files sent with a message, as stored: in the app's SQLite file (migration 4 says why), written
 * in the transaction that writes the message, each file's bytes once under their SHA-256. The
 * page sees each file's name, kind, size and token estimate, never its bytes or text; it asks
 * main to open a copy or save one.
 */
import { createHash, randomUUID } from 'node:crypto';
import type {
  AttachmentInfo,
  AttachmentKind,
  ChatMessageRecord,
} from '../../../shared/ipc/routes/chat';
import { parseStoredJson, type Db } from '../database';
import type { DocumentPage } from '../documents/document-text';
import { z } from 'zod';
import { attachmentBlock, estimateTokens } from './attachment-format';
import { IMAGE_TOKENS, thumbnailOf } from './attachment-images';

/** A file read and ready to be stored with a message. */
export interface ReadAttachment {
  name: string;
  kind: AttachmentKind;
  mimeType: string;
  data: Uint8Array;
  text: string;
  pages?: DocumentPage[];
}

/** A stored attachment with what the model is sent for it. */
export interface StoredAttachment extends Omit<AttachmentInfo, 'pages'> {
  messageId: string;
  text: string;
  pages?: DocumentPage[];
  /** An image's bytes, where a request needs them (`forRequest`). */
  data?: Uint8Array | undefined;
}

interface AttachmentRow {
  id: string;
  message_id: string;
  name: string;
  kind: AttachmentKind;
  mime_type: string;
  bytes: number;
  text: string;
  pages: string | null;
}

const pagesSchema = z.array(z.object({ page: z.number().int().positive(), text: z.string() }));

/** A file's stored pages; a damaged value reads as none (the file's text is all it needs). */
function storedPages(json: string | null): DocumentPage[] | undefined {
  return json === null ? undefined : parseStoredJson(json, pagesSchema);
}

function withPages(pages: DocumentPage[] | undefined): { pages?: DocumentPage[] } {
  return pages ? { pages } : {};
}

function toStored(row: AttachmentRow): StoredAttachment {
  const stored: StoredAttachment = {
    id: row.id,
    messageId: row.message_id,
    name: row.name,
    kind: row.kind,
    mimeType: row.mime_type,
    bytes: row.bytes,
    tokens: 0,
    text: row.text,
  };
  const pages = storedPages(row.pages);
  if (pages) stored.pages = pages;
  stored.tokens = row.kind === 'image' ? IMAGE_TOKENS : estimateTokens(attachmentBlock(stored));
  return stored;
}

/** Only the fields the page sees. */
export function infoOf(stored: StoredAttachment): AttachmentInfo {
  const info: AttachmentInfo = {
    id: stored.id,
    name: stored.name,
    kind: stored.kind,
    mimeType: stored.mimeType,
    bytes: stored.bytes,
    tokens: stored.tokens,
  };
  if (stored.pages) info.pages = stored.pages.length;
  return info;
}

/** A stored file as another device sends it (see `AttachmentStore.addSynced`). */
export interface SyncedAttachment {
  id: string;
  position: number;
  name: string;
  kind: AttachmentKind;
  mimeType: string;
  bytes: number;
  sha256: string;
  text: string;
  pages?: DocumentPage[] | undefined;
  createdAt: string;
}

/** The attachments table (migration 4): plain reads and writes. */
export class AttachmentStore {
  constructor(private readonly db: Db) {}

  /** Stores files with a message, in order; call inside the transaction that writes it. */
  add(messageId: string, files: readonly ReadAttachment[]): void {
    const stamp = new Date().toISOString();
    files.forEach((file, position) => {
      const sha256 = createHash('sha256').update(file.data).digest('hex');
      this.db.run('INSERT OR IGNORE INTO chat_attachment_blobs (sha256, data) VALUES (?, ?)', [
        sha256,
        file.data,
      ]);
      this.db.run(
        `INSERT INTO chat_attachments (id, message_id, position, name, kind, mime_type, bytes,
          sha256, text, pages, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          randomUUID(),
          messageId,
          position,
          file.name,
          file.kind,
          file.mimeType,
          file.data.length,
          sha256,
          file.text,
          file.pages ? JSON.stringify(file.pages) : null,
          stamp,
        ],
      );
    });
  }

  /**
   * Stores files that came with a message from another device, as they were there (ids,
   * positions, the text read from them), once their bytes are here: `content` is given when they
   * arrive with the rows, and otherwise must already be stored under each file's SHA-256.
   */
  addSynced(
    messageId: string,
    files: readonly SyncedAttachment[],
    content?: ReadonlyMap<string, Uint8Array>,
  ): void {
    for (const file of files) {
      const data = content?.get(file.sha256);
      if (data !== undefined)
        this.db.run('INSERT OR IGNORE INTO chat_attachment_blobs (sha256, data) VALUES (?, ?)', [
          file.sha256,
          data,
        ]);
      this.db.run(
        `INSERT OR IGNORE INTO chat_attachments (id, message_id, position, name, kind, mime_type,
          bytes, sha256, text, pages, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          file.id,
          messageId,
          file.position,
          file.name,
          file.kind,
          file.mimeType,
          file.bytes,
          file.sha256,
          file.text,
          file.pages ? JSON.stringify(file.pages) : null,
          file.createdAt,
        ],
      );
    }
  }

  /** Whether the bytes of a SHA-256 are stored here. */
  hasContent(sha256: string): boolean {
    return (
      this.db.one('SELECT 1 AS found FROM chat_attachment_blobs WHERE sha256 = ?', [sha256]) !==
      undefined
    );
  }

  /** Gives `to` the files of `from` (an edit, a branch): new rows over the same bytes. */
  copy(from: string, to: string): void {
    this.db.run(
      `INSERT INTO chat_attachments (id, message_id, position, name, kind, mime_type, bytes, sha256,
          text, pages, created_at)
        SELECT lower(hex(randomblob(16))), ?, position, name, kind, mime_type, bytes, sha256, text,
          pages, created_at
        FROM chat_attachments WHERE message_id = ? ORDER BY position`,
      [to, from],
    );
  }

  /** The files of each message that has any, in order. */
  forMessages(messageIds: readonly string[]): Map<string, StoredAttachment[]> {
    const out = new Map<string, StoredAttachment[]>();
    if (messageIds.length === 0) return out;
    for (const row of this.db.all<AttachmentRow>(
      `SELECT id, message_id, name, kind, mime_type, bytes, text, pages FROM chat_attachments
        WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, position`,
      [JSON.stringify(messageIds)],
    )) {
      const stored = toStored(row);
      const list = out.get(row.message_id);
      if (list) list.push(stored);
      else out.set(row.message_id, [stored]);
    }
    return out;
  }

  /**
   * The files of each message as a request sends them: `forMessages`, with the bytes of each
   * image (sent as a data: URL; text files are sent as their stored text).
   */
  forRequest(messageIds: readonly string[]): Map<string, StoredAttachment[]> {
    const out = this.forMessages(messageIds);
    for (const list of out.values())
      for (const [index, file] of list.entries())
        if (file.kind === 'image') list[index] = { ...file, data: this.file(file.id)?.data };
    return out;
  }

  /** A thumbnail of a stored image (a data: URL), or undefined for another kind of file. */
  async thumbnail(id: string): Promise<string | undefined> {
    const row = this.db.one<{ kind: AttachmentKind }>(
      'SELECT kind FROM chat_attachments WHERE id = ?',
      [id],
    );
    if (row?.kind !== 'image') return undefined;
    const file = this.file(id);
    return file && (await thumbnailOf(file.data));
  }

  /** One stored file with its bytes (to open or save), or undefined. */
  file(
    id: string,
  ): { name: string; kind: AttachmentKind; mimeType: string; data: Uint8Array } | undefined {
    const row = this.db.one<{
      name: string;
      kind: AttachmentKind;
      mime_type: string;
      data: Uint8Array;
    }>(
      `SELECT a.name, a.kind, a.mime_type, b.data FROM chat_attachments a
        JOIN chat_attachment_blobs b ON b.sha256 = a.sha256
        JOIN chat_messages m ON m.id = a.message_id
        JOIN chat_conversations c ON c.id = m.conversation_id
        WHERE a.id = ? AND c.deleted_at IS NULL`,
      [id],
    );
    return (
      row && {
        name: row.name,
        kind: row.kind,
        mimeType: row.mime_type,
        data: new Uint8Array(row.data),
      }
    );
  }

  /**
   * The files of each message that has any, in order, as an export lists them: with the SHA-256
   * that names their bytes (`content`) and the text read from them.
   */
  forExport(
    messageIds: readonly string[],
  ): Map<
    string,
    Array<Omit<StoredAttachment, 'id' | 'messageId' | 'tokens' | 'data'> & { sha256: string }>
  > {
    const out = new Map<
      string,
      Array<Omit<StoredAttachment, 'id' | 'messageId' | 'tokens' | 'data'> & { sha256: string }>
    >();
    if (messageIds.length === 0) return out;
    for (const row of this.db.all<AttachmentRow & { sha256: string }>(
      `SELECT id, message_id, name, kind, mime_type, bytes, sha256, text, pages FROM chat_attachments
        WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, position`,
      [JSON.stringify(messageIds)],
    )) {
      const file = {
        name: row.name,
        kind: row.kind,
        mimeType: row.mime_type,
        bytes: row.bytes,
        sha256: row.sha256,
        text: row.text,
        ...withPages(storedPages(row.pages)),
      };
      const list = out.get(row.message_id);
      if (list) list.push(file);
      else out.set(row.message_id, [file]);
    }
    return out;
  }

  /** The bytes stored under a SHA-256, or undefined. */
  content(sha256: string): Uint8Array | undefined {
    const row = this.db.one<{ data: Uint8Array }>(
      'SELECT data FROM chat_attachment_blobs WHERE sha256 = ?',
      [sha256],
    );
    return row && new Uint8Array(row.data);
  }

  /** Adds each message's files (info only) to the messages that have any. */
  decorate(messages: ChatMessageRecord[]): ChatMessageRecord[] {
    const files = this.forMessages(messages.map((m) => m.id));
    if (files.size === 0) return messages;
    return messages.map((message) => {
      const list = files.get(message.id);
      return list ? { ...message, attachments: list.map(infoOf) } : message;
    });
  }
}
