/**
 * One "Generate": as many requests as it takes to get `count` images, each saved to the gallery
 * the moment it arrives, with progress (and the time so far) reported as it goes. The gallery
 * keeps one file per picture (named by the hash of its bytes), so an image identical to one it
 * already holds is counted as such, not as one more.
 */
import type { RelayClient } from '../relay/relay-client';
import type { GalleryImage, ImageGallery } from './gallery';

export interface GenerateRequest {
  model: string;
  prompt: string;
  size: string;
  count: number;
}

export interface GenerateProgress {
  done: number;
  total: number;
  elapsedMs: number;
}

export interface GenerateOptions {
  client: Pick<RelayClient, 'generateImages'>;
  gallery: ImageGallery;
  signal?: AbortSignal;
  onProgress?: (progress: GenerateProgress) => void;
  /** How often progress is reported while waiting (ms). */
  tickMs?: number;
  now?: () => number;
}

export interface Generated {
  /** Every image the relay made, in order, as the gallery holds it. */
  images: GalleryImage[];
  /** How many of them the gallery held already (the same bytes): saved once, not again. */
  identical: number;
}

export async function generateImages(
  request: GenerateRequest,
  options: GenerateOptions,
): Promise<Generated> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const saved: GalleryImage[] = [];
  let identical = 0;
  const report = () =>
    options.onProgress?.({
      done: Math.min(saved.length, request.count),
      total: request.count,
      elapsedMs: Math.max(0, now() - started),
    });
  report();
  const timer = setInterval(report, options.tickMs ?? 1000);
  try {
    while (saved.length < request.count) {
      const { images } = await options.client.generateImages(
        { model: request.model, prompt: request.prompt, size: request.size },
        options.signal ? { signal: options.signal } : {},
      );
      // Every image the relay made is kept, even beyond `count`: it has been paid for.
      for (const image of images) {
        if (options.gallery.holds(image.bytes)) identical++;
        saved.push(
          await options.gallery.save({
            bytes: image.bytes,
            mimeType: image.mimeType,
            prompt: request.prompt,
            model: request.model,
            size: request.size,
            ...(image.revisedPrompt === undefined ? {} : { revisedPrompt: image.revisedPrompt }),
          }),
        );
        report();
      }
    }
    return { images: saved, identical };
  } finally {
    clearInterval(timer);
  }
}
