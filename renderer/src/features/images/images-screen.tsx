import { useEffect } from 'react';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { formatNumber } from '../../i18n/format';
import { Message } from '../../i18n/i18n';
import { useNamespace } from '../../i18n/use-namespace';
import { failureTitle } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { GalleryGrid } from './gallery-grid';
import { RetryNotice } from '../../components/retry-notice';
import { ImageFailure } from './image-failure';
import { ImageForm } from './image-form';
import { ImageLightbox } from './image-lightbox';
import { useImageModels } from './image-models';
import {
  chooseFolder,
  generate,
  loadFolder,
  loadGallery,
  outcomeText,
  runAgain,
  watchImages,
} from './images-actions';
import { useImagesStore } from './images-store';
import './images.css';

/** The image studio: generate images, each saved as a file, and the gallery of that folder. */
export function ImagesScreen({ connection }: { connection: ConnectionSummary }) {
  const t = useNamespace('images');
  const models = useImageModels(connection.id);
  const failure = useImagesStore((s) => s.failure);
  const retry = useImagesStore((s) => s.generation?.retry);
  const lastOutcome = useImagesStore((s) => s.lastOutcome);
  const total = useImagesStore((s) => s.total);
  const galleryStatus = useImagesStore((s) => s.galleryStatus);
  const galleryFailure = useImagesStore((s) => s.galleryFailure);
  const indexing = useImagesStore((s) => s.indexing);
  const folder = useImagesStore((s) => s.folder);

  useEffect(() => {
    void loadGallery();
    void loadFolder();
    return watchImages();
  }, []);

  return (
    <div className="page images-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{t('images.title')}</h1>
          <p className="page-lead">{t('images.lead')}</p>
        </div>
      </header>
      {models.status === 'failed' && models.failure && (
        <Notice tone="error" title={failureTitle(models.failure)}>
          <p className="failure-message">{models.failure.message}</p>
        </Notice>
      )}
      {models.status === 'ready' && models.models.length === 0 && (
        <Notice tone="info" title={t('images.noModel.title')}>
          <p>{t('images.noModel.body')}</p>
        </Notice>
      )}
      <ImageForm models={models} />
      {retry && <RetryNotice retry={retry} title={t('images.wait')} />}
      {failure && (
        <ImageFailure
          connection={connection}
          failure={failure}
          onRetry={() => void generate(models.chosen)}
        />
      )}
      {lastOutcome !== undefined && !failure && (
        <p className="generation-outcome muted" role="status">
          {outcomeText(lastOutcome)}
        </p>
      )}
      <section className="gallery" aria-label={t('images.gallery')}>
        <header className="gallery-header">
          <h2 className="gallery-title">
            <Message
              id="images.gallery.title"
              values={{ count: formatNumber(total) }}
              components={{ 0: <span className="muted" /> }}
            />
          </h2>
          <p className="gallery-folder muted">
            {folder && <span title={folder.path}>{folder.path}</span>}
            <button
              type="button"
              className="button button-small"
              onClick={() => void chooseFolder()}
            >
              {t('images.gallery.changeFolder')}
            </button>
          </p>
        </header>
        {galleryStatus === 'loading' && (
          <p className="muted">
            <Spinner label={t('images.gallery.loadingLabel')} /> {t('images.gallery.loading')}
          </p>
        )}
        {galleryStatus === 'failed' && galleryFailure && (
          <Notice tone="error" title={t('images.gallery.failed')}>
            <p className="failure-message">{galleryFailure.message}</p>
          </Notice>
        )}
        {indexing && (
          <p className="muted gallery-indexing" role="status">
            <Spinner label={t('images.gallery.readingLabel')} />{' '}
            {indexing.total > 0
              ? t('images.gallery.readingProgress', {
                  done: formatNumber(indexing.done),
                  total: formatNumber(indexing.total),
                })
              : t('images.gallery.reading')}
          </p>
        )}
        {galleryStatus === 'ready' && total === 0 && !indexing && (
          <EmptyState title={t('images.gallery.empty.title')}>
            <p>{t('images.gallery.empty.body')}</p>
          </EmptyState>
        )}
        {total > 0 && <GalleryGrid />}
      </section>
      <ImageLightbox onRunAgain={(image) => void runAgain(image, models.choose)} />
    </div>
  );
}
