/**
 * Exporting conversations to a file the person chooses: Markdown to read, JSON to keep and
 * import again, a zip for several, or for one with the files sent in it.
 *
 * What each carries of a message's files and of a reply's retrieval record:
 * - a zip (`zip`, or `json` for several conversations) holds each conversation's JSON, which
 *   lists every file sent (name, kind, size, SHA-256, the text read from it) and every reply's
 *   retrieval record, and the files' bytes as `files/<sha256>`, once each however many messages
 *   (or conversations) share one: the same content-addressed form they are stored in;
 * - a lone JSON file (`json`, one conversation) lists the files the same way but leaves their
 *   bytes out, and the answer names them, so the person can choose the zip instead. Bytes inside
 *   JSON (base64) would make a file meant to be read and diffed a third larger than the files and
 *   unreadable, and a size cap on them would make what is kept depend on sizes the person does not
 *   see; the zip carries them as they are;
 * - Markdown names the files under the message that sent them, and the sources a reply cited
 *   under it; it carries neither bytes nor records. A reply's tool calls are written out in it,
 *   each with its tool, server, state, arguments and result, those two in code fences: a result
 *   is untrusted text, and inside a fence no HTML or link of it is rendered.
 */
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type {
  ConversationSummary,
  ChatMessageRecord,
  ReplyTools,
  ToolCallRecord,
} from '../../../shared/ipc/routes/chat';
import type { Dialogs } from '../../app-context';
import { AppError } from '../app-error';
import { writeFileAtomic } from '../data-files';
import { whereOf } from '../knowledge/retrieval';
import { nativeText, said } from '../words';
import type { AttachmentStore } from './attachments';
import type { ChatStore } from './store';
import {
  exportedRetrieval,
  fileNameOf,
  shownPath,
  toJson,
  type ExportedConversation,
  type RetrievalRecords,
} from './transfer';
import { filePath } from './transfer-files';

export const EXPORT_FILE_FORMATS = ['markdown', 'json', 'zip'] as const;
export type ExportFileFormat = (typeof EXPORT_FILE_FORMATS)[number];

/** Where an export finds what a message carries besides its text. */
export interface ExportSources {
  attachments?: Pick<AttachmentStore, 'forExport' | 'content'>;
  records?: Pick<RetrievalRecords, 'read'>;
}

type ExportedMessage = ExportedConversation['messages'][number];

