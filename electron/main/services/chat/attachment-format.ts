/**
 * What the model is sent for the files of a message: each file's text follows the message's own
 * text as a delimited block that names the file, its type and, for a PDF, each page
 * (`messageWithAttachments`); images go as image parts of an OpenAI-style `content` array beside
 * that text (`messageContent`). Also the token estimate the budgets are counted in, and the check
 * that stops images to a model that reads none.
 */
import type { AttachmentKind } from '../../../shared/ipc/routes/chat';
import { imagesRefused } from '../../../shared/images-accepted';
import type { DocumentPage } from '../documents/document-text';
import { dataUrlOf } from './attachment-images';
import type { Said } from '../words';

/** About four characters a token: the usual rule of thumb for English text and code. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
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
