/**
 * The drafts of the composer: a file attached is read at once (so a refusal comes while the
 * person is still there, by name, with why), and kept in memory under an id until it is sent or
 * discarded. A file chosen from disk is read again when the message is sent: what goes out is the
 * file as it is then, and one deleted or changed meanwhile is refused by name before anything is
 * written. A pasted file is kept as the bytes pasted. Images are checked and scaled down when
 * attached (`attachment-images.ts`) and again when sent. The message with its files must fit the
 * token budget (`AttachmentLimits.contextTokens`).
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import {
  MAX_ATTACHMENTS,
  type AttachmentInfo,
  type AttachmentKind,
  type AttachmentRefusal,
} from '../../../shared/ipc/routes/chat';
import { AppError } from '../app-error';
import {
  DOCUMENT_LIMITS,
  extractDocument,
  type DocumentLimits,
  notAdded,
  type DocumentResult,
  type DocumentText,
} from '../documents/document-text';
import { unreadRefusal, type ReadDocuments } from '../documents/read-documents';
import { readRegularFile } from '../files/regular-file';
import { attachmentBlock, estimateTokens } from './attachment-format';
import {
  DEFAULT_IMAGE_MAX_SIDE,
  IMAGE_TOKENS,
  isImageName,
  prepareImage,
  thumbnailOf,
  type ImageResult,
} from './attachment-images';
import type { ReadAttachment } from './attachment-store';
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

interface Draft {
  info: AttachmentInfo;
  /** Where it was read from (read again when sent), or the bytes pasted. */
  source: { path: string } | { bytes: Uint8Array };
}

function kindOf(document: DocumentText): AttachmentKind {
  return document.format === 'pdf' ? 'pdf' : 'text';
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
  return unreadRefusal(
    name,
    read,
    said('attachments.why.tooLarge', { size: megabyteCount(limits.maxBytes) }),
  );
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