function exportedMessage(message: ChatMessageRecord): ExportedMessage {
  const out: ExportedMessage = {
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
  if (message.tools !== undefined) out.tools = message.tools;
  return out;
}

export function exportedConversation(
  store: ChatStore,
  c: ConversationSummary,
  sources: ExportSources = {},
): ExportedConversation {
  const currentId = store.leafOf(c.id);
  const messages = store.allMessages(c.id);
  const ids = messages.map((m) => m.id);
  const files = sources.attachments?.forExport(ids) ?? new Map();
  const records = sources.records?.read(ids) ?? new Map();
  return {
    title: c.title,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    pinned: c.pinned,
    model: c.model,
    systemPrompt: c.systemPrompt,
    temperature: c.temperature,
    maxTokens: c.maxTokens,
    messages: messages.map((m) => {
      const out = exportedMessage(m);
      const attached = files.get(m.id);
      if (attached !== undefined) out.attachments = attached;
      const record = records.get(m.id);
      if (record !== undefined) out.retrieval = exportedRetrieval(record);
      return out;
    }),
    ...(currentId === undefined ? {} : { currentId }),
  };
}

const STATUS_NOTE: Record<string, string> = {
  interrupted: '_(interrupted: the reply was cut short)_',
  error: '_(failed)_',
  streaming: '_(interrupted: the reply was cut short)_',
  complete: '',
};

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Markdown's own characters in a name, escaped so that the name reads as written. */
const plain = (text: string) => text.replace(/[\\`*_[\]<>#|]/g, '\\$&').replace(/[\r\n]+/g, ' ');

/** Text in a code fence longer than any run of backticks in it, so that nothing closes it early. */
export function fenced(text: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}text`, text, fence];
}

/** Arguments as the model wrote them: indented when they are JSON. */
function readableArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const CALL_STATE: Record<ToolCallRecord['state'], string> = {
  waiting: 'waiting for an answer',
  running: 'running',
  done: 'done',
  failed: 'failed',
  denied: 'denied',
};

/** A reply's tool calls, each as a heading line and its arguments and result fenced. */
function toolLines(tools: ReplyTools): string[] {
  const lines: string[] = [];
  for (const step of tools.steps) {
    if (step.text.trim() !== '') lines.push(step.text, '');
    for (const call of step.calls) {
      const name = plain(call.tool ?? call.functionName);
      const facts = [CALL_STATE[call.state]];
      if (call.durationMs > 0) facts.push(`${Math.round(call.durationMs)} ms`);
      lines.push(
        `**Tool call: ${name}**${call.serverName === null ? '' : ` on ${plain(call.serverName)}`} · ${facts.join(' · ')}`,
        '',
        'Arguments:',
        '',
        ...fenced(readableArguments(call.arguments)),
        '',
      );
      if (call.result !== '') {
        const label =
          call.state === 'failed' || call.toolError
            ? 'Error:'
            : call.state === 'denied'
              ? 'The model was told:'
              : 'Result:';
        lines.push(label, '', ...fenced(call.result), '');
      }
    }
  }
  if (tools.stoppedAtLimit)
    lines.push(`_(the turn stopped at its limit of ${tools.maxSteps} steps)_`, '');
  if (tools.leftOut.length > 0)
    lines.push(
      `_Tools left out to keep the tool list within ${tools.budget} tokens: ${tools.leftOut
        .map((t) => `${plain(t.tool)} (${plain(t.serverName)})`)
        .join(', ')}_`,
      '',
    );
  return lines;
}

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
    lines.push(`## ${who}`, '');
    if (message.tools !== undefined) lines.push(...toolLines(message.tools));
    lines.push(message.content);
    if (message.attachments !== undefined && message.attachments.length > 0)
      lines.push(
        '',
        '**Files sent** (their bytes are in the zip export, not in this file):',
        '',
        ...message.attachments.map((a) => `- ${plain(a.name)} (${a.mimeType}, ${size(a.bytes)})`),
      );
    const cited = (message.retrieval?.chunks ?? [])
      .filter((chunk) => chunk.source !== null)
      .sort((a, b) => a.source! - b.source!);
    if (cited.length > 0)
      lines.push(
        '',
        '**Sources**',
        '',
        ...cited.map(
          (chunk) =>
            `- [${chunk.source}] ${plain(chunk.fileName)} · ${plain(whereOf(chunk.position))}`,
        ),
      );
    const note = STATUS_NOTE[message.status];
    if (note) lines.push('', note);
    if (message.error) lines.push('', `_Error: ${message.error.message}_`);
    lines.push('');
  }
  return lines.join('\n');
}

export interface ExportFile {
  defaultName: string;
  bytes: Uint8Array;
  extension: 'md' | 'json' | 'zip';
  /** The names of the files sent in the conversation that the file does not carry (lone JSON). */
  filesLeftOut: string[];
}

/** Images and PDFs are compressed already: stored as they are, the zip is made faster. */
const STORED_KINDS = new Set(['image', 'pdf']);

/** Bytes zipped (checksummed, and deflated where they are) before the event loop runs again. */
const ZIP_PIECE = 256 * 1024;

interface ZipEntryInput {
  name: string;
  /** Its bytes, read when the entry is written (undefined: left out). */
  read: () => Uint8Array | undefined;
  /** Deflated, or stored as they are. */
  deflate: boolean;
}

/**
 * A zip of the entries, made a piece at a time with the event loop free between pieces: the
 * files sent with messages can be hundreds of megabytes, and zipping them at once held main (and
 * every window's requests) for seconds.
 */
