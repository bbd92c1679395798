/**
 * Conversations to and from files: Markdown to read, JSON to keep and import, a zip for several.
 *
 * An import is checked whole before anything is written, and written in one transaction: a bad
 * file is refused with what is wrong and where, and imports nothing.
 *
 * JSON keeps the whole tree (version 2: each message with its id and its parent's, and the path
 * shown); version 1 files, written before conversations were trees, import as one path. Markdown
 * holds the path shown, and says so when the conversation has other versions of messages.
 */
import { zipSync, strToU8 } from 'fflate';
import { z } from 'zod';
import {
  MAX_REPLY_CHARS,
  MAX_SYSTEM_PROMPT_CHARS,
  MAX_TITLE_CHARS,
  MESSAGE_ROLES,
  MESSAGE_STATUSES,
  replyErrorSchema,
  replyTimingSchema,
  usageSchema,
  type ConversationSummary,
  type ChatMessageRecord,
} from '../../../shared/ipc/routes/chat';
import { issuePathToParam } from '../../../shared/relay-requests';
import type { Dialogs } from '../../app-context';
import { AppError, nothingImported, refusal, type Refusal } from '../app-error';
import { writeFileAtomic } from '../data-files';
import type { ReadChosenFiles } from './import-reader';
import type { ChatStore } from './store';
import { looksLikeZip, readZip, ZipError, type ZipLimits } from './zip-reader';
import { nativeText, said, type Said } from '../words';

export const EXPORT_FORMAT_ID = 'relay-desktop-chat';
export const EXPORT_VERSION = 2;
/** Bigger files are refused before they are read. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;
/**
 * A zip may hold as many files as an export writes (one per conversation, up to 10,000) and
 * unpack to no more than one JSON file may be.
 */
export const ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxUncompressedBytes: MAX_IMPORT_BYTES };

const isoDate = z.iso.datetime({ offset: true });

const exportedMessageSchema = z.object({
  /** Version 2: the message's id in this file, and its parent's (null for a first message). */
  id: z.string().min(1).max(200).optional(),
  parentId: z.string().min(1).max(200).nullable().optional(),
  role: z.enum(MESSAGE_ROLES),
  // Replies can be as long as a stream may grow; what a person types is bounded by MAX_MESSAGE_CHARS.
  content: z.string().max(MAX_REPLY_CHARS),
  status: z.enum(MESSAGE_STATUSES),
  createdAt: isoDate,
  model: z.string().max(500).optional(),
  usage: usageSchema.optional(),
  error: replyErrorSchema.optional(),
  finishReason: z.string().max(100).optional(),
  temperature: z.number().min(0).max(2).optional(),
  timing: replyTimingSchema.optional(),
  /** Replies asked together in a compare share it. */
  batchId: z.string().min(1).max(200).optional(),
});

/**
 * Every message's parent (by id) must come before it in the file, so that the tree is whole and
 * written in order; ids are unique; the path shown ends at one of them.
 */
function checkTree(
  conversation: {
    messages: Array<{ id?: string | undefined; parentId?: string | null | undefined }>;
    currentId?: string | undefined;
  },
  context: z.RefinementCtx,
): void {
  const seen = new Set<string>();
  conversation.messages.forEach((message, index) => {
    if (message.id === undefined) {
      if (message.parentId !== undefined)
        context.addIssue({
          code: 'custom',
          message: 'a message with a parentId needs an id',
          path: ['messages', index, 'id'],
        });
      return;
    }
    if (seen.has(message.id))
      context.addIssue({
        code: 'custom',
        message: `the id "${message.id}" is used twice`,
        path: ['messages', index, 'id'],
      });
    if (typeof message.parentId === 'string' && !seen.has(message.parentId))
      context.addIssue({
        code: 'custom',
        message: `the parentId "${message.parentId}" names no message before this one`,
        path: ['messages', index, 'parentId'],
      });
    seen.add(message.id);
  });
  if (conversation.currentId !== undefined && !seen.has(conversation.currentId))
    context.addIssue({
      code: 'custom',
      message: `the currentId "${conversation.currentId}" names no message of the conversation`,
      path: ['currentId'],
    });
}

