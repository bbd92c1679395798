import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Notice } from '../../components/notice';
import {
  copyImage,
  copyPrompt,
  deleteImage,
  openImage,
  revealImage,
  saveImageAs,
  startImageDrag,
} from './images-actions';
import { useImagesStore } from './images-store';

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The open image, large, with what made it and what can be done with it. */
export function ImageLightbox({
  onRunAgain,
}: {
  onRunAgain(image: { prompt: string; size: string; model: string }): void;
}) {
  const openId = useImagesStore((s) => s.openId);
  const image = useImagesStore((s) => s.gallery.find((i) => i.id === s.openId) ?? s.detail);
  const detail = useImagesStore((s) => s.detail);
  const note = useImagesStore((s) => s.actionNote);
  const ref = useRef<HTMLDialogElement>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (openId && !dialog.open) dialog.showModal();
    if (!openId && dialog.open) dialog.close();
  }, [openId]);

  return (
    <dialog
      ref={ref}
      className="lightbox"
      aria-label="Image"
      onClose={() => void openImage(undefined)}
    >
      {image && (
        <div className="lightbox-body">
          <div className="lightbox-image">
            <img
              src={image.url}
              alt={image.prompt}
              draggable
              onDragStart={(event) => {
                event.preventDefault();
                void startImageDrag(image.id);
              }}
            />
          </div>
          <aside className="lightbox-meta">
            <dl className="image-meta">
              <dt>Prompt</dt>
              <dd className="image-prompt-text">{image.prompt || '(not recorded)'}</dd>
              {image.revisedPrompt && (
                <>
                  <dt>Revised prompt</dt>
                  <dd>{image.revisedPrompt}</dd>
                </>
              )}
              <dt>Model</dt>
              <dd>{image.model || '(not recorded)'}</dd>
              <dt>Size</dt>
              <dd>{image.size || '(not recorded)'}</dd>
              <dt>Made</dt>
              <dd>
                <time dateTime={image.createdAt}>{new Date(image.createdAt).toLocaleString()}</time>
              </dd>
              <dt>File</dt>
              <dd className="image-file">
                {detail?.path ?? image.fileName} · {formatBytes(image.bytes)}
              </dd>
            </dl>
            <div className="lightbox-actions">
              <button
                type="button"
                className="button"
                onClick={() => void copyPrompt(image.prompt)}
              >
                Copy prompt
              </button>
              <button
                type="button"
                className="button"
                disabled={!image.model || !image.prompt}
                onClick={() => onRunAgain(image)}
              >
                Run again
              </button>
              <button type="button" className="button" onClick={() => void saveImageAs(image.id)}>
                Save as…
              </button>
              <button type="button" className="button" onClick={() => void revealImage(image.id)}>
                Show in folder
              </button>
              <button type="button" className="button" onClick={() => void copyImage(image.id)}>
                Copy image
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => setConfirming(true)}
              >
                Delete…
              </button>
            </div>
            {note && (
              <Notice tone={note.tone === 'error' ? 'error' : 'success'}>
                <p className="failure-message">{note.text}</p>
              </Notice>
            )}
            <button
              type="button"
              className="button lightbox-close"
              onClick={() => void openImage(undefined)}
            >
              Close
            </button>
          </aside>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title="Delete this image?"
        confirmLabel="Move to trash"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          if (image) void deleteImage(image.id);
        }}
      >
        <p>The file and its prompt go to the trash, where you can still restore them.</p>
      </ConfirmDialog>
    </dialog>
  );
}
