/**
 * The image studio: generations that can be cancelled, and what the person does with the images
 * of the gallery (delete to the trash, save a copy, reveal, copy, drag, choose the folder).
 *
 * A file system failure on the way (a full disk, a folder it may not write) is said plainly, as
 * an AppError naming the gallery folder; a refusal of the gallery goes on as it is.
 */
import type { Emit } from '../../../shared/ipc/contract';
import type { DesktopShell, Dialogs } from '../../app-context';
import { AppError } from '../app-error';
import type { RelayClient } from '../relay/relay-client';
import { galleryFault, type ImageGallery } from './gallery';
import { generateImages, type GenerateRequest, type Generated } from './generate';
import { nativeText, said } from '../words';

export interface ImagesServiceOptions {
  gallery: ImageGallery;
  /** A client for the active connection; retries are reported under `requestId`. */
  client(requestId: string): Promise<RelayClient>;
  emit: Emit;
  dialogs: Dialogs;
  desktop: DesktopShell;
}

export class ImagesService {
  readonly #options: ImagesServiceOptions;
  /** The generations running now, by request id, to cancel them. */
  readonly #running = new Map<string, AbortController>();

  constructor(options: ImagesServiceOptions) {
    this.#options = options;
  }

  get #gallery(): ImageGallery {
    return this.#options.gallery;
  }

  /** Runs `work`, saying a file system failure of the gallery plainly. */
  async #io<T>(work: () => Promise<T> | T): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw galleryFault(error);
    }
  }

  #changed(): void {
    this.#options.emit('galleryChanged', null);
  }

  /** Asks the relay for images and saves them to the gallery, reporting progress as it goes. */
  generate(requestId: string, request: GenerateRequest): Promise<Generated> {
    return this.#io(async () => {
      if (this.#running.has(requestId)) {
        throw new AppError('invalid_request', said('images.alreadyRunning'));
      }
      const controller = new AbortController();
      this.#running.set(requestId, controller);
      try {
        const client = await this.#options.client(requestId);
        return await generateImages(request, {
          client,
          gallery: this.#gallery,
          signal: controller.signal,
          onProgress: (progress) =>
            this.#options.emit('imagesProgress', { requestId, ...progress }),
        });
      } finally {
        this.#running.delete(requestId);
        this.#changed();
      }
    });
  }

  /** Stops a running generation; the images already saved stay. */
  cancel(requestId: string): void {
    this.#running.get(requestId)?.abort();
  }

  get(id: string) {
    return this.#io(() => this.#gallery.get(id));
  }

  /** Moves the image's file to the trash and takes it out of the gallery. */
  delete(id: string): Promise<void> {
    return this.#io(async () => {
      await this.#gallery.delete(id, (path) => this.#options.desktop.moveToTrash(path));
      this.#changed();
    });
  }

  reveal(id: string): Promise<void> {
    return this.#io(async () => this.#options.desktop.showInFolder((await this.get(id)).path));
  }

  /** Saves a copy where the person chooses. */
  saveAs(id: string): Promise<{ saved: false } | { saved: true; path: string }> {
    return this.#io(async () => {
      const image = await this.#gallery.get(id);
      const ext = image.fileName.split('.').pop() ?? 'png';
      const path = await this.#options.dialogs.chooseSavePath({
        title: nativeText('dialog.saveImage'),
        defaultName: image.fileName,
        filters: [
          {
            name: nativeText('dialog.imageFilter', { type: ext.toUpperCase() }),
            extensions: [ext],
          },
        ],
      });
      if (path === undefined) return { saved: false };
      await this.#gallery.copyTo(id, path);
      return { saved: true, path };
    });
  }

  copy(id: string): Promise<void> {
    return this.#io(async () => {
      const { copyImage } = this.#options.desktop;
      if (!copyImage) throw new AppError('internal', said('images.copyUnavailable'));
      await copyImage((await this.#gallery.get(id)).path);
    });
  }

  /** Starts dragging the image's file out of the window `webContentsId`. */
  startDrag(id: string, webContentsId: number): Promise<void> {
    return this.#io(async () => {
      const { startDrag } = this.#options.desktop;
      if (!startDrag) throw new AppError('internal', said('images.dragUnavailable'));
      startDrag((await this.#gallery.get(id)).path, webContentsId);
    });
  }

  /** Lets the person choose another gallery folder; the current one if they cancel. */
  chooseFolder(): Promise<{ path: string; isDefault: boolean }> {
    return this.#io(async () => {
      const current = this.#gallery.folder();
      const chosen = await this.#options.dialogs.chooseFolder?.({
        title: nativeText('dialog.chooseGalleryFolder'),
        defaultPath: current.path,
      });
      if (chosen === undefined) return current;
      const folder = await this.#gallery.setFolder(chosen);
      this.#changed();
      return folder;
    });
  }

  /** Stops every generation still running (the app is closing). */
  close(): void {
    this.#running.forEach((controller) => controller.abort());
  }
}