async function zipInPieces(
  entries: readonly ZipEntryInput[],
  pause: () => Promise<void>,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  for (const entry of entries) {
    const data = entry.read();
    if (data === undefined) continue;
    await pause();
    const file = entry.deflate
      ? new ZipDeflate(entry.name, { level: 6 })
      : new ZipPassThrough(entry.name);
    zip.add(file);
    if (data.length === 0) file.push(new Uint8Array(0), true);
    for (let at = 0; at < data.length; at += ZIP_PIECE) {
      file.push(data.subarray(at, at + ZIP_PIECE), at + ZIP_PIECE >= data.length);
      await pause();
    }
  }
  zip.end();
  if (failure !== null) throw failure;
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * Builds the file for one or several conversations: a lone Markdown or JSON file for one, a zip
 * with a file each for several, and a zip (with the files sent) for `zip`.
 */
export async function buildExport(
  store: ChatStore,
  conversations: ConversationSummary[],
  format: ExportFileFormat,
  now: Date,
  sources: ExportSources = {},
  pause: () => Promise<void> = () => new Promise<void>((resolve) => setImmediate(resolve)),
): Promise<ExportFile> {
  const exported = conversations.map((c) => exportedConversation(store, c, sources));
  const extension = format === 'markdown' ? 'md' : 'json';
  const render = (c: ExportedConversation) =>
    format === 'markdown' ? toMarkdown(c) : toJson([c], now);
  if (exported.length === 1 && format !== 'zip') {
    const only = exported[0]!;
    const leftOut =
      format === 'json'
        ? only.messages.flatMap((m) =>
            (m.attachments ?? []).map((a) => `${a.name}\u0000${a.sha256}`),
          )
        : [];
    return {
      defaultName: `${fileNameOf(only.title)}.${extension}`,
      bytes: strToU8(render(only)),
      extension,
      filesLeftOut: [...new Set(leftOut)].map((key) => key.split('\u0000')[0]!),
    };
  }
  const entries: ZipEntryInput[] = exported.map((c, index) => {
    const number =
      exported.length === 1
        ? ''
        : `${String(index + 1).padStart(String(exported.length).length, '0')}-`;
    return {
      name: `${number}${fileNameOf(c.title)}.${extension}`,
      read: () => strToU8(render(c)),
      deflate: true,
    };
  });
  if (format !== 'markdown') {
    const packed = new Set<string>();
    for (const c of exported)
      for (const m of c.messages)
        for (const a of m.attachments ?? []) {
          if (packed.has(a.sha256)) continue;
          packed.add(a.sha256);
          entries.push({
            name: filePath(a.sha256),
            read: () => sources.attachments?.content(a.sha256),
            deflate: !STORED_KINDS.has(a.kind),
          });
        }
  }
  const stamp = now.toISOString().slice(0, 10);
  const defaultName =
    exported.length === 1 ? `${fileNameOf(exported[0]!.title)}.zip` : `conversations-${stamp}.zip`;
  return {
    defaultName,
    bytes: await zipInPieces(entries, pause),
    extension: 'zip',
    filesLeftOut: [],
  };
}

/**
 * Exports conversations to a file the person chooses: one JSON or Markdown file, or a zip of
 * them (for several, or for one with its files). The file is written whole or not at all.
 */
export async function exportToFile(
  store: ChatStore,
  ids: readonly string[],
  format: ExportFileFormat,
  dialogs: Dialogs,
  sources: ExportSources = {},
  now = new Date(),
): Promise<{ saved: boolean; path?: string; count: number; filesLeftOut?: string[] }> {
  const conversations = ids.map((id) => {
    const conversation = store.get(id);
    if (conversation === undefined) throw new AppError('not_found', said('chat.conversationGone'));
    return conversation;
  });
  const file = await buildExport(store, conversations, format, now, sources);
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
  return {
    saved: true,
    path,
    count: conversations.length,
    ...(file.filesLeftOut.length > 0 ? { filesLeftOut: file.filesLeftOut } : {}),
  };
}
