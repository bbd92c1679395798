/**
 * Files sent with a message: drafts while the person composes, rows with the message once sent,
 * and the text the model is sent for them.
 *
 * Drafts: a file attached in the composer is read at once (so a refusal comes while the person
 * is still there, by name, with why), and kept in memory under an id until it is sent or
 * discarded. A file chosen from disk is read again when the message is sent: what goes out is the
 * file as it is then, and one deleted or changed meanwhile is refused by name before anything is
 * written. A pasted file is kept as the bytes pasted.
 *
 * Stored: in the app's SQLite file (migration 4 says why), written in the transaction that
 * writes the message. The page sees each file's name, kind, size and token estimate, never its
 * bytes or text; it asks main to open a copy or save one.
 *
 * Sent: each file's text follows the message's own text as a delimited block that names the
 * file, its type and, for a PDF, each page (see `messageWithAttachments`). Images are checked and
 * scaled down in main when attached (`attachment-images.ts`), stored as scaled, and sent as image
 * parts of an OpenAI-style `content` array beside that text (see `messageContent`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import {
  MAX_ATTACHMENTS,
  type AttachmentInfo,
  type AttachmentKind,
  type AttachmentRefusal,
  type ChatMessageRecord,
} from '../../../shared/ipc/routes/chat';
import { AppError } from '../app-error';
import type { Db } from '../database';
import {
  DOCUMENT_LIMITS,
  extractDocument,
  type DocumentLimits,
  type DocumentPage,
  notAdded,
  type DocumentResult,
  type DocumentText,
} from '../documents/document-text';
import type { ReadDocuments } from '../documents/read-documents';
import { readRegularFile } from '../files/regular-file';
import {
  dataUrlOf,
  DEFAULT_IMAGE_MAX_SIDE,
  IMAGE_TOKENS,
  isImageName,
  prepareImage,
  thumbnailOf,
  type ImageResult,
} from './attachment-images';
import { imagesRefused } from '../../../shared/images-accepted';
import type { MessageValues } from '../../../shared/messages/keys';
import { said, type Said } from '../words';

/** The limits attachments are read under; the person sets the size cap. */
export interface AttachmentLimits {
  /** The largest file attached, in bytes. */
  maxBytes: number;
  /** The most tokens a message with its files may hold (the model's context, or a setting). */
  contextTokens: number;
  /** The longest side an image is scaled down to, in pixels. */
  imageMaxSide: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  maxBytes: 20 * 1024 * 1024,
  contextTokens: 128_000,
  imageMaxSide: DEFAULT_IMAGE_MAX_SIDE,
};

/** About four characters a token: the usual rule of thumb for English text and code. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

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

interface Draft {
  info: AttachmentInfo;
  /** Where it was read from (read again when sent), or the bytes pasted. */
  source: { path: string } | { bytes: Uint8Array };
}

function kindOf(document: DocumentText): AttachmentKind {
  return document.format === 'pdf' ? 'pdf' : 'text';
}