const exportedConversationSchema = z
  .object({
    title: z.string().max(MAX_TITLE_CHARS),
    createdAt: isoDate,
    updatedAt: isoDate,
    pinned: z.boolean(),
    model: z.string().max(500).nullable(),
    systemPrompt: z.string().max(MAX_SYSTEM_PROMPT_CHARS),
    temperature: z.number().min(0).max(2).nullable(),
    maxTokens: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
    messages: z.array(exportedMessageSchema).max(1_000_000),
    /** Version 2: the last message of the path shown. */
    currentId: z.string().min(1).max(200).optional(),
  })
  .superRefine(checkTree);

export const chatExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT_ID, {
    error: `it is not a Relay Desktop chat export (format must be "${EXPORT_FORMAT_ID}")`,
  }),
  version: z.union([z.literal(1), z.literal(EXPORT_VERSION)], {
    error: `it was written by a newer version of the app (this one reads versions 1 to ${EXPORT_VERSION})`,
  }),
  exportedAt: isoDate,
  conversations: z.array(exportedConversationSchema).max(100_000),
});
export type ChatExport = z.infer<typeof chatExportSchema>;
export type ExportedConversation = z.infer<typeof exportedConversationSchema>;

function exportedMessage(
  message: ChatMessageRecord,
): ChatExport['conversations'][0]['messages'][0] {
  const out: ChatExport['conversations'][0]['messages'][0] = {
    id: message.id,
    parentId: message.parentId,
    role: message.role,
    content: message.content,
    status: message.status,
    createdAt: message.createdAt,
  };
  if (message.model !== undefined) out.model = message.model;
  if (message.usage !== undefined) out.usage = message.usage;
  if (message.error !== undefined) out.error = message.error;
  if (message.finishReason !== undefined) out.finishReason = message.finishReason;
  if (message.temperature !== undefined) out.temperature = message.temperature;
  if (message.timing !== undefined) out.timing = message.timing;
  if (message.batchId !== undefined) out.batchId = message.batchId;
  return out;
}

function exportedConversation(store: ChatStore, c: ConversationSummary): ExportedConversation {
  const currentId = store.leafOf(c.id);
  return {
    title: c.title,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    pinned: c.pinned,
    model: c.model,
    systemPrompt: c.systemPrompt,
    temperature: c.temperature,
    maxTokens: c.maxTokens,
    messages: store.allMessages(c.id).map(exportedMessage),
    ...(currentId === undefined ? {} : { currentId }),
  };
}

/**
 * The path shown of an exported conversation: from its current message up to the first, or for
 * a file without ids (version 1) all of its messages, which are one path.
 */
export function shownPath(c: ExportedConversation): ExportedConversation['messages'] {
  if (c.messages.every((m) => m.id === undefined)) return c.messages;
  const byId = new Map(c.messages.map((m) => [m.id, m]));
  let at = c.currentId === undefined ? c.messages[c.messages.length - 1] : byId.get(c.currentId);
  const path: ExportedConversation['messages'] = [];
  while (at !== undefined) {
    path.push(at);
    at = typeof at.parentId === 'string' ? byId.get(at.parentId) : undefined;
  }
  return path.reverse();
}

