/**
 * One "Generate": as many requests as it takes to get `count` images, each saved to the gallery
 * the moment it arrives, with progress (and the time so far) reported as it goes.
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

export async function generateImages(
  request: GenerateRequest,
  options: GenerateOptions,
): Promise<GalleryImage[]> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const saved: GalleryImage[] = [];
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
    return saved;
  } finally {
    clearInterval(timer);
  }
}
