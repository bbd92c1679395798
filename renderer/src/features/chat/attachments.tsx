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
import { Icon } from '../../components/icon';
import { formatFileSize, formatNumber } from '../../i18n/format';
import { t, useT } from '../../i18n/i18n';
import { useMainMessageText } from '../../lib/errors';
import { runAction } from '../../lib/run-action';
import {
  attachDroppedFiles,
  attachPicked,
  attachResource,
  discardAttachments,
  openFile,
  saveFile,
  thumbnailOf,
  type Attached,
} from './attachments-actions';
import type { AttachmentInfo, AttachmentRefusal } from './chat-types';

export { imagesWarning } from './attachments-actions';

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

export interface AttachmentDrafts {
  files: AttachmentInfo[];
  refused: AttachmentRefusal[];
  /** Files being read in main. */
  reading: boolean;
  /** Estimated tokens of the files. */
  tokens: number;
  pick(): Promise<void>;
  /** A resource of an MCP server, read in main and attached like a file. */
  attachResource(serverId: string, uri: string): Promise<void>;
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
      if (ids.length > 0) discardAttachments(ids);
    },
    [conversationId],
  );

  const run = useCallback(async (attach: () => Promise<Attached>) => {
    setPending((n) => n + 1);
    const outcome = await runAction(attach);
    if (outcome.ok) {
      setFiles((list) => [...list, ...outcome.value.attached]);
      setRefused(outcome.value.refused);
    } else {
      setRefused([{ name: '', reason: 'failed', message: outcome.failure.message }]);
    }
    setPending((n) => n - 1);
  }, []);

  const attachDropped = useCallback(
    (list: readonly File[]) => {
      if (list.length === 0) return;
      void run(() => attachDroppedFiles(list));
    },
    [run],
  );

  return {
    files,
    refused,
    reading: pending > 0,
    tokens: files.reduce((sum, f) => sum + f.tokens, 0),
    pick: () => run(attachPicked),
    attachResource: (serverId, uri) => run(() => attachResource(serverId, uri)),
    remove(id) {
      setFiles((list) => list.filter((f) => f.id !== id));
      discardAttachments([id]);
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
