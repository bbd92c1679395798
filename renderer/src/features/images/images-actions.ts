/** What the image studio asks of main; outcomes go to the store. */
import { t } from '../../i18n/i18n';
import { copyText } from '../../lib/clipboard';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { requireBridge } from '../../lib/relay-bridge';
import { checkCustomSize } from './image-size';
import { useImagesStore, type ImageForm } from './images-store';
import { IMAGE_SIZE_PRESETS } from '../../../../electron/shared/limits';

const FIRST_PAGE = 120;
const NEXT_PAGE = 600;

/** The size the form asks for, or why it cannot be sent. */
export function sizeOf(form: ImageForm) {
  return form.sizeChoice === 'custom'
    ? checkCustomSize(form.customWidth, form.customHeight)
    : ({ ok: true, size: form.sizeChoice } as const);
}

/** Generates what the form asks for with `model`; each image lands in the gallery at once. */
export async function generate(model: string): Promise<void> {
  const store = useImagesStore.getState();
  if (store.generation) return;
  const { form } = store;
  const size = sizeOf(form);
  if (!size.ok) {
    store.generationFailed({ kind: 'invalid_request', message: size.error, param: 'size' });
    return;
  }
  const requestId = crypto.randomUUID();
  store.generationStarted(requestId, form.count);
  try {
    const { images, identical } = await requireBridge().generateImages({
      requestId,
      model,
      prompt: form.prompt,
      size: size.size,
      count: form.count,
    });
    useImagesStore.getState().generationFinished({ total: images.length, identical });
  } catch (error) {
    useImagesStore.getState().generationFailed(failureOf(error));
  }
  void loadGallery();
}

/** Saves the right key for the connection a Generate was refused by (throws if it is not saved). */
export async function replaceImagesKey(connectionId: string, apiKey: string): Promise<void> {
  await requireBridge().updateConnection({ id: connectionId, changes: { apiKey } });
}

export async function cancelGeneration(): Promise<void> {
  const running = useImagesStore.getState().generation;
  if (running) await requireBridge().cancelImages({ requestId: running.requestId });
}

/**
 * What a Generate made, said truthfully: the gallery keeps one file per picture, so an image
 * identical to one it holds is not one more ("1 new image; 1 was identical to one you already
 * have.").
 */
export function outcomeText({ total, identical }: { total: number; identical: number }): string {
  return t('images.outcome', { fresh: total - identical, identical });
}

/** Puts an image's settings back in the form and generates one more like it. */
export async function runAgain(
  image: { prompt: string; size: string; model: string },
  choose: (model: string) => void,
): Promise<void> {
  const store = useImagesStore.getState();
  const preset = /^\d+x\d+$/.test(image.size) ? image.size : '1024x1024';
  const [w = '', h = ''] = preset.split('x');
  store.formChanged({
    prompt: image.prompt,
    sizeChoice: PRESET_SET.has(preset) ? preset : 'custom',
    customWidth: w,
    customHeight: h,
    count: 1,
  });
  store.imageOpened(undefined);
  if (image.model !== '') choose(image.model);
  if (image.model !== '' && image.prompt.trim() !== '') await generate(image.model);
}

const PRESET_SET = new Set<string>(IMAGE_SIZE_PRESETS);

/** Loads the newest images again, as many as are shown now (so the view does not jump). */
export async function loadGallery(): Promise<void> {
  const store = useImagesStore.getState();
  store.galleryRequested();
  try {
    const limit = Math.max(FIRST_PAGE, store.gallery.length);
    useImagesStore.getState().galleryLoaded(await requireBridge().listImages({ limit }), false);
  } catch (error) {
    useImagesStore.getState().galleryFailed(failureOf(error));
  }
}

let loadingMore = false;

/** The next page, when the grid scrolls near its end. */
export async function loadMoreImages(): Promise<void> {
  const { next } = useImagesStore.getState();
  if (!next || loadingMore) return;
  loadingMore = true;
  try {
    const page = await requireBridge().listImages({ limit: NEXT_PAGE, after: next });
    if (useImagesStore.getState().next === next)
      useImagesStore.getState().galleryLoaded(page, true);
  } catch (error) {
    useImagesStore.getState().galleryFailed(failureOf(error));
  } finally {
    loadingMore = false;
  }
}

export async function loadFolder(): Promise<void> {
  useImagesStore.getState().folderLoaded(await requireBridge().getGalleryFolder());
}

export async function chooseFolder(): Promise<void> {
  try {
    useImagesStore.getState().folderLoaded(await requireBridge().chooseGalleryFolder());
    await loadGallery();
  } catch (error) {
    useImagesStore.getState().galleryFailed(failureOf(error));
  }
}

export async function openImage(id: string | undefined): Promise<void> {
  const store = useImagesStore.getState();
  store.imageOpened(id);
  if (id === undefined) return;
  try {
    store.detailLoaded(await requireBridge().getImage({ id }));
  } catch (error) {
    noteFailure(failureOf(error));
  }
}

function noteFailure(failure: FailureInfo) {
  useImagesStore.getState().actionNoted({ tone: 'error', text: failure.message });
}

async function act(work: () => Promise<string | undefined>): Promise<void> {
  try {
    const done = await work();
    useImagesStore.getState().actionNoted(done ? { tone: 'success', text: done } : undefined);
  } catch (error) {
    noteFailure(failureOf(error));
  }
}

export const revealImage = (id: string) =>
  act(async () => (await requireBridge().revealImage({ id }), undefined));

export const saveImageAs = (id: string) =>
  act(async () => {
    const result = await requireBridge().saveImageAs({ id });
    if (!result.saved) return undefined;
    return result.path === undefined
      ? t('images.saved.chosen')
      : t('images.saved', { path: result.path });
  });

export const copyImage = (id: string) =>
  act(async () => (await requireBridge().copyImage({ id }), t('images.copied.image')));

export const copyPrompt = (prompt: string) =>
  act(async () => (await copyText(prompt), t('images.copied.prompt')));

export const startImageDrag = (id: string) =>
  act(async () => (await requireBridge().startImageDrag({ id }), undefined));

export async function deleteImage(id: string): Promise<void> {
  try {
    await requireBridge().deleteImage({ id });
    useImagesStore.getState().imageRemoved(id);
  } catch (error) {
    noteFailure(failureOf(error));
  }
}

/** Progress, retries and gallery changes from main; returns the unsubscribe. */
export function watchImages(): () => void {
  const bridge = requireBridge();
  const stops = [
    bridge.onImagesProgress((progress) => useImagesStore.getState().progressReceived(progress)),
    bridge.onRetryScheduled(({ requestId, attempt, delayMs, message }) =>
      useImagesStore
        .getState()
        .retryScheduled(requestId, { attempt, retryAt: Date.now() + delayMs, message }),
    ),
    bridge.onGalleryChanged(() => {
      if (!useImagesStore.getState().generation) void loadGallery();
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
