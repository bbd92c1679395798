import { memo } from 'react';
import { VirtuosoGrid } from 'react-virtuoso';
import { useNamespace } from '../../i18n/use-namespace';
import { loadMoreImages, openImage, startImageDrag } from './images-actions';
import { useImagesStore, type GalleryImage } from './images-store';

/** One thumbnail: opens the lightbox, and drags the file out to other apps. */
const Thumbnail = memo(function Thumbnail({ image }: { image: GalleryImage }) {
  const t = useNamespace('images');
  return (
    <button
      type="button"
      className="gallery-item"
      title={image.prompt}
      aria-label={t('images.gallery.open', { name: image.prompt || image.fileName })}
      onClick={() => void openImage(image.id)}
      draggable
      onDragStart={(event) => {
        // The OS drag is started by main, with the file itself.
        event.preventDefault();
        void startImageDrag(image.id);
      }}
    >
      <img src={image.url} alt="" loading="lazy" decoding="async" draggable={false} />
    </button>
  );
});

/** The gallery: a virtualized grid, so thousands of images cost no more than a screenful. */
export function GalleryGrid() {
  const images = useImagesStore((s) => s.gallery);
  return (
    <VirtuosoGrid
      className="gallery-grid"
      listClassName="gallery-list"
      itemClassName="gallery-cell"
      data={images}
      computeItemKey={(_, image) => image.id}
      endReached={() => void loadMoreImages()}
      overscan={400}
      itemContent={(_, image) => <Thumbnail image={image} />}
    />
  );
}
