import type { IMAGES_ROUTES } from '../../../shared/ipc/routes/images';
import type { AppContext } from '../../app-context';
import type { ImageGallery } from '../../services/images/gallery';
import type { ImagesService } from '../../services/images/images-service';
import type { Handlers } from '../router';
import { saved } from './saved-files';

/** The handlers of the images routes: one line each, over the images service. */
export function imagesHandlers(
  images: ImagesService,
  gallery: ImageGallery,
  shell: Pick<AppContext, 'savedFiles'>,
): Handlers<typeof IMAGES_ROUTES> {
  return {
    generateImages: ({ requestId, ...request }) => images.generate(requestId, request),
    cancelImages: ({ requestId }) => (images.cancel(requestId), null),
    listImages: (request) => gallery.list(request ?? {}),
    getImage: ({ id }) => images.get(id),
    deleteImage: async ({ id }) => (await images.delete(id), null),
    revealImage: async ({ id }) => (await images.reveal(id), null),
    saveImageAs: async ({ id }) => saved(shell, await images.saveAs(id)),
    copyImage: async ({ id }) => (await images.copy(id), null),
    startImageDrag: async ({ id }, sender) => (
      await images.startDrag(id, sender.webContentsId),
      null
    ),
    getGalleryFolder: () => gallery.folder(),
    chooseGalleryFolder: () => images.chooseFolder(),
  };
}
