/**
 * Conversations to and from files: Markdown to read, JSON to keep and import, a zip for several.
 *
 * An import is checked whole before anything is written, and written in one transaction: a bad
 * file is refused with what is wrong and where, and imports nothing.
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
  usageSchema,
  type ConversationSummary,
  type ChatMessageRecord,
} from '../../../shared/ipc/routes/chat';
import { issuePathToParam } from '../../../shared/relay-requests';
import type { ChatStore } from './store';
import { looksLikeZip, readZip, ZipError, type ZipLimits } from './zip-reader';

export const EXPORT_FORMAT_ID = 'relay-desktop-chat';
export const EXPORT_VERSION = 1;
/** Bigger files are refused before they are read. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;
/**
 * A zip may hold as many files as an export writes (one per conversation, up to 10,000) and
 * unpack to no more than one JSON file may be.
 */
export const ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxUncompressedBytes: MAX_IMPORT_BYTES };

const isoDate = z.iso.datetime({ offset: true });

const exportedMessageSchema = z.object({
  role: z.enum(MESSAGE_ROLES),
  // Replies can be as long as a stream may grow; what a person types is bounded by MAX_MESSAGE_CHARS.
  content: z.string().max(MAX_REPLY_CHARS),
  status: z.enum(MESSAGE_STATUSES),
  createdAt: isoDate,
  model: z.string().max(500).optional(),
  usage: usageSchema.optional(),
  error: replyErrorSchema.optional(),
  finishReason: z.string().max(100).optional(),
});

const exportedConversationSchema = z.object({
  title: z.string().max(MAX_TITLE_CHARS),
  createdAt: isoDate,
  updatedAt: isoDate,
  pinned: z.boolean(),
  model: z.string().max(500).nullable(),
  systemPrompt: z.string().max(MAX_SYSTEM_PROMPT_CHARS),
  temperature: z.number().min(0).max(2).nullable(),
  maxTokens: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
  messages: z.array(exportedMessageSchema).max(1_000_000),
});

export const chatExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT_ID, {
    error: `it is not a Relay Desktop chat export (format must be "${EXPORT_FORMAT_ID}")`,
  }),
  version: z.literal(EXPORT_VERSION, {
    error: `it was written by a newer version of the app (this one reads version ${EXPORT_VERSION})`,
  }),
  exportedAt: isoDate,
  conversations: z.array(exportedConversationSchema).max(100_000),
});
export type ChatExport = z.infer<typeof chatExportSchema>;
type ExportedConversation = z.infer<typeof exportedConversationSchema>;

function exportedMessage(
  message: ChatMessageRecord,
): ChatExport['conversations'][0]['messages'][0] {
  const out: ChatExport['conversations'][0]['messages'][0] = {
    role: message.role,
    content: message.content,
    status: message.status,
    createdAt: message.createdAt,
  };
  if (message.model !== undefined) out.model = message.model;
  if (message.usage !== undefined) out.usage = message.usage;
  if (message.error !== undefined) out.error = message.error;
  if (message.finishReason !== undefined) out.finishReason = message.finishReason;
  return out;
}

function exportedConversation(store: ChatStore, c: ConversationSummary): ExportedConversation {
  return {
    title: c.title,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    pinned: c.pinned,
    model: c.model,
    systemPrompt: c.systemPrompt,
    temperature: c.temperature,
    maxTokens: c.maxTokens,
    messages: store.messages(c.id).messages.map(exportedMessage),
  };
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
  if (c.systemPrompt.trim() !== '') lines.push('## System', '', c.systemPrompt, '');
  for (const message of c.messages) {
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
export class ImportError extends Error {}

/** Parses and checks one export file's text; throws ImportError naming the file and the fault. */
export function parseExport(name: string, text: string): ChatExport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ImportError(`${name} is not a JSON file, so it cannot be imported.`);
  }
  const parsed = chatExportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (at ${issuePathToParam(issue.path)})` : '';
    throw new ImportError(
      `${name} cannot be imported: ${issue?.message ?? 'it is not a chat export'}${where}.`,
    );
  }
  return parsed.data;
}

/** A file (or a zip's entry) that was not imported, and why in words. */
export interface Refused {
  name: string;
  reason: string;
}

export interface ReadImport {
  documents: { name: string; document: ChatExport }[];
  refused: Refused[];
}

function readDocument(name: string, bytes: Uint8Array): ReadImport {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return {
      documents: [],
      refused: [{ name, reason: `${name} is not UTF-8 text, so it is not a chat export.` }],
    };
  }
  try {
    return { documents: [{ name, document: parseExport(name, text) }], refused: [] };
  } catch (error) {
    if (error instanceof ImportError)
      return { documents: [], refused: [{ name, reason: error.message }] };
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
        refused: [{ name, reason: `${name} is not a zip file, or it is damaged.` }],
      };
    return readDocument(name, bytes);
  }
  const out: ReadImport = { documents: [], refused: [] };
  try {
    const entries = readZip(name, bytes, limits);
    if (entries.length === 0)
      return { documents: [], refused: [{ name, reason: `${name} holds no chat export.` }] };
    for (const entry of entries) {
      const where = `${name} › ${entry.name}`;
      if (!/\.json$/i.test(entry.name)) {
        out.refused.push({ name: where, reason: `${where} is not a JSON chat export.` });
        continue;
      }
      const read = entry.read();
      if ('problem' in read) {
        out.refused.push({ name: where, reason: read.problem });
        continue;
      }
      const one = readDocument(where, read.bytes);
      out.documents.push(...one.documents);
      out.refused.push(...one.refused);
    }
  } catch (error) {
    if (error instanceof ZipError)
      return { documents: [], refused: [{ name, reason: error.message }] };
    throw error;
  }
  return out;
}

/** Writes checked conversations in one transaction; returns their new ids. */
export function importConversations(store: ChatStore, documents: ChatExport[]): string[] {
  return store.transaction(() => {
    const ids: string[] = [];
    for (const document of documents) {
      for (const c of document.conversations) {
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
        if (c.messages.length > 0) {
          store.append(
            created.id,
            c.messages.map((m) => ({
              role: m.role,
              content: m.content,
              // A reply that was streaming when exported will never finish now.
              status: m.status === 'streaming' ? 'interrupted' : m.status,
              createdAt: m.createdAt,
              ...(m.model === undefined ? {} : { model: m.model }),
              ...(m.usage === undefined ? {} : { usage: m.usage }),
              ...(m.error === undefined ? {} : { error: m.error }),
              ...(m.finishReason === undefined ? {} : { finishReason: m.finishReason }),
            })),
          );
          // `append` marks the conversation active now; keep the exported activity time.
          store.db.run('UPDATE chat_conversations SET updated_at = ? WHERE id = ?', [
            c.updatedAt,
            created.id,
          ]);
        }
        ids.push(created.id);
      }
    }
    return ids;
  });
}
