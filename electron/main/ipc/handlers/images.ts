import { join } from 'node:path';
import type { IMAGES_ROUTES } from '../../../shared/ipc/routes/images';
import type { AppContext } from '../../app-context';
import { GalleryError, ImageGallery } from '../../services/images/gallery';
import { generateImages } from '../../services/images/generate';
import { HandlerError, type Handlers } from '../router';

/** The gallery of the app: `<Pictures>/Relay Desktop` until the person chooses another folder. */
export async function openImageGallery(context: AppContext): Promise<ImageGallery> {
  const gallery = await ImageGallery.open({
    db: context.db,
    defaultFolder: join(context.picturesDir ?? context.userDataDir, 'Relay Desktop'),
    // The folder is indexed in the background: the page shows each step of it.
    onChange: () => context.emit('images:gallery-changed', null),
  });
  context.onClose(() => gallery.close());
  return gallery;
}

async function guarded<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GalleryError) {
      throw new HandlerError(
        error.kind === 'not_found' ? 'not_found' : 'invalid_request',
        error.message,
      );
    }
    // A file system failure (full disk, no permission): said plainly, never as a crash.
    if (error instanceof Error && 'syscall' in error) {
      throw new HandlerError('internal', `The gallery folder could not be used: ${error.message}`);
    }
    throw error;
  }
}

/** The handlers of the images routes: a few lines each, over the gallery service. */
export async function imagesHandlers(
  context: AppContext,
  gallery: ImageGallery,
): Promise<Handlers<typeof IMAGES_ROUTES>> {
  const running = new Map<string, AbortController>();
  context.onClose(() => running.forEach((controller) => controller.abort()));
  const changed = () => context.emit('images:gallery-changed', null);

  return {
    generateImages: ({ requestId, ...request }) =>
      guarded(async () => {
        if (running.has(requestId)) {
          throw new HandlerError('invalid_request', 'That generation is already running.');
        }
        const controller = new AbortController();
        running.set(requestId, controller);
        try {
          const { client } = await context.activeClient(requestId);
          const images = await generateImages(request, {
            client,
            gallery,
            signal: controller.signal,
            onProgress: (progress) => context.emit('images:progress', { requestId, ...progress }),
          });
          return { images };
        } finally {
          running.delete(requestId);
          changed();
        }
      }),
    cancelImages: ({ requestId }) => {
      running.get(requestId)?.abort();
      return null;
    },

    listImages: (request) => gallery.list(request ?? {}),
    getImage: ({ id }) => guarded(() => gallery.get(id)),
    deleteImage: ({ id }) =>
      guarded(async () => {
        await gallery.delete(id, (path) => context.desktop.moveToTrash(path));
        changed();
        return null;
      }),
    revealImage: ({ id }) =>
      guarded(async () => {
        context.desktop.showInFolder((await gallery.get(id)).path);
        return null;
      }),
    saveImageAs: ({ id }) =>
      guarded(async () => {
        const image = await gallery.get(id);
        const ext = image.fileName.split('.').pop() ?? 'png';
        const path = await context.dialogs.chooseSavePath({
          title: 'Save the image as',
          defaultName: image.fileName,
          filters: [{ name: `${ext.toUpperCase()} image`, extensions: [ext] }],
        });
        if (path === undefined) return { saved: false };
        await gallery.copyTo(id, path);
        return { saved: true, path };
      }),
    copyImage: ({ id }) =>
      guarded(async () => {
        const { copyImage } = context.desktop;
        if (!copyImage) throw new HandlerError('internal', 'Copying images is not available here.');
        await copyImage((await gallery.get(id)).path);
        return null;
      }),
    startImageDrag: ({ id }, sender) =>
      guarded(async () => {
        const { startDrag } = context.desktop;
        if (!startDrag)
          throw new HandlerError('internal', 'Dragging images is not available here.');
        startDrag((await gallery.get(id)).path, sender.webContentsId);
        return null;
      }),

    getGalleryFolder: () => gallery.folder(),
    chooseGalleryFolder: () =>
      guarded(async () => {
        const current = gallery.folder();
        const chosen = await context.dialogs.chooseFolder?.({
          title: 'Choose the gallery folder',
          defaultPath: current.path,
        });
        if (chosen === undefined) return current;
        const folder = await gallery.setFolder(chosen);
        changed();
        return folder;
      }),
  };
}
