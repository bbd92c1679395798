/**
 * The one check of images sent to a model that reads none: the composer says it before sending,
 * and main refuses such a message, in the same words (the person's language, from main's `errors`
 * catalogue by its key; its English text kept beside it).
 *
 * Plain data and a pure function, so main and the renderer both use it.
 */
import type { MessageValues } from './messages/keys';

/** The sentence that stops a message: its key and values, and its English text. */
export interface ImagesRefused {
  id: 'attachments.imagesNotAccepted';
  values: MessageValues;
  english: string;
}

/**
 * Why the images among `files` cannot go to `model`, naming the model and each image; undefined
 * when they may go (no image, or a model that accepts images or whose choice is not known).
 */
export function imagesRefused(
  model: string,
  acceptsImages: boolean | undefined,
  files: readonly { name: string; kind: string }[],
): ImagesRefused | undefined {
  const images = files.filter((f) => f.kind === 'image').map((f) => f.name);
  if (images.length === 0 || acceptsImages !== false) return undefined;
  const one = images.length === 1;
  const names = one ? images[0]! : images.slice(0, -1).join(', ');
  const last = images.at(-1)!;
  const list = one ? names : `${names} and ${last}`;
  return {
    id: 'attachments.imagesNotAccepted',
    values: { model, count: images.length, names, last },
    english: `${model} does not accept images, so ${list} ${one ? 'was' : 'were'} not sent: choose a model that accepts images, remove ${one ? 'the image' : 'the images'}, or mark ${model} as accepting images on the Models screen.`,
  };
}
