import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { LoadStatus, PendingRetry } from '../../lib/load-state';
import type { Answer } from '../../lib/relay-bridge';

export type GalleryImage = Answer<'listImages'>['images'][number];
export type GalleryImageDetail = Answer<'getImage'>;
export type GalleryFolder = Answer<'getGalleryFolder'>;
export type GalleryCursor = NonNullable<Answer<'listImages'>['next']>;

/** The form: what the next Generate asks for. */
export interface ImageForm {
  prompt: string;
  /** A preset such as `1024x1024`, or 'custom'. */
  sizeChoice: string;
  customWidth: string;
  customHeight: string;
  count: number;
}

export interface Generation {
  requestId: string;
  done: number;
  total: number;
  elapsedMs: number;
  /** Set while main waits to ask a busy relay again. */
  retry?: PendingRetry | undefined;
}

export interface ImagesState {
  form: ImageForm;
  generation?: Generation | undefined;
  /** Why the last Generate failed; cleared by the next one. */
  failure?: FailureInfo | undefined;
  /** What the last Generate made: how many images, how many the gallery held already. */
  lastOutcome?: { total: number; identical: number } | undefined;

  gallery: GalleryImage[];
  total: number;
  next?: GalleryCursor | undefined;
  /** While main reads the gallery folder in the background: files checked, of those found. */
  indexing?: { done: number; total: number } | undefined;
  galleryStatus: LoadStatus;
  galleryFailure?: FailureInfo | undefined;
  folder?: GalleryFolder | undefined;

  /** The image open in the lightbox. */
  openId?: string | undefined;
  detail?: GalleryImageDetail | undefined;
  /** What the last action in the lightbox did or why it failed. */
  actionNote?: { tone: 'success' | 'error'; text: string } | undefined;

  formChanged(changes: Partial<ImageForm>): void;
  generationStarted(requestId: string, total: number): void;
  progressReceived(progress: {
    requestId: string;
    done: number;
    total: number;
    elapsedMs: number;
  }): void;
  retryScheduled(requestId: string, retry: Generation['retry']): void;
  generationFinished(outcome: { total: number; identical: number }): void;
  generationFailed(failure: FailureInfo): void;
  galleryRequested(): void;
  galleryLoaded(page: Answer<'listImages'>, append: boolean): void;
  galleryFailed(failure: FailureInfo): void;
  folderLoaded(folder: GalleryFolder): void;
  imageOpened(id: string | undefined): void;
  detailLoaded(detail: GalleryImageDetail): void;
  actionNoted(note: ImagesState['actionNote']): void;
  imageRemoved(id: string): void;
}

export const useImagesStore = create<ImagesState>()((set) => ({
  form: { prompt: '', sizeChoice: '1024x1024', customWidth: '', customHeight: '', count: 1 },
  gallery: [],
  total: 0,
  galleryStatus: 'idle',

  formChanged: (changes) => set((state) => ({ form: { ...state.form, ...changes } })),
  generationStarted: (requestId, total) =>
    set({
      generation: { requestId, done: 0, total, elapsedMs: 0 },
      failure: undefined,
      lastOutcome: undefined,
    }),
  progressReceived: ({ requestId, done, total, elapsedMs }) =>
    set((state) =>
      state.generation?.requestId === requestId
        ? { generation: { ...state.generation, done, total, elapsedMs, retry: undefined } }
        : {},
    ),
  retryScheduled: (requestId, retry) =>
    set((state) =>
      state.generation?.requestId === requestId
        ? { generation: { ...state.generation, retry } }
        : {},
    ),
  generationFinished: (lastOutcome) => set({ generation: undefined, lastOutcome }),
  generationFailed: (failure) => set({ generation: undefined, failure }),
  galleryRequested: () =>
    set((state) => (state.galleryStatus === 'ready' ? {} : { galleryStatus: 'loading' })),
  galleryLoaded: (page, append) =>
    set((state) => ({
      gallery: append ? [...state.gallery, ...page.images] : page.images,
      total: page.total,
      next: page.next,
      indexing: page.indexing,
      galleryStatus: 'ready',
      galleryFailure: undefined,
    })),
  galleryFailed: (failure) => set({ galleryStatus: 'failed', galleryFailure: failure }),
  folderLoaded: (folder) => set({ folder }),
  imageOpened: (id) => set({ openId: id, detail: undefined, actionNote: undefined }),
  detailLoaded: (detail) => set((state) => (state.openId === detail.id ? { detail } : {})),
  actionNoted: (note) => set({ actionNote: note }),
  imageRemoved: (id) =>
    set((state) => ({
      gallery: state.gallery.filter((image) => image.id !== id),
      total: Math.max(0, state.total - 1),
      ...(state.openId === id ? { openId: undefined, detail: undefined } : {}),
    })),
}));
