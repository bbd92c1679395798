/**
 * The images part of the IPC contract (see ../contract.ts): generate images, and the gallery of
 * the files they were saved as.
 *
 * An image is named by the SHA-256 of its bytes; that hash is its id, so no name from the relay,
 * the model or the page ever becomes a path in main.
 */
import { z } from 'zod';
import { IMAGE_SIZE_PATTERN, MAX_IMAGE_COUNT } from '../../limits';
import { event, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, savedIdSchema, shownText } from '../schemas';
import { worded } from '../../messages/worded';

/** The id of an image: the SHA-256 of its bytes, in lower-case hex. */
export const imageIdSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { error: 'an image id is the 64-character hash of its file' });

export const imageSizeSchema = z.string().regex(IMAGE_SIZE_PATTERN, {
  error: 'size must be written <width>x<height> with two whole numbers, for example 1024x1024',
});

export const requestIdSchema = z.string().min(1).max(100);

export const galleryImageSchema = z.object({
  id: imageIdSchema,
  /** `<hash>.<ext>`: the file's name in the gallery folder. */
  fileName: shownText,
  /** Where the page loads it from, on the app's own origin: `/gallery/<hash>.<ext>`. */
  url: z.string(),
  mimeType: z.string(),
  prompt: z.string(),
  revisedPrompt: z.string().optional(),
  model: z.string(),
  size: z.string(),
  /** ISO date the image was made. */
  createdAt: z.string(),
  bytes: z.number().int().nonnegative(),
});

export const galleryImageDetailSchema = galleryImageSchema.extend({
  /** The full path of the file, to show the person where it is. */
  path: z.string(),
});

export const galleryFolderSchema = z.object({
  path: z.string(),
  isDefault: z.boolean(),
});

export const IMAGES_ROUTES = {
  /** Generates `count` images and saves each at once; progress arrives as `imagesProgress`. */
  generateImages: route(
    'images:generate',
    z.strictObject({
      requestId: requestIdSchema,
      model: text(500)
        .trim()
        .min(1, { error: worded('form.images.model', 'Choose an image model.') }),
      prompt: text(32_000).refine((p) => p.trim().length > 0, {
        error: worded('form.images.prompt', 'Describe the image you want.'),
      }),
      size: imageSizeSchema,
      count: z
        .number()
        .int()
        .min(1, { error: worded('form.images.oneImage', 'Ask for at least one image.') })
        .max(MAX_IMAGE_COUNT, {
          error: worded(
            'form.images.imagesAtMost',
            `Ask for at most ${MAX_IMAGE_COUNT} images at once.`,
            { max: MAX_IMAGE_COUNT },
          ),
        }),
    }),
    z.object({
      images: z.array(galleryImageSchema),
      /**
       * How many of `images` the gallery held already: the same bytes, kept as one file. The
       * rest are new.
       */
      identical: z.number().int().nonnegative(),
    }),
  ),
  /** Stops a generation; images already saved stay in the gallery. */
  cancelImages: route('images:cancel', z.strictObject({ requestId: requestIdSchema }), z.null()),

  /** The gallery, newest first, a page at a time: pass the last page's `next` to go on. */
  listImages: route(
    'images:list',
    z
      .strictObject({
        limit: z.number().int().min(1).max(10_000).optional(),
        after: z.strictObject({ createdAt: text(40), id: imageIdSchema }).optional(),
      })
      .optional(),
    z.object({
      images: z.array(galleryImageSchema),
      total: z.number().int().nonnegative(),
      next: z.object({ createdAt: z.string(), id: imageIdSchema }).optional(),
      /** While the folder is read in the background: files checked so far, of those found. */
      indexing: z
        .object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() })
        .optional(),
    }),
  ),
  getImage: route('images:get', z.strictObject({ id: imageIdSchema }), galleryImageDetailSchema),
  /** Moves the file and its sidecar to the OS trash. */
  deleteImage: route('images:delete', z.strictObject({ id: imageIdSchema }), z.null()),
  revealImage: route('images:reveal', z.strictObject({ id: imageIdSchema }), z.null()),
  /** Asks where to save a copy; `saved` is false when the person cancelled. */
  saveImageAs: route(
    'images:save-as',
    z.strictObject({ id: imageIdSchema }),
    z.object({
      saved: z.boolean(),
      path: z.string().optional(),
      savedId: savedIdSchema.optional(),
    }),
  ),
  copyImage: route('images:copy', z.strictObject({ id: imageIdSchema }), z.null()),
  /** Starts dragging the file out of the window, to other apps. */
  startImageDrag: route('images:start-drag', z.strictObject({ id: imageIdSchema }), z.null()),

  getGalleryFolder: route('images:folder', z.undefined(), galleryFolderSchema),
  /** Asks for another folder; the gallery then shows what is in it. Unchanged if cancelled. */
  chooseGalleryFolder: route('images:choose-folder', z.undefined(), galleryFolderSchema),
} as const satisfies Record<string, RouteSpec>;

export const IMAGES_EVENTS = {
  /** A generation moved on: sent when it starts, about every second, and after each image. */
  imagesProgress: event(
    'images:progress',
    z.object({
      requestId: z.string(),
      done: z.number().int().nonnegative(),
      total: z.number().int().positive(),
      elapsedMs: z.number().nonnegative(),
    }),
  ),
  /** The gallery changed in main (an image saved or deleted, the folder changed or rescanned). */
  galleryChanged: event('images:gallery-changed', z.null()),
} as const satisfies Record<string, EventSpec>;