export function toJson(conversations: ExportedConversation[], now: Date): string {
  const document: ChatExport = {
    format: EXPORT_FORMAT_ID,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    conversations,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

const STATUS_NOTE: Record<string, string> = {
  interrupted: '_(interrupted: the reply was cut short)_',
  error: '_(failed)_',
  streaming: '_(interrupted: the reply was cut short)_',
  complete: '',
};

export function toMarkdown(c: ExportedConversation): string {
  const lines = [`# ${c.title}`, ''];
  const facts = [`Created ${c.createdAt}`];
  if (c.model !== null) facts.push(`model ${c.model}`);
  lines.push(`_${facts.join(' · ')}_`, '');
  const path = shownPath(c);
  if (path.length < c.messages.length)
    lines.push(
      `_This file holds the path shown in Relay Desktop: ${path.length} of the conversation's ${c.messages.length} messages. The other versions of edited or regenerated messages are in its JSON export._`,
      '',
    );
  if (c.systemPrompt.trim() !== '') lines.push('## System', '', c.systemPrompt, '');
  for (const message of path) {
    const who =
      message.role === 'user' ? 'You' : `Assistant${message.model ? ` (${message.model})` : ''}`;
    lines.push(`## ${who}`, '', message.content);
    const note = STATUS_NOTE[message.status];
    if (note) lines.push('', note);
    if (message.error) lines.push('', `_Error: ${message.error.message}_`);
    lines.push('');
  }
  return lines.join('\n');
}

/** A file name from a title: letters, digits and dashes only, never a path. */
export function fileNameOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug === '' ? 'conversation' : slug;
}

export interface ExportFile {
  defaultName: string;
  bytes: Uint8Array;
  extension: 'md' | 'json' | 'zip';
}

/** Builds the file for one or several conversations (several: a zip with one file each). */
export function buildExport(
  store: ChatStore,
  conversations: ConversationSummary[],
  format: 'markdown' | 'json',
  now: Date,
): ExportFile {
  const exported = conversations.map((c) => exportedConversation(store, c));
  const extension = format === 'markdown' ? 'md' : 'json';
  const render = (c: ExportedConversation) =>
    format === 'markdown' ? toMarkdown(c) : toJson([c], now);
  if (exported.length === 1) {
    const only = exported[0]!;
    return {
      defaultName: `${fileNameOf(only.title)}.${extension}`,
      bytes: strToU8(render(only)),
      extension,
    };
  }
  const files: Record<string, Uint8Array> = {};
  exported.forEach((c, index) => {
    const number = String(index + 1).padStart(String(exported.length).length, '0');
    files[`${number}-${fileNameOf(c.title)}.${extension}`] = strToU8(render(c));
  });
  const stamp = now.toISOString().slice(0, 10);
  return { defaultName: `conversations-${stamp}.zip`, bytes: zipSync(files), extension: 'zip' };
}

/** A file that cannot be imported, with the reason in words. */
const importError = (reason: Said) => new AppError('invalid_request', reason);

/** Parses and checks one export file's text; throws an AppError naming the file and the fault. */
export function parseExport(name: string, text: string): ChatExport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw importError(said('import.chat.notJson', { name }));
  }
  const parsed = chatExportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const detail = issue?.message ?? said('import.chat.notExport');
    throw importError(
      issue && issue.path.length > 0
        ? said('import.chat.invalidAt', { name, detail, at: issuePathToParam(issue.path) })
        : said('import.chat.invalid', { name, detail }),
    );
  }
  return parsed.data;
}

/** A file (or a zip's entry) that was not imported, and why in words. */
export type Refused = Refusal;

export interface ReadImport {
  documents: { name: string; document: ChatExport }[];
  refused: Refused[];
  /** The bytes of JSON read: the file's, or what its zip entries unpacked to. */
  bytes: number;
}

function readDocument(name: string, bytes: Uint8Array): ReadImport {
  const refused = (reason: Said | AppError): ReadImport => ({
    documents: [],
    refused: [refusal(name, reason)],
    bytes: bytes.byteLength,
  });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refused(said('import.chat.notUtf8', { name }));
  }
  try {
    return {
      documents: [{ name, document: parseExport(name, text) }],
      refused: [],
      bytes: bytes.byteLength,
    };
  } catch (error) {
    if (error instanceof AppError) return refused(error);
    throw error;
  }
}

