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
 *
 * The parts: the drafts (attachment-drafts.ts), the store (attachment-store.ts) and what a
 * request sends (attachment-format.ts); this module gives them under one name.
 */
export { AttachmentDrafts } from './attachment-drafts';
export {
  attachmentBlock,
  estimateTokens,
  imagesRefusedFor,
  messageContent,
  messageWithAttachments,
} from './attachment-format';
export {
  AttachmentStore,
  type ReadAttachment,
  type StoredAttachment,
  type SyncedAttachment,
} from './attachment-store';
