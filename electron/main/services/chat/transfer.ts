/**
 * Conversations to and from files: Markdown to read, JSON to keep and import, a zip for several
 * or for one with its files. The export side is `export-file.ts`; this module is what reading an
 * import needs (it runs in the import worker, so it loads nothing heavy) and the writing of it.
 *
 * An import is checked whole before anything is written, and written so that a conversation
 * appears whole or not at all: a bad file is refused with what is wrong and where, and imports
 * nothing; a bad file attached to a message is refused by name and the rest goes on.
 *
 * JSON keeps the whole tree (version 2: each message with its id and its parent's, and the path
 * shown); version 1 files, written before conversations were trees, import as one path. Version 3
 * adds what a message carries beside its text: the files attached to it (listed by name, kind,
 * size, SHA-256 and the text read from them; their bytes travel in a zip as `files/<sha256>`,
 * once each) and, on a reply asked with a knowledge base, the record of its retrieval. Version 4
 * adds a reply's tool calls (each step's text and calls: tool, server, arguments, result, state,
 * duration), so that the reply reads and is asked on with them as it was. Markdown holds the path
 * shown, and says so when the conversation has other versions of messages.
 */
import { z } from 'zod';
import {
  ATTACHMENT_KINDS,
  MAX_ATTACHMENT_NAME,
  MAX_ATTACHMENTS,
  MAX_MESSAGE_CHARS,
  MAX_REPLY_CHARS,
  MAX_SYSTEM_PROMPT_CHARS,
  MAX_TITLE_CHARS,
  MESSAGE_ROLES,
  MESSAGE_STATUSES,
  replyErrorSchema,
  replyTimingSchema,
  replyToolsSchema,
  usageSchema,
  type ReplyTools,
} from '../../../shared/ipc/routes/chat';
import { retrievedChunkSchema, type RetrievalRecord } from '../../../shared/ipc/routes/knowledge';
import { issuePathToParam } from '../../../shared/relay-requests';
import type { Dialogs } from '../../app-context';
import { AppError, nothingImported, refusal, type Refusal } from '../app-error';
import type { ReadAttachment } from './attachments';
import type { ReadChosenFiles } from './import-reader';
import type { ChatStore } from './store';
import { takeFiles, leaveOutFiles, MAX_IMPORTED_FILE_BYTES } from './transfer-files';
import { looksLikeZip, readZip, ZipError, type ZipLimits } from './zip-reader';
import { nativeText, said, type Said } from '../words';

export const EXPORT_FORMAT_ID = 'relay-desktop-chat';
export const EXPORT_VERSION = 4;
/** Bigger files are refused before they are read. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;
/**
 * A zip may hold as many files as an export writes (one per conversation, up to 10,000, and the
 * files attached to them) and unpack to no more than one import reads.
 */
export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxUncompressedBytes: MAX_IMPORT_BYTES,
};

const isoDate = z.iso.datetime({ offset: true });

/** Version 3: a file attached to a message; its bytes are `files/<sha256>` in a zip export. */
const exportedAttachmentSchema = z.object({
  name: z.string().min(1).max(MAX_ATTACHMENT_NAME),
  kind: z.enum(ATTACHMENT_KINDS),
  // It goes into the block the model is sent (`type="…"`) and an image's data: URL: a type only.
  mimeType: z
    .string()
    .max(200)
    .regex(/^[a-z0-9][a-z0-9.+-]*\/[a-z0-9][a-z0-9.+-]*$/i, { error: 'not a media type' }),
  /** Its size in bytes (checked against the bytes in the zip). */
  bytes: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'a SHA-256 is 64 lowercase hex digits' }),
  /** The text read from it when it was attached: what the model is sent and search finds. */
  text: z.string().max(MAX_IMPORTED_FILE_BYTES),
  /** A PDF's pages with text, by their own numbers. */
  pages: z
    .array(z.object({ page: z.number().int().positive(), text: z.string() }))
    .max(100_000)
    .optional(),
});
export type ExportedAttachment = z.infer<typeof exportedAttachmentSchema>;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Version 3: what a reply asked with a knowledge base was asked with (the app's record of it, see
 * `retrieval.ts`): the question, every chunk retrieved with its text, file, position, score, rank,
 * placement and `[n]`, and the vectors of the question and the chunks for the X-ray's map, packed
 * as little-endian float32 in base64 (exact, and about a seventh of the same numbers in JSON).
 */
