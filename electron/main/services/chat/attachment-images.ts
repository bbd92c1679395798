/**
 * Images attached to a message: checked, downscaled and re-encoded in main before they are kept,
 * so what is stored is exactly what a vision model is sent (a data: URL of these bytes), and a
 * small thumbnail for the page to show.
 *
 * The library is sharp (libvips), not a pure-JS codec and not Electron's `nativeImage`:
 * - it reads all four formats the app accepts (PNG, JPEG, WebP, GIF) with the same decoders in
 *   the tests (plain Node) and in the app (Electron's Node), because it is a Node-API addon whose
 *   prebuilt binaries (libvips included) are installed from npm per platform: nothing is built,
 *   nothing is downloaded at run time, and Electron needs no rebuild of it. electron-builder.yml
 *   unpacks it from app.asar, where a native module cannot be loaded;
 * - pure-JS codecs cover PNG and JPEG well but WebP only through WebAssembly builds loaded from
 *   files at run time, and none of them tells a truncated file from a whole one as reliably;
 * - `nativeImage` exists only inside Electron (it cannot run in the tests), reads no WebP or GIF
 *   on every platform, and cannot say why a file is bad.
 * A file whose bytes are not one of the four (whatever its name says), a damaged or truncated
 * one, or one too large is refused by name with the reason, like any other attachment.
 */
import { extname } from 'node:path';
import type { Metadata } from 'sharp';
import { said, type Said } from '../words';
import type { ErrorMessageKey, MessageValues } from '../../../shared/messages/keys';
import { notAdded } from '../documents/document-text';

/** sharp (libvips), loaded the first time an image is read rather than at the app's start. */
async function loadSharp() {
  return (await import('sharp')).default;
}

/** The image formats attached, by extension, with the media type they are sent as. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

/** Image formats people are likely to try, each with what to do instead. */
const UNSUPPORTED_IMAGES: Readonly<Record<string, ErrorMessageKey>> = {
  '.bmp': 'images.unsupported.bmp',
  '.tif': 'images.unsupported.tiff',
  '.tiff': 'images.unsupported.tiff',
  '.heic': 'images.unsupported.heic',
  '.heif': 'images.unsupported.heif',
  '.avif': 'images.unsupported.avif',
  '.ico': 'images.unsupported.ico',
  '.psd': 'images.unsupported.psd',
  '.raw': 'images.unsupported.raw',
};

/** The longest side an attached image is scaled down to, unless the person sets another. */
export const DEFAULT_IMAGE_MAX_SIDE = 1536;
/** The thumbnail shown on a chip: its longest side, in CSS pixels (twice that for sharp screens). */
export const THUMBNAIL_SIDE = 96;
/** Decoding stops past this many pixels (a "decompression bomb" is refused, not decoded). */
const MAX_INPUT_PIXELS = 100_000_000;
/**
 * What an image is counted as in the token estimate: about what a vision model charges for a
 * large image (OpenAI's 1024x1024 at high detail is 765); the exact cost depends on the model.
 */
export const IMAGE_TOKENS = 800;

const FORMATS: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

export type ImageRefusalReason = 'unsupported' | 'damaged';

export interface PreparedImage {
  /** The media type of `data` as stored and sent. */
  mimeType: string;
  /** The image as sent: scaled to fit `maxSide`, turned upright, re-encoded. */
  data: Uint8Array;
  width: number;
  height: number;
  /** Its size as attached, before scaling. */
  originalWidth: number;
  originalHeight: number;
}

export type ImageResult =
  | { ok: true; image: PreparedImage }
  | {
      ok: false;
      refusal: {
        name: string;
        reason: string;
        message: string;
        messageId?: ErrorMessageKey;
        values?: MessageValues;
      };
    };

/** Whether a file is taken as an image (by its name): one of the four, or a known other format. */
export function isImageName(name: string): boolean {
  const extension = extname(name).toLowerCase();
  return Object.hasOwn(IMAGE_TYPES, extension) || Object.hasOwn(UNSUPPORTED_IMAGES, extension);
}

function refused(name: string, reason: ImageRefusalReason, why: Said): ImageResult {
  return { ok: false, refusal: { name, reason, ...notAdded(name, why) } };
}

/**
 * Checks an image by its bytes and scales it so its longest side is at most `maxSide` (never up).
 * PNG, JPEG and WebP keep their format; a GIF is sent as a PNG of its first frame (vision models
 * read one frame). The result is turned upright by its EXIF orientation, whose tag it then drops,
 * with the rest of its metadata (a photo's location never leaves the machine in it).
 */
export async function prepareImage(
  name: string,
  bytes: Uint8Array,
  maxSide: number = DEFAULT_IMAGE_MAX_SIDE,
): Promise<ImageResult> {
  const extension = extname(name).toLowerCase();
  const unsupported = UNSUPPORTED_IMAGES[extension];
  if (unsupported !== undefined) return refused(name, 'unsupported', said(unsupported));
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    return refused(name, 'damaged', said('images.why.unreadable'));
  }
  const { format } = metadata;
  const mimeType = FORMATS[format];
  if (mimeType === undefined)
    return refused(
      name,
      'unsupported',
      said('images.why.format', { format: format.toUpperCase() }),
    );
  try {
    const pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .autoOrient()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
    const encoded =
      format === 'jpeg'
        ? pipeline.jpeg({ quality: 85, mozjpeg: true })
        : format === 'webp'
          ? pipeline.webp({ quality: 85 })
          : pipeline.png();
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      ok: true,
      image: {
        mimeType: format === 'gif' ? 'image/png' : mimeType,
        data: new Uint8Array(data),
        width: info.width,
        height: info.height,
        // Upright, as the person sees it (a rotated photo swaps its sides).
        originalWidth: metadata.autoOrient.width,
        originalHeight: metadata.autoOrient.height,
      },
    };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return refused(
      name,
      'damaged',
      /pixel limit/i.test(detail)
        ? said('images.why.tooManyPixels', { pixels: MAX_INPUT_PIXELS })
        : said('images.why.truncated'),
    );
  }
}

/** A small WebP of a stored image, as a data: URL the page can show under its strict CSP. */
export async function thumbnailOf(data: Uint8Array): Promise<string> {
  const sharp = await loadSharp();
  const thumbnail = await sharp(data)
    .resize({ width: THUMBNAIL_SIDE * 2, height: THUMBNAIL_SIDE * 2, fit: 'inside' })
    .webp({ quality: 70 })
    .toBuffer();
  return `data:image/webp;base64,${thumbnail.toString('base64')}`;
}

/** A stored image as the data: URL a vision model is sent. */
export function dataUrlOf(mimeType: string, data: Uint8Array): string {
  return `data:${mimeType};base64,${Buffer.from(data).toString('base64')}`;
}
