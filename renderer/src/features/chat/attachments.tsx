/**
 * Files with a message: the composer's chips (attached by the button, a drop or a paste) and the
 * files listed on a sent message (open, save as).
 *
 * The page never reads a file from disk: the button asks main to open its own dialog, a dropped
 * file goes to main by its path (the preload's `pathForFile`), and only a pasted file (or a dropped
 * one that is not on disk) is handed over as the bytes the page was given.
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
} from 'react';
import { imagesRefused } from '../../../../electron/shared/images-accepted';
import { Icon } from '../../components/icon';
import { failureOf, mainMessageText, useMainMessageText } from '../../lib/errors';
import { relayBridge, requireBridge } from '../../lib/relay-bridge';
import { showSavedToast, showToast } from '../../lib/toasts';
import type { AttachmentInfo, AttachmentRefusal } from './chat-types';

/** A size as people read it: 812 B, 14 KB, 2.3 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

export function formatTokens(tokens: number): string {
  return `~${tokens.toLocaleString('en')} token${tokens === 1 ? '' : 's'}`;
}

/** About four characters a token, as main estimates it. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export interface AttachmentDrafts {
  files: AttachmentInfo[];
  refused: AttachmentRefusal[];
  /** Files being read in main. */
  reading: boolean;
  /** Estimated tokens of the files. */
  tokens: number;
  pick(): Promise<void>;
  remove(id: string): void;
  dismissRefused(): void;
  /** After a send: the files went with the message. */
  sent(): void;
  dropProps: {
    onDragOver(event: DragEvent): void;
    onDragLeave(event: DragEvent): void;
    onDrop(event: DragEvent): void;
  };
  dragging: boolean;
  onPaste(event: ClipboardEvent): void;
}

/** The composer's attachment drafts; forgotten in main when removed or when another conversation opens. */
export function useAttachmentDrafts(conversationId: string): AttachmentDrafts {
  const [files, setFiles] = useState<AttachmentInfo[]>([]);
  const [refused, setRefused] = useState<AttachmentRefusal[]>([]);
  const [pending, setPending] = useState(0);
  const [dragging, setDragging] = useState(false);
  const current = useRef(files);
  current.current = files;

  // Another conversation: its composer starts with no files (those attached here are dropped).
  useEffect(
    () => () => {
      const ids = current.current.map((f) => f.id);
      setFiles([]);
      setRefused([]);
      if (ids.length > 0) void relayBridge()?.discardAttachments({ ids });
    },
    [conversationId],
  );

  const run = useCallback(
    async (attach: () => Promise<{ attached: AttachmentInfo[]; refused: AttachmentRefusal[] }>) => {
      setPending((n) => n + 1);
      try {
        const result = await attach();
        setFiles((list) => [...list, ...result.attached]);
        setRefused(result.refused);
      } catch (error) {
        setRefused([{ name: '', reason: 'failed', message: failureOf(error).message }]);
      } finally {
        setPending((n) => n - 1);
      }
    },
    [],
  );

  const attachDropped = useCallback(
    (list: readonly File[]) => {
      if (list.length === 0) return;
      const bridge = requireBridge();
      const paths: string[] = [];
      const inMemory: File[] = [];
      for (const file of list) {
        const path = bridge.pathForFile?.(file) ?? '';
        if (path) paths.push(path);
        else inMemory.push(file);
      }
      void run(async () => {
        const attached: AttachmentInfo[] = [];
        const refusedNow: AttachmentRefusal[] = [];
        if (paths.length > 0) {
          const result = await bridge.attachPaths({ paths });
          attached.push(...result.attached);
          refusedNow.push(...result.refused);
        }
        for (const file of inMemory) {
          const result = await bridge.attachBytes({
            name: file.name || 'pasted file',
            base64: await base64Of(file),
          });
          attached.push(...result.attached);
          refusedNow.push(...result.refused);
        }
        return { attached, refused: refusedNow };
      });
    },
    [run],
  );

  return {
    files,
    refused,
    reading: pending > 0,
    tokens: files.reduce((sum, f) => sum + f.tokens, 0),
    pick: () => run(() => requireBridge().attachFiles()),
    remove(id) {
      setFiles((list) => list.filter((f) => f.id !== id));
      void relayBridge()?.discardAttachments({ ids: [id] });
    },
    dismissRefused: () => setRefused([]),
    sent() {
      setFiles([]);
      setRefused([]);
    },
    dragging,
    dropProps: {
      onDragOver(event) {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      },
      onDragLeave() {
        setDragging(false);
      },
      onDrop(event) {
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        setDragging(false);
        attachDropped([...event.dataTransfer.files]);
      },
    },
    onPaste(event) {
      const pasted = [...event.clipboardData.files];
      if (pasted.length === 0) return;
      event.preventDefault();
      attachDropped(pasted);
    },
  };
}

