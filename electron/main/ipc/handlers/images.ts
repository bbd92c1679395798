import { join } from 'node:path';
import type { IMAGES_ROUTES } from '../../../shared/ipc/routes/images';
import type { AppContext } from '../../app-context';
import { ImageGallery } from '../../services/images/gallery';
import { ImagesService } from '../../services/images/images-service';
import type { Handlers } from '../router';
import { saved } from './saved-files';

/** How long after the start the gallery folder is indexed, unless the gallery is opened first. */
export const GALLERY_INDEX_AFTER_MS = 3_000;

/** The gallery of the app: `<Pictures>/Relay Desktop` until the person chooses another folder. */
export async function openImageGallery(context: AppContext): Promise<ImageGallery> {
  const gallery = await ImageGallery.open({
    db: context.db,
    defaultFolder: join(context.picturesDir ?? context.userDataDir, 'Relay Desktop'),
    // The folder is indexed in the background: the page shows each step of it. Not during the
    // app's first seconds, which are the window's start, unless the gallery is asked for.
    indexAfterMs: GALLERY_INDEX_AFTER_MS,
    onChange: () => context.emit('galleryChanged', null),
  });
  context.onClose(() => gallery.close());
  return gallery;
}

/** The handlers of the images routes: one line each, over the images service. */
export async function imagesHandlers(
  context: AppContext,
  gallery: ImageGallery,
): Promise<Handlers<typeof IMAGES_ROUTES>> {
  const images = new ImagesService({
    gallery,
    client: async (requestId) => (await context.activeClient(requestId)).client,
    emit: context.emit,
    dialogs: context.dialogs,
    desktop: context.desktop,
  });
  context.onClose(() => images.close());

  return {
    generateImages: ({ requestId, ...request }) => images.generate(requestId, request),
    cancelImages: ({ requestId }) => (images.cancel(requestId), null),
    listImages: (request) => gallery.list(request ?? {}),
    getImage: ({ id }) => images.get(id),
    deleteImage: async ({ id }) => (await images.delete(id), null),
    revealImage: async ({ id }) => (await images.reveal(id), null),
    saveImageAs: async ({ id }) => saved(context, await images.saveAs(id)),
    copyImage: async ({ id }) => (await images.copy(id), null),
    startImageDrag: async ({ id }, sender) => (
      await images.startDrag(id, sender.webContentsId),
      null
    ),
    getGalleryFolder: () => gallery.folder(),
    chooseGalleryFolder: () => images.chooseFolder(),
  };
}
