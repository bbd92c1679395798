import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Notice } from '../../components/notice';
import { formatDate, formatFileSize } from '../../i18n/format';
import { useNamespace } from '../../i18n/use-namespace';
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

const MADE: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** The open image, large, with what made it and what can be done with it. */
export function ImageLightbox({
  onRunAgain,
}: {
  onRunAgain(image: { prompt: string; size: string; model: string }): void;
}) {
  const t = useNamespace('images');
  const notRecorded = t('images.meta.notRecorded');
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
      aria-label={t('images.lightbox')}
      aria-keyshortcuts="ArrowLeft ArrowRight"
      onClose={() => void openImage(undefined)}
      onKeyDown={(event) => {
        // ← and → browse to the image before or after this one, in the gallery's order.
        const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
        if (step === undefined || confirming) return;
        if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
        const { gallery } = useImagesStore.getState();
        const at = gallery.findIndex((i) => i.id === openId);
        const next = at === -1 ? undefined : gallery[at + step];
        event.preventDefault();
        if (next) void openImage(next.id);
      }}
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
              <dt>{t('images.meta.prompt')}</dt>
              <dd className="image-prompt-text">{image.prompt || notRecorded}</dd>
              {image.revisedPrompt && (
                <>
                  <dt>{t('images.meta.revisedPrompt')}</dt>
                  <dd>{image.revisedPrompt}</dd>
                </>
              )}
              <dt>{t('images.meta.model')}</dt>
              <dd>{image.model || notRecorded}</dd>
              <dt>{t('images.meta.size')}</dt>
              <dd>{image.size || notRecorded}</dd>
              <dt>{t('images.meta.made')}</dt>
              <dd>
                <time dateTime={image.createdAt}>{formatDate(image.createdAt, MADE)}</time>
              </dd>
              <dt>{t('images.meta.file')}</dt>
              <dd className="image-file">
                {t('images.meta.fileLine', {
                  path: detail?.path ?? image.fileName,
                  size: formatFileSize(image.bytes),
                })}
              </dd>
            </dl>
            <div className="lightbox-actions">
              <button
                type="button"
                className="button"
                onClick={() => void copyPrompt(image.prompt)}
              >
                {t('images.lightbox.copyPrompt')}
              </button>
              <button
                type="button"
                className="button"
                disabled={!image.model || !image.prompt}
                onClick={() => onRunAgain(image)}
              >
                {t('images.lightbox.runAgain')}
              </button>
              <button type="button" className="button" onClick={() => void saveImageAs(image.id)}>
                {t('images.lightbox.saveAs')}
              </button>
              <button type="button" className="button" onClick={() => void revealImage(image.id)}>
                {t('images.lightbox.reveal')}
              </button>
              <button type="button" className="button" onClick={() => void copyImage(image.id)}>
                {t('images.lightbox.copyImage')}
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => setConfirming(true)}
              >
                {t('images.lightbox.delete')}
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
              {t('images.lightbox.close')}
            </button>
          </aside>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('images.delete.title')}
        confirmLabel={t('images.delete.confirm')}
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          if (image) void deleteImage(image.id);
        }}
      >
        <p>{t('images.delete.body')}</p>
      </ConfirmDialog>
    </dialog>
  );
}