/** The composer's files: a chip each with its size and tokens, and the files refused, by name. */
export function AttachmentChips({
  drafts,
  contextTokens,
  textTokens,
}: {
  drafts: AttachmentDrafts;
  contextTokens: number | undefined;
  textTokens: number;
}) {
  const mainText = useMainMessageText();
  const { files, refused, reading } = drafts;
  if (files.length === 0 && refused.length === 0 && !reading) return null;
  const total = drafts.tokens + textTokens;
  const over = contextTokens !== undefined && total > contextTokens;
  return (
    <div className="chat-attachments">
      {files.length > 0 && (
        <ul className="chat-attachment-chips" aria-label="Attached files">
          {files.map((file) => (
            <li key={file.id} className="chat-attachment-chip" data-kind={file.kind}>
              <AttachmentIcon file={file} />
              <span className="chat-attachment-name">{file.name}</span>
              <span className="chat-attachment-meta">
                {formatBytes(file.bytes)}
                {file.pages !== undefined
                  ? ` · ${file.pages} page${file.pages === 1 ? '' : 's'}`
                  : ''}
                {file.width !== undefined ? ` · ${file.width}×${file.height} px` : ''} ·{' '}
                {formatTokens(file.tokens)}
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${file.name}`}
                title={`Remove ${file.name}`}
                onClick={() => drafts.remove(file.id)}
              >
                <Icon name="close" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {reading && (
        <p className="chat-composer-hint" role="status">
          Reading the files…
        </p>
      )}
      {files.length > 0 && (
        <p
          className={over ? 'field-error' : 'chat-composer-hint'}
          role={over ? 'alert' : undefined}
        >
          {over
            ? `With its files this message is about ${total.toLocaleString('en')} tokens, more than the ${contextTokens.toLocaleString('en')} the model takes: remove a file, or raise the limit in Settings.`
            : `About ${total.toLocaleString('en')} tokens with the files${contextTokens === undefined ? '' : ` (the model takes ${contextTokens.toLocaleString('en')})`}.`}
        </p>
      )}
      {refused.length > 0 && (
        <div className="chat-attachment-refused" role="alert">
          <ul aria-label="Files not added">
            {refused.map((refusal, index) => (
              <li key={`${refusal.name}-${index}`}>{mainText(refusal)}</li>
            ))}
          </ul>
          <button type="button" className="button button-small" onClick={drafts.dismissRefused}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
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

function thumbnailOf(id: string): Promise<string | null> {
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

/**
 * An image's thumbnail (a data: URL made in main: the page loads no file and no remote image), or
 * the file icon for any other file and while the thumbnail comes.
 */
function AttachmentIcon({ file }: { file: AttachmentInfo }) {
  const [url, setUrl] = useState(file.thumbnail ?? null);
  useEffect(() => {
    if (file.kind !== 'image' || file.thumbnail !== undefined) return;
    let live = true;
    void thumbnailOf(file.id).then((found) => {
      if (live) setUrl(found);
    });
    return () => {
      live = false;
    };
  }, [file.id, file.kind, file.thumbnail]);
  if (url === null) return <Icon name="file" />;
  return <img className="chat-attachment-thumbnail" src={url} alt="" draggable={false} />;
}

async function openFile(file: AttachmentInfo) {
  try {
    await requireBridge().openAttachment({ id: file.id });
  } catch (error) {
    showToast(`${file.name} was not opened: ${failureOf(error).message}`, { tone: 'error' });
  }
}

async function saveFile(file: AttachmentInfo) {
  try {
    const result = await requireBridge().saveAttachment({ id: file.id });
    if (result.saved && result.path) showSavedToast(`Saved ${file.name}.`, result.path);
  } catch (error) {
    showToast(`${file.name} was not saved: ${failureOf(error).message}`, { tone: 'error' });
  }
}

/** The files sent with a message, each with Open and Save as. */
export function MessageAttachments({ files }: { files: readonly AttachmentInfo[] }) {
  return (
    <ul className="chat-message-attachments" aria-label="Files sent">
      {files.map((file) => (
        <li key={file.id} className="chat-attachment-chip" data-kind={file.kind}>
          <AttachmentIcon file={file} />
          <span className="chat-attachment-name">{file.name}</span>
          <span className="chat-attachment-meta">
            {formatBytes(file.bytes)}
            {file.pages !== undefined ? ` · ${file.pages} page${file.pages === 1 ? '' : 's'}` : ''}
          </span>
          <button
            type="button"
            className="button button-small"
            aria-label={`Open ${file.name}`}
            onClick={() => void openFile(file)}
          >
            Open
          </button>
          <button
            type="button"
            className="button button-small"
            aria-label={`Save ${file.name} as`}
            onClick={() => void saveFile(file)}
          >
            Save as…
          </button>
        </li>
      ))}
    </ul>
  );
}
