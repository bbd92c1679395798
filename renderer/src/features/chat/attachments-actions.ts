/**
 * What the composer's files and a sent message's files ask of main. The page never reads a file
 * from disk and never names a path: see `attachments.tsx`.
 */
import { imagesRefused } from '../../../../electron/shared/images-accepted';
import { t } from '../../i18n/i18n';
import { failureOf, mainMessageText } from '../../lib/errors';
import { relayBridge, requireBridge } from '../../lib/relay-bridge';
import { showSavedToast, showToast } from '../../lib/toasts';
import type { AttachmentInfo, AttachmentRefusal } from './chat-types';

export interface Attached {
  attached: AttachmentInfo[];
  refused: AttachmentRefusal[];
}

/** Files attached to a draft that will not be sent: main forgets them. */
export function discardAttachments(ids: string[]): void {
  void relayBridge()?.discardAttachments({ ids });
}

/** Files chosen in main's own dialog. */
export function attachPicked(): Promise<Attached> {
  return requireBridge().attachFiles();
}

/** A resource of an MCP server, by the server's id and the URI it listed (main reads it). */
export function attachResource(serverId: string, uri: string): Promise<Attached> {
  return requireBridge().attachMcpResource({ serverId, uri });
}

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Files dropped or pasted: each one on disk by the grant main gave the preload for it, any other
 * (pasted, or dropped from somewhere that is not a disk) as the bytes the page was given.
 */
export async function attachDroppedFiles(list: readonly File[]): Promise<Attached> {
  const bridge = requireBridge();
  const granted = (await bridge.grantDroppedFiles?.(list, 'attach')) ?? list.map(() => null);
  const grants = granted.filter((grant): grant is string => grant !== null);
  const inMemory = list.filter((_, index) => granted[index] === null);
  const attached: AttachmentInfo[] = [];
  const refused: AttachmentRefusal[] = [];
  if (grants.length > 0) {
    const result = await bridge.attachDropped({ grants });
    attached.push(...result.attached);
    refused.push(...result.refused);
  }
  for (const file of inMemory) {
    const result = await bridge.attachBytes({
      name: file.name || t('chat.attachments.pastedName'),
      base64: await base64Of(file),
    });
    attached.push(...result.attached);
    refused.push(...result.refused);
  }
  return { attached, refused };
}

/**
 * What stops a message with images to a model that reads none (as the model list says, with the
 * person's own setting), naming the model and each image; undefined when it may be sent. Main
 * refuses the same message with the same words if it gets there anyway.
 */
export async function imagesWarning(
  model: string,
  files: readonly AttachmentInfo[],
): Promise<string | undefined> {
  if (!files.some((f) => f.kind === 'image')) return undefined;
  let accepts: boolean | undefined;
  try {
    accepts = (await requireBridge().listModels()).models.find(
      (m) => m.id === model,
    )?.acceptsImages;
  } catch {
    return undefined; // No list to go by: main and the relay decide.
  }
  // The same check, and the same words, as main's refusal of such a message.
  const refused = imagesRefused(model, accepts, files);
  return refused
    ? mainMessageText({ message: refused.english, messageId: refused.id, values: refused.values })
    : undefined;
}

/** Thumbnails of sent images, by attachment id, kept while the page lives (they never change). */
const thumbnails = new Map<string, Promise<string | null>>();

/** An image's thumbnail as a data: URL made in main, or null when there is none. */
export function thumbnailOf(id: string): Promise<string | null> {
  let url = thumbnails.get(id);
  if (url === undefined) {
    url = requireBridge()
      .attachmentThumbnail({ id })
      .then((answer) => answer.url)
      .catch(() => null);
    thumbnails.set(id, url);
  }
  return url;
}

export async function openFile(file: AttachmentInfo) {
  try {
    await requireBridge().openAttachment({ id: file.id });
  } catch (error) {
    showToast(
      t('chat.attachments.notOpened', { name: file.name, message: failureOf(error).message }),
      { tone: 'error' },
    );
  }
}

export async function saveFile(file: AttachmentInfo) {
  try {
    const result = await requireBridge().saveAttachment({ id: file.id });
    if (result.saved && result.path)
      showSavedToast(t('chat.attachments.saved', { name: file.name }), result.savedId);
  } catch (error) {
    showToast(
      t('chat.attachments.notSaved', { name: file.name, message: failureOf(error).message }),
      { tone: 'error' },
    );
  }
}