/** The text block sent for one file: what it is called and what it is, then its text. */
export function attachmentBlock(attachment: {
  name: string;
  mimeType: string;
  text: string;
  pages?: DocumentPage[] | undefined;
}): string {
  const name = attachment.name.replace(/[\r\n"]/g, ' ');
  const body =
    attachment.pages && attachment.pages.length > 0
      ? attachment.pages.map((page) => `[Page ${page.page}]\n${page.text}`).join('\n\n')
      : attachment.text;
  const pages = attachment.pages ? ` pages="${attachment.pages.length}"` : '';
  return `<attached-file name="${name}" type="${attachment.mimeType}"${pages}>\n${body}\n</attached-file>`;
}

/** One part of an OpenAI-style `content` array: text, or an image as a data: URL. */
export type ContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * What a user message is sent as: a plain string when it has no image (its text files as blocks
 * after its text, which any model reads), else a `content` array of that same text as one text
 * part, then one image part per image, in the order they were attached.
 */
export function messageContent(
  text: string,
  attachments: readonly (Parameters<typeof attachmentBlock>[0] & {
    kind?: AttachmentKind;
    data?: Uint8Array | undefined;
  })[],
): string | ContentPart[] {
  const images = attachments.filter((a) => a.kind === 'image');
  const texts = attachments.filter((a) => a.kind !== 'image');
  const joined = messageWithAttachments(text, texts);
  if (images.length === 0) return joined;
  return [
    ...(joined === '' ? [] : [{ type: 'text' as const, text: joined }]),
    ...images.map((image) => ({
      type: 'image_url' as const,
      image_url: { url: dataUrlOf(image.mimeType, image.data ?? new Uint8Array()) },
    })),
  ];
}

/** A user message's text with the blocks of its files after it, as the model is sent it. */
export function messageWithAttachments(
  text: string,
  attachments: readonly Parameters<typeof attachmentBlock>[0][],
): string {
  if (attachments.length === 0) return text;
  return [text, ...attachments.map(attachmentBlock)].join('\n\n');
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
  if (row.pages !== null) stored.pages = JSON.parse(row.pages) as DocumentPage[];
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
        ...(row.pages === null ? {} : { pages: JSON.parse(row.pages) as DocumentPage[] }),
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

/**
 * The sentence that stops a message with images to a model that reads none (said before it is
 * sent, instead of a 400 from the relay), naming the model and each image; undefined when it may
 * go. The composer says the same, from the same check (`shared/images-accepted.ts`).
 */
export function imagesRefusedFor(
  model: string,
  acceptsImages: boolean | undefined,
  files: readonly { name: string; kind: AttachmentKind }[],
): Said | undefined {
  return imagesRefused(model, acceptsImages, files);
}

/**
 * A file's refusal when it was attached ("… was not added: …"), said again at the sending:
 * "… was not sent: …", with the same reason.
 */
function notSent(refusal: {
  message: string;
  messageId?: string | undefined;
  values?: MessageValues | undefined;
}): Said | string {
  const english = refusal.message.replace(' was not added: ', ' was not sent: ');
  return refusal.messageId === 'documents.notAdded' && refusal.values !== undefined
    ? { id: 'documents.notSent', values: refusal.values, english }
    : english;
}

/**
 * The drafts of the composer: files read and waiting to be sent. Kept in main's memory only (a
 * draft is the person's choice of a moment; the app's restart forgets it, as it does the typed
 * text).
 */
export class AttachmentDrafts {
  readonly #drafts = new Map<string, Draft>();

  constructor(
    private readonly readDocuments: ReadDocuments,
    private readonly limits: () => Promise<AttachmentLimits>,
  ) {}

  #documentLimits(limits: AttachmentLimits): DocumentLimits {
    return { ...DOCUMENT_LIMITS, maxBytes: limits.maxBytes };
  }

  /** Checks a document read against the attachment cap (the reader's own cap is larger). */
  #accept(result: DocumentResult, limits: AttachmentLimits): DocumentResult {
    if (!result.ok || result.document.bytes <= limits.maxBytes) return result;
    return { ok: false, refusal: tooLarge(result.document.name, limits) };
  }

  #keep(document: DocumentText, source: Draft['source']): AttachmentInfo {
    const info: AttachmentInfo = {
      id: randomUUID(),
      name: document.name,
      kind: kindOf(document),
      mimeType: document.mimeType,
      bytes: document.bytes,
      tokens: estimateTokens(attachmentBlock(document)),
    };
    if (document.pages) info.pages = document.pages.length;
    this.#drafts.set(info.id, { info, source });
    return info;
  }

  async #keepImage(
    name: string,
    image: Extract<ImageResult, { ok: true }>['image'],
    source: Draft['source'],
  ): Promise<AttachmentInfo> {
    const info: AttachmentInfo = {
      id: randomUUID(),
      name,
      kind: 'image',
      mimeType: image.mimeType,
      bytes: image.data.length,
      tokens: IMAGE_TOKENS,
      width: image.width,
      height: image.height,
      thumbnail: await thumbnailOf(image.data),
    };
    this.#drafts.set(info.id, { info, source });
    return info;
  }

  /** Reads files from disk (chosen in main's dialog, or dropped) and keeps the good ones. */
  async attachPaths(paths: readonly string[]) {
    const limits = await this.limits();
    const documents = paths.filter((path) => !isImageName(basename(path)));
    const results = await this.readDocuments(documents);
    const attached: AttachmentInfo[] = [];
    const refused: AttachmentRefusal[] = [];
    let next = 0;
    for (const path of paths) {
      if (isImageName(basename(path))) {
        const image = await readImageFile(path, limits);
        if (image.ok) attached.push(await this.#keepImage(basename(path), image.image, { path }));
        else refused.push(refusalOf(image.refusal));
        continue;
      }
      const result = this.#accept(results[next++]!, limits);
      if (result.ok) attached.push(this.#keep(result.document, { path }));
      else refused.push(refusalOf(result.refusal));
    }
    return { attached, refused };
  }

  /** Reads a pasted file from its bytes and keeps it if it can be sent. */
  async attachBytes(name: string, bytes: Uint8Array) {
    const limits = await this.limits();
    const safeName = basename(name.replace(/\\/g, '/')) || 'pasted file';
    if (isImageName(safeName)) {
      const image = await checkImage(safeName, bytes, limits);
      if (!image.ok) return { attached: [], refused: [refusalOf(image.refusal)] };
      return { attached: [await this.#keepImage(safeName, image.image, { bytes })], refused: [] };
    }
    const result = this.#accept(
      await extractDocument(safeName, bytes, this.#documentLimits(limits)),
      limits,
    );
    if (!result.ok) return { attached: [], refused: [refusalOf(result.refusal)] };
    return { attached: [this.#keep(result.document, { bytes })], refused: [] };
  }

  discard(ids: readonly string[]): void {
    for (const id of ids) this.#drafts.delete(id);
  }

  /**
   * The drafts named, read again from disk where they came from it, ready to store. Refuses the
   * whole message, naming each file that cannot be sent and why, when any of them cannot; the
   * drafts are kept either way (the person may remove the bad one and send again).
   */
  async prepare(ids: readonly string[], text: string): Promise<ReadAttachment[]> {
    if (ids.length === 0) return [];
    if (ids.length > MAX_ATTACHMENTS)
      throw new AppError('invalid_request', said('attachments.tooMany', { max: MAX_ATTACHMENTS }));
    const limits = await this.limits();
    const drafts = ids.map((id) => {
      const draft = this.#drafts.get(id);
      if (draft === undefined) throw new AppError('invalid_request', said('attachments.notReady'));
      return draft;
    });
    const fromDisk = drafts.filter(
      (d): d is Draft & { source: { path: string } } =>
        'path' in d.source && d.info.kind !== 'image',
    );
    const reread = await this.readDocuments(fromDisk.map((d) => d.source.path));
    const problems: (Said | string)[] = [];
    const files: ReadAttachment[] = [];
    for (const draft of drafts) {
      if (draft.info.kind === 'image') {
        // Read and scaled again: the file as it is now, at the size set now.
        const image =
          'path' in draft.source
            ? await readImageFile(draft.source.path, limits)
            : await checkImage(draft.info.name, draft.source.bytes, limits);
        if (!image.ok) {
          problems.push(notSent(image.refusal));
          continue;
        }
        files.push({
          name: draft.info.name,
          kind: 'image',
          mimeType: image.image.mimeType,
          data: image.image.data,
          text: '',
        });
        continue;
      }
      let result: DocumentResult;
      let data: Uint8Array;
      if ('path' in draft.source) {
        result = this.#accept(reread[fromDisk.indexOf(draft as never)]!, limits);
        if (!result.ok) {
          problems.push(notSent(result.refusal));
          continue;
        }
        data = await readBytesOf(draft.source.path, result.document.bytes);
      } else {
        data = draft.source.bytes;
        result = await extractDocument(draft.info.name, data, this.#documentLimits(limits));
        if (!result.ok) {
          problems.push(notSent(result.refusal));
          continue;
        }
      }
      const { document } = result;
      const file: ReadAttachment = {
        name: draft.info.name,
        kind: kindOf(document),
        mimeType: document.mimeType,
        data,
        text: document.text,
      };
      if (document.pages) file.pages = document.pages;
      files.push(file);
    }
    if (problems.length === 1) throw new AppError('invalid_request', problems[0]!);
    if (problems.length > 1) throw new AppError('invalid_request', problems);
    const tokens =
      estimateTokens(text) +
      files.reduce(
        (sum, file) =>
          sum + (file.kind === 'image' ? IMAGE_TOKENS : estimateTokens(attachmentBlock(file))),
        0,
      );
    if (tokens > limits.contextTokens)
      throw new AppError(
        'invalid_request',
        said('attachments.tooManyTokens', { tokens, limit: limits.contextTokens }),
      );
    return files;
  }

  /** Forgets drafts once sent. */
  sent(ids: readonly string[]): void {
    this.discard(ids);
  }
}

function refusalOf(refusal: {
  name: string;
  reason: string;
  message: string;
  messageId?: string;
  values?: AttachmentRefusal['values'];
}): AttachmentRefusal {
  const { name, reason, message, messageId, values } = refusal;
  return {
    name,
    reason,
    message,
    ...(messageId ? { messageId } : {}),
    ...(values ? { values } : {}),
  };
}

/** A file over the person's size cap for attachments. */
function tooLarge(name: string, limits: AttachmentLimits) {
  return {
    name,
    reason: 'too_large' as const,
    ...notAdded(name, said('attachments.why.tooLarge', { size: megabyteCount(limits.maxBytes) })),
  };
}

/** Checks an image's bytes against the size cap, then reads and scales it. */
async function checkImage(
  name: string,
  bytes: Uint8Array,
  limits: AttachmentLimits,
): Promise<ImageResult> {
  if (bytes.length > limits.maxBytes) return { ok: false, refusal: tooLarge(name, limits) };
  return prepareImage(name, bytes, limits.imageMaxSide);
}

/** Reads an image from disk (with the guards every file read has), then checks and scales it. */
async function readImageFile(path: string, limits: AttachmentLimits): Promise<ImageResult> {
  const name = basename(path);
  const read = await readRegularFile(path, limits.maxBytes);
  if (read.ok) return checkImage(name, read.bytes, limits);
  const refused = (reason: string, why: Said): ImageResult => ({
    ok: false,
    refusal: { name, reason, ...notAdded(name, why) },
  });
  switch (read.problem) {
    case 'not_regular':
      return refused('not_regular', said('documents.why.notRegular'));
    case 'too_large':
      return refused(
        'too_large',
        said('attachments.why.tooLarge', { size: megabyteCount(limits.maxBytes) }),
      );
    case 'changed':
      return refused('unreadable', said('documents.why.changed'));
    case 'missing':
      return refused('missing', said('documents.why.missing'));
    case 'unreadable':
      return refused('unreadable', said('documents.why.unreadable', { code: read.code }));
  }
}

/** Megabytes, whole or to a tenth, for a message ("… the {size} MB allowed …"). */
function megabyteCount(bytes: number): number {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? mb : Number(mb.toFixed(1));
}

/**
 * The bytes of a file just read for its text (the worker gives the text, not the bytes): read
 * again with the same guards; a file that changed in between is refused.
 */
async function readBytesOf(path: string, expected: number): Promise<Uint8Array> {
  const read = await readRegularFile(path, expected);
  if (!read.ok || read.bytes.length !== expected)
    throw new AppError('invalid_request', said('attachments.changed', { name: basename(path) }));
  return read.bytes;
}