const exportedRetrievalSchema = z
  .object({
    question: z.string().max(MAX_MESSAGE_CHARS),
    createdAt: isoDate,
    topK: z.number().int().min(1),
    minScore: z.number().min(-1).max(1),
    budgetTokens: z.number().int().nonnegative(),
    promptTokens: z.number().int().nonnegative(),
    chunks: z.array(retrievedChunkSchema).max(10_000),
    vectors: z
      .object({
        dimensions: z.number().int().min(1).max(65_536),
        float32: z.string().regex(BASE64, { error: 'float32 must be base64' }),
      })
      .nullable(),
  })
  .superRefine((record, context) => {
    if (record.vectors === null) return;
    const { dimensions, float32 } = record.vectors;
    const bytes = (float32.length / 4) * 3 - (float32.match(/=*$/)?.[0].length ?? 0);
    const expected = (record.chunks.length + 1) * dimensions * 4;
    if (bytes !== expected)
      context.addIssue({
        code: 'custom',
        message: `the vectors hold ${bytes} bytes, not the ${expected} of ${record.chunks.length + 1} vectors of ${dimensions} dimensions`,
        path: ['vectors', 'float32'],
      });
  });
export type ExportedRetrieval = z.infer<typeof exportedRetrievalSchema>;

/** A reply's retrieval record as the knowledge domain keeps it: the record, and its packed vectors. */
export interface KeptRetrieval {
  record: Omit<RetrievalRecord, 'messageId' | 'conversationId' | 'map'>;
  /** The question's vector, then each chunk's, as little-endian float32; null when none were kept. */
  vectors: Uint8Array | null;
}

/**
 * The retrieval records of replies, which the knowledge domain keeps by message id (its tables,
 * the same database): read for an export, written for an import inside its transaction.
 */
export interface RetrievalRecords {
  read(messageIds: readonly string[]): Map<string, KeptRetrieval>;
  write(messageId: string, conversationId: string, kept: KeptRetrieval): void;
  /** Drops the records of conversations whose import failed. */
  discard(conversationIds: readonly string[]): void;
}

/** A kept record as an export writes it. */
export function exportedRetrieval(kept: KeptRetrieval): ExportedRetrieval {
  const { record, vectors } = kept;
  const rows = record.chunks.length + 1;
  const dimensions = vectors === null ? 0 : vectors.byteLength / 4 / rows;
  return {
    question: record.question,
    createdAt: record.createdAt,
    topK: record.topK,
    minScore: record.minScore,
    budgetTokens: record.budgetTokens,
    promptTokens: record.promptTokens,
    chunks: record.chunks,
    vectors:
      vectors !== null && Number.isInteger(dimensions) && dimensions > 0
        ? { dimensions, float32: Buffer.from(vectors).toString('base64') }
        : null,
  };
}

/** An exported record as the knowledge domain keeps it. */
export function keptRetrieval(exported: ExportedRetrieval): KeptRetrieval {
  const { vectors, ...record } = exported;
  return {
    record,
    vectors: vectors === null ? null : new Uint8Array(Buffer.from(vectors.float32, 'base64')),
  };
}

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
  /** Version 3: the files sent with the message, in order. */
  attachments: z.array(exportedAttachmentSchema).max(MAX_ATTACHMENTS).optional(),
  /** Version 3: a reply's knowledge-base retrieval. */
  retrieval: exportedRetrievalSchema.optional(),
  /** Version 4: a reply's tool calls and their results, step by step. */
  tools: replyToolsSchema.optional(),
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
  version: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(EXPORT_VERSION)], {
    error: `it was written by a newer version of the app (this one reads versions 1 to ${EXPORT_VERSION})`,
  }),
  exportedAt: isoDate,
  conversations: z.array(exportedConversationSchema).max(100_000),
});
export type ChatExport = z.infer<typeof chatExportSchema>;
export type ExportedConversation = z.infer<typeof exportedConversationSchema>;

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