/**
 * Reads one file chosen for import: our JSON export, or a zip of them (by its content, whatever
 * its name). Each entry of a zip stands alone: the good ones are read, the bad ones refused by
 * name. A zip that cannot be read, or is too big (a bomb), is refused whole.
 */
export function readImportFile(
  name: string,
  bytes: Uint8Array,
  limits: ZipLimits = ZIP_LIMITS,
): ReadImport {
  if (!looksLikeZip(bytes)) {
    if (/\.zip$/i.test(name))
      return {
        documents: [],
        refused: [refusal(name, said('import.zip.damaged', { name }))],
        bytes: 0,
      };
    return readDocument(name, bytes);
  }
  const out: ReadImport = { documents: [], refused: [], bytes: 0 };
  try {
    const entries = readZip(name, bytes, limits);
    if (entries.length === 0)
      return {
        documents: [],
        refused: [refusal(name, said('import.zip.empty', { name }))],
        bytes: 0,
      };
    for (const entry of entries) {
      const where = `${name} › ${entry.name}`;
      if (!/\.json$/i.test(entry.name)) {
        out.refused.push(refusal(where, said('import.zip.notJson', { name: where })));
        continue;
      }
      const read = entry.read();
      if ('problem' in read) {
        out.refused.push(refusal(where, read.problem));
        continue;
      }
      const one = readDocument(where, read.bytes);
      out.documents.push(...one.documents);
      out.refused.push(...one.refused);
      out.bytes += one.bytes;
    }
  } catch (error) {
    if (error instanceof ZipError)
      return { documents: [], refused: [refusal(name, error.said)], bytes: out.bytes };
    throw error;
  }
  return out;
}

export interface ImportWriteOptions {
  /** How long one slice of writing may hold the thread before it lets other work run (ms). */
  sliceMs?: number;
  /** Lets other work run between slices; default: until the event loop's next turn. */
  pause?: () => Promise<void>;
}

/** Messages written per step inside a slice. */
const MESSAGES_PER_STEP = 100;

/** A compare batch's id in the app, from the conversation and its id in the file. */
function batchIdOf(conversationId: string, batchId: string): string {
  return `${conversationId}:${batchId}`.slice(0, 200);
}

/**
 * Writes checked conversations and returns their new ids: all of them, or (if writing fails)
 * none. Writing a large import takes seconds, so it goes in slices of `sliceMs`, each its own
 * transaction, with the event loop free in between; the conversations stay hidden (as if deleted)
 * until the last slice is written, then all appear at once. If the app stops half-way, the hidden
 * ones are removed at the next start with the other deleted conversations (`ChatStore.recover`).
 */
