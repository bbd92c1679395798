/**
 * Files with a message: the composer's chips (attached by the button, a drop or a paste) and the
 * files listed on a sent message (open, save as).
 *
 * The page never reads a file from disk and never names a path: the button asks main to open its
 * own dialog, a dropped file goes to main by the grant main gave the preload for it
 * (`grantDroppedFiles`), and only a pasted file (or a dropped one that is not on disk) is handed
 * over as the bytes the page was given.
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
import { formatFileSize, formatNumber } from '../../i18n/format';
import { t, useT } from '../../i18n/i18n';
import { failureOf, mainMessageText, useMainMessageText } from '../../lib/errors';
import { relayBridge, requireBridge } from '../../lib/relay-bridge';
import { showSavedToast, showToast } from '../../lib/toasts';
import type { AttachmentInfo, AttachmentRefusal } from './chat-types';

/**
 * What a file chip says after the name: its size, pages or pixels, and its estimated tokens
 * ("14 kB · 3 pages · ~800 tokens"), in the language of the moment.
 */
function fileFacts(file: AttachmentInfo, withTokens: boolean): string {
  const facts = [formatFileSize(file.bytes)];
  if (file.pages !== undefined) facts.push(t('chat.attachments.pages', { count: file.pages }));
  if (withTokens && file.width !== undefined && file.height !== undefined)
    facts.push(
      t('chat.attachments.pixels', {
        width: formatNumber(file.width),
        height: formatNumber(file.height),
      }),
    );
  if (withTokens) facts.push(t('chat.attachments.tokens', { count: file.tokens }));
  return facts.join(' · ');
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
      void run(async () => {
        const granted = (await bridge.grantDroppedFiles?.(list, 'attach')) ?? list.map(() => null);
        const grants = granted.filter((grant): grant is string => grant !== null);
        const inMemory = list.filter((_, index) => granted[index] === null);
        const attached: AttachmentInfo[] = [];
        const refusedNow: AttachmentRefusal[] = [];
        if (grants.length > 0) {
          const result = await bridge.attachDropped({ grants });
          attached.push(...result.attached);
          refusedNow.push(...result.refused);
        }
        for (const file of inMemory) {
          const result = await bridge.attachBytes({
            name: file.name || t('chat.attachments.pastedName'),
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
  const t = useT();
  const { files, refused, reading } = drafts;
  if (files.length === 0 && refused.length === 0 && !reading) return null;
  const total = drafts.tokens + textTokens;
  const over = contextTokens !== undefined && total > contextTokens;
  return (
    <div className="chat-attachments">
      {files.length > 0 && (
        <ul className="chat-attachment-chips" aria-label={t('chat.attachments.attached')}>
          {files.map((file) => (
            <li key={file.id} className="chat-attachment-chip" data-kind={file.kind}>
              <AttachmentIcon file={file} />
              <span className="chat-attachment-name">{file.name}</span>
              <span className="chat-attachment-meta">{fileFacts(file, true)}</span>
              <button
                type="button"
                className="icon-button"
                aria-label={t('chat.attachments.remove', { name: file.name })}
                title={t('chat.attachments.remove', { name: file.name })}
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
          {t('chat.attachments.reading')}
        </p>
      )}
      {files.length > 0 && (
        <p
          className={over ? 'field-error' : 'chat-composer-hint'}
          role={over ? 'alert' : undefined}
        >
          {over
            ? t('chat.attachments.overLimit', {
                count: total,
                limit: formatNumber(contextTokens),
              })
            : contextTokens === undefined
              ? t('chat.attachments.total', { count: total })
              : t('chat.attachments.totalOfLimit', {
                  count: total,
                  limit: formatNumber(contextTokens),
                })}
        </p>
      )}
      {refused.length > 0 && (
        <div className="chat-attachment-refused" role="alert">
          <ul aria-label={t('chat.attachments.refused')}>
            {refused.map((refusal, index) => (
              <li key={`${refusal.name}-${index}`} data-source="main">
                {mainText(refusal)}
              </li>
            ))}
          </ul>
          <button type="button" className="button button-small" onClick={drafts.dismissRefused}>
            {t('chat.dismiss')}
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
    showToast(
      t('chat.attachments.notOpened', { name: file.name, message: failureOf(error).message }),
      { tone: 'error' },
    );
  }
}

async function saveFile(file: AttachmentInfo) {
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

/** The files sent with a message, each with Open and Save as. */
export function MessageAttachments({ files }: { files: readonly AttachmentInfo[] }) {
  const t = useT();
  return (
    <ul className="chat-message-attachments" aria-label={t('chat.attachments.sent')}>
      {files.map((file) => (
        <li key={file.id} className="chat-attachment-chip" data-kind={file.kind}>
          <AttachmentIcon file={file} />
          <span className="chat-attachment-name">{file.name}</span>
          <span className="chat-attachment-meta">{fileFacts(file, false)}</span>
          <button
            type="button"
            className="button button-small"
            aria-label={t('chat.attachments.open.label', { name: file.name })}
            onClick={() => void openFile(file)}
          >
            {t('chat.attachments.open')}
          </button>
          <button
            type="button"
            className="button button-small"
            aria-label={t('chat.attachments.saveAs.label', { name: file.name })}
            onClick={() => void saveFile(file)}
          >
            {t('chat.attachments.saveAs')}
          </button>
        </li>
      ))}
    </ul>
  );
}