/** A file name from a title: letters, digits and dashes only, never a path. */
export function fileNameOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug === '' ? 'conversation' : slug;
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
  /** The bytes read: the JSON file's, or what its zip entries unpacked to (files included). */
  bytes: number;
  /** The bytes of the files its conversations' messages carry, by SHA-256 (checked). */
  files: Map<string, Uint8Array>;
}

function readDocument(name: string, bytes: Uint8Array): Omit<ReadImport, 'files'> {
  const refused = (reason: Said | AppError): Omit<ReadImport, 'files'> => ({
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

/** An entry name that leads out of the zip (`..`, a root, a drive) or hides a separator. */
function unsafePath(name: string): boolean {
  return (
    name.startsWith('/') ||
    name.includes('\\') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').some((part) => part === '..')
  );
}

/**
 * Reads one file chosen for import: our JSON export, or a zip of them (by its content, whatever
 * its name) with the files their messages carry under `files/`. Each entry of a zip stands
 * alone: the good ones are read, the bad ones refused by name; each file a message names is
 * checked (there, within the size a file may be, its bytes matching their SHA-256) and one that
 * fails is refused by name and left out of its message. A lone JSON file carries no files, so
 * those its messages name are listed as left out. A zip that cannot be read, or is too big (a
 * bomb), is refused whole.
 */
export function readImportFile(
  name: string,
  bytes: Uint8Array,
  limits: ZipLimits = ZIP_LIMITS,
  maxFileBytes = MAX_IMPORTED_FILE_BYTES,
): ReadImport {
  if (!looksLikeZip(bytes)) {
    if (/\.zip$/i.test(name))
      return {
        documents: [],
        refused: [refusal(name, said('import.zip.damaged', { name }))],
        bytes: 0,
        files: new Map(),
      };
    const one = readDocument(name, bytes);
    return {
      ...one,
      refused: [...one.refused, ...leaveOutFiles(name, one.documents)],
      files: new Map(),
    };
  }
  const out: ReadImport = { documents: [], refused: [], bytes: 0, files: new Map() };
  try {
    const entries = readZip(name, bytes, limits);
    const fileEntries = new Map<string, (typeof entries)[number]>();
    const exports: typeof entries = [];
    for (const entry of entries) {
      const where = `${name} › ${entry.name}`;
      if (unsafePath(entry.name))
        out.refused.push({
          name: where,
          reason: `${where} has a path that leads out of the zip, so it was not read.`,
        });
      else if (entry.name.startsWith('files/')) fileEntries.set(entry.name, entry);
      else if (!/\.json$/i.test(entry.name))
        out.refused.push(refusal(where, said('import.zip.notJson', { name: where })));
      else exports.push(entry);
    }
    if (exports.length === 0 && out.refused.length === 0)
      return {
        documents: [],
        refused: [refusal(name, said('import.zip.empty', { name }))],
        bytes: 0,
        files: new Map(),
      };
    for (const entry of exports) {
      const where = `${name} › ${entry.name}`;
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
    const taken = takeFiles(name, fileEntries, out.documents, maxFileBytes);
    out.refused.push(...taken.refused);
    out.bytes += taken.bytes;
    out.files = taken.files;
  } catch (error) {
    if (error instanceof ZipError)
      return {
        documents: [],
        refused: [refusal(name, error.said)],
        bytes: out.bytes,
        files: new Map(),
      };
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

/** Where what a message carries besides its text is written, in the transaction that writes it. */
export interface ImportSinks {
  /** The bytes of the files read, by SHA-256. */
  files?: ReadonlyMap<string, Uint8Array>;
  /** Stores files with a message (`AttachmentStore.add`). */
  attachments?: { add(messageId: string, files: readonly ReadAttachment[]): void };
  records?: RetrievalRecords;
}

/** Messages written per step inside a slice. */
const MESSAGES_PER_STEP = 100;

/** A compare batch's id in the app, from the conversation and its id in the file. */
function batchIdOf(conversationId: string, batchId: string): string {
  return `${conversationId}:${batchId}`.slice(0, 200);
}

/**
 * A reply's tool calls as imported: a call that was waiting for an answer or running when it was
 * exported will never be answered now, so it reads as it would had the reply been stopped.
 */
export function importedTools(tools: ReplyTools): ReplyTools {
  return {
    ...tools,
    steps: tools.steps.map((step) => ({
      ...step,
      calls: step.calls.map((call) => {
        if (call.state !== 'waiting' && call.state !== 'running') return call;
        const { why: _why, ...rest } = call;
        return { ...rest, state: call.state === 'waiting' ? 'denied' : 'failed', toolError: true };
      }),
    })),
  };
}

/** A message's files as stored, with their bytes (the reader left out those it had none for). */
function filesOf(
  attachments: readonly ExportedAttachment[],
  bytes: ReadonlyMap<string, Uint8Array>,
): ReadAttachment[] {
  const out: ReadAttachment[] = [];
  for (const a of attachments) {
    const data = bytes.get(a.sha256);
    if (data === undefined) continue;
    const file: ReadAttachment = {
      name: a.name,
      kind: a.kind,
      mimeType: a.mimeType,
      data,
      text: a.text,
    };
    if (a.pages !== undefined) file.pages = a.pages;
    out.push(file);
  }
  return out;
}

/**
 * Writes checked conversations and returns their new ids: all of them, or (if writing fails)
 * none. Writing a large import takes seconds, so it goes in slices of `sliceMs`, each its own
 * transaction, with the event loop free in between; the conversations stay hidden (as if deleted)
 * until the last slice is written, then all appear at once. If the app stops half-way, the hidden
 * ones are removed at the next start with the other deleted conversations (`ChatStore.recover`).
 * A message's files and its retrieval record are written with it, in the same transaction.
 */
export async function importConversations(
  store: ChatStore,
  conversations: readonly ExportedConversation[],
  options: ImportWriteOptions = {},
  sinks: ImportSinks = {},
): Promise<string[]> {
  const sliceMs = options.sliceMs ?? 16;
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  const files = sinks.files ?? new Map<string, Uint8Array>();
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
            const messageId = store.insertMessage(id, parent, {
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
              ...(m.tools === undefined ? {} : { tools: importedTools(m.tools) }),
            });
            previous = messageId;
            if (m.attachments !== undefined && sinks.attachments !== undefined) {
              const stored = filesOf(m.attachments, files);
              if (stored.length > 0) sinks.attachments.add(messageId, stored);
            }
            if (m.retrieval !== undefined && sinks.records !== undefined)
              sinks.records.write(messageId, id, keptRetrieval(m.retrieval));
            if (m.id !== undefined) newIds.set(m.id, messageId);
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
      sinks.records?.discard(ids);
    });
    throw error;
  }
}

/**
 * Imports the exports the person chooses (JSON files, or zips of them): every readable one as
 * new conversations, with the files and retrieval records they carry, and the others named with
 * why they were refused.
 */
export async function importFromFiles(
  store: ChatStore,
  dialogs: Dialogs,
  readChosenFiles: ReadChosenFiles,
  sinks: Omit<ImportSinks, 'files'> = {},
): Promise<{ cancelled: boolean; conversationIds: string[]; refused: Refused[] }> {
  const paths = await dialogs.chooseOpenPaths({
    title: nativeText('dialog.importConversations'),
    filters: [{ name: nativeText('dialog.chatExportFilter'), extensions: ['json', 'zip'] }],
    multiple: true,
  });
  if (paths.length === 0) return { cancelled: true, conversationIds: [], refused: [] };
  const { conversations, refused, documents, files } = await readChosenFiles(paths);
  if (documents === 0) throw importError(nothingImported(refused));
  const conversationIds = await importConversations(store, conversations, {}, { ...sinks, files });
  return { cancelled: false, conversationIds, refused };
}