export async function importConversations(
  store: ChatStore,
  conversations: readonly ExportedConversation[],
  options: ImportWriteOptions = {},
): Promise<string[]> {
  const sliceMs = options.sliceMs ?? 16;
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  const ids: string[] = [];
  let next = 0;
  let written = 0;
  // The new id of each message of the conversation being written, by its id in the file; and
  // the last one written, the parent of the next in a file without ids (one path).
  let newIds = new Map<string, string>();
  let previous: string | null = null;
  try {
    while (next < conversations.length) {
      store.transaction(() => {
        const started = performance.now();
        while (next < conversations.length && performance.now() - started < sliceMs) {
          const c = conversations[next]!;
          if (written === 0) {
            const created = store.create({
              title: c.title,
              model: c.model,
              systemPrompt: c.systemPrompt,
              temperature: c.temperature,
              maxTokens: c.maxTokens,
              pinned: c.pinned,
              createdAt: c.createdAt,
              updatedAt: c.updatedAt,
            });
            store.softDelete(created.id);
            ids.push(created.id);
            newIds = new Map();
            previous = null;
          }
          const id = ids[ids.length - 1]!;
          for (const m of c.messages.slice(written, written + MESSAGES_PER_STEP)) {
            const parent: string | null =
              m.id === undefined
                ? previous
                : typeof m.parentId === 'string'
                  ? (newIds.get(m.parentId) ?? null)
                  : null;
            previous = store.insertMessage(id, parent, {
              role: m.role,
              content: m.content,
              // A reply that was streaming when exported will never finish now.
              status: m.status === 'streaming' ? 'interrupted' : m.status,
              createdAt: m.createdAt,
              ...(m.model === undefined ? {} : { model: m.model }),
              ...(m.usage === undefined ? {} : { usage: m.usage }),
              ...(m.error === undefined ? {} : { error: m.error }),
              ...(m.finishReason === undefined ? {} : { finishReason: m.finishReason }),
              ...(m.temperature === undefined ? {} : { temperature: m.temperature }),
              ...(m.timing === undefined ? {} : { timing: m.timing }),
              ...(m.batchId === undefined ? {} : { batchId: batchIdOf(id, m.batchId) }),
            });
            if (m.id !== undefined) newIds.set(m.id, previous);
            written++;
          }
          if (written >= c.messages.length) {
            const current = c.currentId === undefined ? previous : newIds.get(c.currentId);
            if (current !== undefined && current !== null) store.setLeaf(id, current);
            next++;
            written = 0;
          }
        }
      });
      await pause();
    }
    store.transaction(() => {
      for (const id of ids)
        store.db.run('UPDATE chat_conversations SET deleted_at = NULL WHERE id = ?', [id]);
    });
    return ids;
  } catch (error) {
    store.transaction(() => {
      for (const id of ids) store.db.run('DELETE FROM chat_conversations WHERE id = ?', [id]);
    });
    throw error;
  }
}

/**
 * Exports conversations to a file the person chooses: one JSON or Markdown file, or a zip of
 * them for several. The file is written whole or not at all.
 */
export async function exportToFile(
  store: ChatStore,
  ids: readonly string[],
  format: Parameters<typeof buildExport>[2],
  dialogs: Dialogs,
  now = new Date(),
): Promise<{ saved: boolean; path?: string; count: number }> {
  const conversations = ids.map((id) => {
    const conversation = store.get(id);
    if (conversation === undefined) throw new AppError('not_found', said('chat.conversationGone'));
    return conversation;
  });
  const file = buildExport(store, conversations, format, now);
  const path = await dialogs.chooseSavePath({
    title: nativeText('dialog.exportConversations', { count: conversations.length }),
    defaultName: file.defaultName,
    filters: [{ name: file.extension.toUpperCase(), extensions: [file.extension] }],
  });
  if (path === undefined) return { saved: false, count: 0 };
  try {
    // A saved file like any other program's (0666 less the umask), written whole or not at all.
    await writeFileAtomic(path, file.bytes, { mode: 0o666 });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') throw error;
    throw new AppError('internal', said('export.notWritten', { path, code }));
  }
  return { saved: true, path, count: conversations.length };
}

/**
 * Imports the exports the person chooses (JSON files, or zips of them): every readable one as
 * new conversations, and the others named with why they were refused.
 */
export async function importFromFiles(
  store: ChatStore,
  dialogs: Dialogs,
  readChosenFiles: ReadChosenFiles,
): Promise<{ cancelled: boolean; conversationIds: string[]; refused: Refused[] }> {
  const paths = await dialogs.chooseOpenPaths({
    title: nativeText('dialog.importConversations'),
    filters: [{ name: nativeText('dialog.chatExportFilter'), extensions: ['json', 'zip'] }],
    multiple: true,
  });
  if (paths.length === 0) return { cancelled: true, conversationIds: [], refused: [] };
  const { conversations, refused, documents } = await readChosenFiles(paths);
  if (documents === 0) throw importError(nothingImported(refused));
  const conversationIds = await importConversations(store, conversations);
  return { cancelled: false, conversationIds, refused };
}
