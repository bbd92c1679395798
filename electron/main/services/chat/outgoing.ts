/**
 * What the composer sends: its drafts' files attached (chosen, dropped, pasted or an MCP
 * resource), read and checked against the model before a message or a comparison goes.
 */
import {
  MAX_ATTACHMENTS,
  type AttachmentInfo,
  type AttachmentRefusal,
  type CompareTarget,
} from '../../../shared/ipc/routes/chat';
import type { Dialogs } from '../../app-context';
import { AppError } from '../app-error';
import type { McpService } from '../mcp/mcp-service';
import { resourceFiles } from '../mcp/resource-files';
import { nativeText, said } from '../words';
import { imagesRefusedFor, type AttachmentDrafts, type ReadAttachment } from './attachments';
import type { ChatService, SendOptions } from './chat-service';
import type { ChatStore } from './store';

/** What the attach dialog offers first; "All files" lets any text file with another name in. */
const ATTACHABLE_EXTENSIONS = [
  'txt',
  'md',
  'markdown',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'html',
  'htm',
  'pdf',
  'docx',
  'log',
  'ts',
  'tsx',
  'js',
  'jsx',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'c',
  'h',
  'cpp',
  'cs',
  'php',
  'sh',
  'sql',
  'css',
  'yaml',
  'yml',
  'toml',
  'xml',
  'png',
  'jpg',
  'jpeg',
  'webp',
  'gif',
];

export interface OutgoingOptions {
  store: ChatStore;
  chat: ChatService;
  drafts: AttachmentDrafts;
  dialogs: Dialogs;
  /** Whether a model reads images (the model list, with the person's setting). */
  acceptsImages: (model: string) => Promise<boolean | undefined>;
  /** MCP servers, whose resources can be attached; absent: there are none. */
  mcp?: McpService | undefined;
}

type Attached = { attached: AttachmentInfo[]; refused: AttachmentRefusal[] };

export class Outgoing {
  readonly #o: OutgoingOptions;

  constructor(options: OutgoingOptions) {
    this.#o = options;
  }

  /** Sends a message with its drafts' files, which are then no longer drafts. */
  async send(
    conversationId: string,
    text: string,
    attachmentIds: readonly string[],
    options: SendOptions | undefined,
  ) {
    const { drafts, store, chat } = this.#o;
    const files = await drafts.prepare(attachmentIds, text);
    const model = store.get(conversationId)?.model;
    await this.#refuseImagesFor(model ? [model] : [], files);
    const sent = await chat.send(conversationId, text, options, files);
    drafts.sent(attachmentIds);
    return sent;
  }

  /** Sends a message to 2 to 4 models at once, with its drafts' files. */
  async compare(
    conversationId: string,
    text: string,
    targets: readonly CompareTarget[],
    attachmentIds: readonly string[],
    options: SendOptions | undefined,
  ) {
    const { drafts, chat } = this.#o;
    const files = await drafts.prepare(attachmentIds, text);
    await this.#refuseImagesFor(
      targets.map((t) => t.model),
      files,
    );
    const started = await chat.compare(conversationId, text, targets, options, files);
    drafts.sent(attachmentIds);
    return started;
  }

  /** Attaches the files the person chooses in the system's dialog. */
  async attachChosen(): Promise<Attached> {
    const paths = await this.#o.dialogs.chooseOpenPaths({
      title: nativeText('dialog.attachFiles'),
      multiple: true,
      filters: [
        { name: nativeText('dialog.attachableFilter'), extensions: ATTACHABLE_EXTENSIONS },
        { name: nativeText('dialog.allFiles'), extensions: ['*'] },
      ],
    });
    return this.#o.drafts.attachPaths(paths.slice(0, MAX_ATTACHMENTS));
  }

  /** Attaches an MCP server's resource: each of its contents a file, as far as they fit. */
  async attachMcpResource(serverId: string, uri: string): Promise<Attached> {
    const { mcp, drafts } = this.#o;
    if (!mcp) throw new AppError('not_found', said('tools.serverGone'));
    const read = await mcp.readResource(serverId, uri);
    const result: Attached = { attached: [], refused: [] };
    for (const file of resourceFiles(read.resource, read.contents).slice(0, MAX_ATTACHMENTS)) {
      if (!file.ok) {
        result.refused.push(file.refusal);
        continue;
      }
      const one = await drafts.attachBytes(file.name, file.bytes);
      result.attached.push(...one.attached);
      result.refused.push(...one.refused);
    }
    if (result.attached.length === 0 && result.refused.length === 0)
      throw new AppError('invalid_request', said('tools.resource.empty', { uri }));
    return result;
  }

  /** Images to a model that reads none: refused before sending, naming the model and images. */
  async #refuseImagesFor(models: readonly string[], files: readonly ReadAttachment[]) {
    if (!files.some((f) => f.kind === 'image')) return;
    for (const model of new Set(models)) {
      const refused = imagesRefusedFor(model, await this.#o.acceptsImages(model), files);
      if (refused !== undefined) throw new AppError('invalid_request', refused);
    }
  }
}
