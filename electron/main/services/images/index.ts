/** Opens the images domain: the gallery over its folder and table, and generation. Composition root only. */
import { join } from 'node:path';
import type { AppContext } from '../../app-context';
import { ImageGallery } from './gallery';
import { ImagesService } from './images-service';

/** How long after the start the gallery folder is indexed, unless the gallery is opened first. */
export const GALLERY_INDEX_AFTER_MS = 3_000;

export type ImagesDeps = Pick<
  AppContext,
  'db' | 'emit' | 'dialogs' | 'desktop' | 'picturesDir' | 'userDataDir' | 'activeClient' | 'onClose'
>;

/** The gallery of the app: `<Pictures>/Relay Desktop` until the person chooses another folder. */
export async function openImageGallery(deps: ImagesDeps): Promise<ImageGallery> {
  const gallery = await ImageGallery.open({
    db: deps.db,
    defaultFolder: join(deps.picturesDir ?? deps.userDataDir, 'Relay Desktop'),
    // The folder is indexed in the background: the page shows each step of it. Not during the
    // app's first seconds, which are the window's start, unless the gallery is asked for.
    indexAfterMs: GALLERY_INDEX_AFTER_MS,
    onChange: () => deps.emit('galleryChanged', null),
  });
  deps.onClose(() => gallery.close());
  return gallery;
}

/** Image generation over the gallery (opened first: the app protocol serves its files). */
export function openImages(deps: ImagesDeps, gallery: ImageGallery): ImagesService {
  const images = new ImagesService({
    gallery,
    client: async (requestId) => (await deps.activeClient(requestId)).client,
    emit: deps.emit,
    dialogs: deps.dialogs,
    desktop: deps.desktop,
  });
  deps.onClose(() => images.close());
  return images;
}
