import { useEffect } from 'react';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
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
          <h1 className="page-title">Images</h1>
          <p className="page-lead">Every image is saved as a file, with its prompt beside it.</p>
        </div>
      </header>
      {models.status === 'failed' && models.failure && (
        <Notice tone="error" title={failureTitle(models.failure)}>
          <p className="failure-message">{models.failure.message}</p>
        </Notice>
      )}
      {models.status === 'ready' && models.models.length === 0 && (
        <Notice tone="info" title="This relay offers no image model">
          <p>Mark a model as an image model on the Models screen to use it here.</p>
        </Notice>
      )}
      <ImageForm models={models} />
      {retry && <RetryNotice retry={retry} title="The relay asked us to wait" />}
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
      <section className="gallery" aria-label="Gallery">
        <header className="gallery-header">
          <h2 className="gallery-title">
            Gallery <span className="muted">({total})</span>
          </h2>
          <p className="gallery-folder muted">
            {folder && <span title={folder.path}>{folder.path}</span>}
            <button
              type="button"
              className="button button-small"
              onClick={() => void chooseFolder()}
            >
              Change folder…
            </button>
          </p>
        </header>
        {galleryStatus === 'loading' && (
          <p className="muted">
            <Spinner label="Loading" /> Loading the gallery…
          </p>
        )}
        {galleryStatus === 'failed' && galleryFailure && (
          <Notice tone="error" title="The gallery could not be read">
            <p className="failure-message">{galleryFailure.message}</p>
          </Notice>
        )}
        {indexing && (
          <p className="muted gallery-indexing" role="status">
            <Spinner label="Reading the folder" /> Reading the gallery folder
            {indexing.total > 0
              ? `: ${indexing.done.toLocaleString()} of ${indexing.total.toLocaleString()} new files. The images appear as they are read.`
              : '…'}
          </p>
        )}
        {galleryStatus === 'ready' && total === 0 && !indexing && (
          <EmptyState title="No images yet">
            <p>Images you generate appear here, newest first.</p>
          </EmptyState>
        )}
        {total > 0 && <GalleryGrid />}
      </section>
      <ImageLightbox onRunAgain={(image) => void runAgain(image, models.choose)} />
    </div>
  );
}
