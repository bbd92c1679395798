/**
 * The gallery folder on disk: how images and their sidecars are named, written, found and read.
 *
 * An image is saved as `<words of its prompt>-<date>-<n>.<ext>` (`image-names.ts`) with its
 * sidecar `<same stem>.json` beside it, which keeps the SHA-256 of the image's bytes: the image's
 * id. Nothing the relay or the model says becomes a path but those letters and digits, and the
 * extension is chosen by the image's own first bytes; the page names an image by its id only.
 * Releases before 0.2 named files by the hash itself (`<64 hex>.<ext>`): those are renamed when
 * the folder is read (`renameLegacyImage`). Reads go through `lstat` or `realpath`, so a symlink
 * planted in the folder cannot lead outside it.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, lstat, readdir, readFile, realpath, rm, unlink } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../data-files';
import { freeStem } from './image-names';

export const IMAGE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

const EXTENSION_OF: Record<string, ImageExtension> = Object.fromEntries(
  Object.entries(IMAGE_TYPES).map(([ext, mime]) => [mime, ext as ImageExtension]),
);

/** `<64 hex>.<ext>`: an image file named by its hash, as releases before 0.2 saved them. */
export const LEGACY_IMAGE_FILE_PATTERN = /^([0-9a-f]{64})\.(png|jpg|webp|gif)$/;
/** The image files the gallery reads: a name that is no dot file, with an image extension. */
const IMAGE_FILE_PATTERN = /^([^.].*)\.(png|jpg|webp|gif)$/;
/** Temp files `writeFileAtomic` leaves when a process dies mid-write: `.<name>.<pid>.<hex>.tmp`. */
const TEMP_FILE_PATTERN = /^\.[^/\\]+\.(png|jpg|webp|gif|json)\.\d+\.[0-9a-f]{12}\.tmp$/;
/** `/gallery/<id>.<ext>`: how the page names an image, by its hash, never by its file name. */
const GALLERY_URL_PATTERN = /^\/gallery\/([0-9a-f]{64})\.(png|jpg|webp|gif)$/;

/** Where the page loads gallery images from, on the app's own origin. */
export const GALLERY_URL_PREFIX = '/gallery/';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function extensionOfType(mimeType: string): ImageExtension | undefined {
  return EXTENSION_OF[mimeType];
}

/** The image's file: `<stem>.<ext>` (a stem is a hash for a file saved before 0.2). */
export function imageFileName(stem: string, ext: ImageExtension): string {
  return `${stem}.${ext}`;
}

/** The sidecar beside the image of this stem. */
export function sidecarFileName(stem: string): string {
  return `${stem}.json`;
}

/** The stem of an image file's name (its name without the extension). */
export function stemOf(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, '');
}

/**
 * The image a page path names (`/gallery/<hash>.<ext>`), or undefined for anything else: other
 * folders, dot segments, encoded separators, file names.
 */
export function galleryImageOf(pathname: string): { id: string; ext: ImageExtension } | undefined {
  const match = GALLERY_URL_PATTERN.exec(pathname);
  return match ? { id: match[1] as string, ext: match[2] as ImageExtension } : undefined;
}

/** What is kept beside each image, and what the index is rebuilt from. */
export const sidecarSchema = z.object({
  prompt: z.string().max(32_000).catch(''),
  revisedPrompt: z.string().max(32_000).optional().catch(undefined),
  model: z.string().max(500).catch(''),
  size: z.string().max(40).catch(''),
  createdAt: z.iso.datetime().catch(''),
  /** The SHA-256 of the image's bytes, in hex: its id (absent in sidecars before 0.2). */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional()
    .catch(undefined),
});
export type Sidecar = z.infer<typeof sidecarSchema>;

const FILE_MODE = 0o644;

/** Writes `bytes` as `<folder>/<name>` all at once (temp file, fsync, rename). */
export async function writeGalleryFile(
  folder: string,
  name: string,
  bytes: Uint8Array | string,
): Promise<void> {
  if (name.includes('/') || name.includes(sep) || name.startsWith('.')) {
    throw new Error(`Refusing to write a gallery file named ${JSON.stringify(name)}.`);
  }
  // rename() replaces a symlink planted at `name` rather than writing through it, and the temp
  // file is opened with O_EXCL, which refuses an existing link: no write can leave the folder.
  await writeFileAtomic(join(folder, name), bytes, { mode: FILE_MODE });
}

/** Whether `<folder>/<name>` is a regular file (not a link, not a folder) of `size` bytes. */
export async function isRegularFile(path: string, size?: number): Promise<boolean> {
  try {
    const info = await lstat(path);
    return info.isFile() && (size === undefined || info.size === size);
  } catch {
    return false;
  }
}

/**
 * The real path of `<folder>/<name>` if it is a regular file of that very name in the folder's
 * real place; otherwise undefined. A link by that name is refused even when it points inside the
 * folder: a `<hash>.png` link to a page placed beside it would be served (typed as a PNG by its
 * name, but with the page's bytes), copied or trashed in the image's place.
 */
export async function fileInsideFolder(folder: string, name: string): Promise<string | undefined> {
  try {
    const [realFolder, realFile] = await Promise.all([
      realpath(folder),
      realpath(join(folder, name)),
    ]);
    if (!realFile.startsWith(realFolder + sep)) return undefined;
    const realName = realFile.slice(realFolder.length + 1);
    if (realName.includes(sep)) return undefined;
    if (realName !== name) return undefined;
    const info = await lstat(realFile);
    return info.isFile() ? realFile : undefined;
  } catch {
    return undefined;
  }
}

export interface ListedImage {
  name: string;
  stem: string;
  ext: ImageExtension;
  /** The hash a file saved before 0.2 is named by. */
  legacyId?: string;
}

export interface FolderListing {
  /** Image files by name: the entries with an image extension that are regular files. */
  images: Map<string, ListedImage>;
}

/**
 * The image files in the folder; links, folders and other names are left out. One `readdir`:
 * the entry types come with the names, so 20,000 files cost no 20,000 `lstat` calls (the
 * indexing asks `fileInfo` for the few files it has not indexed yet).
 */
export async function listGalleryFolder(folder: string): Promise<FolderListing> {
  const images: FolderListing['images'] = new Map();
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { images };
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const match = IMAGE_FILE_PATTERN.exec(entry.name);
    if (!match) continue;
    const listed: ListedImage = {
      name: entry.name,
      stem: match[1] as string,
      ext: match[2] as ImageExtension,
    };
    const legacy = LEGACY_IMAGE_FILE_PATTERN.exec(entry.name);
    if (legacy) listed.legacyId = legacy[1] as string;
    images.set(entry.name, listed);
  }
  return { images };
}

/** Size and time of a regular file (not a link); undefined for anything else or a gone file. */
export async function fileInfo(path: string): Promise<{ size: number; mtime: Date } | undefined> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isFile() ? { size: info.size, mtime: info.mtime } : undefined;
}

/** Removes temp files a process that died mid-save left behind; returns how many. */
export async function sweepTempFiles(folder: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return 0;
  }
  let swept = 0;
  for (const name of names) {
    if (!TEMP_FILE_PATTERN.test(name)) continue;
    await rm(join(folder, name), { force: true });
    swept++;
  }
  return swept;
}

/** The sidecar beside an image, or undefined when it is missing, a link or not valid JSON. */
export async function readSidecar(folder: string, stem: string): Promise<Sidecar | undefined> {
  const path = join(folder, sidecarFileName(stem));
  if (!(await isRegularFile(path))) return undefined;
  try {
    const text = await readFile(path, 'utf8');
    const parsed = sidecarSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the file's bytes hash to its name (a file that does not is never indexed). */
export async function fileMatchesHash(path: string, id: string): Promise<boolean> {
  try {
    return sha256Hex(await readFile(path)) === id;
  } catch {
    return false;
  }
}

/** Whether anything (a file, a folder, a link) has this name in the folder. */
export async function nameTaken(folder: string, name: string): Promise<boolean> {
  try {
    await lstat(join(folder, name));
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** The sidecar's text as written to disk. */
export function sidecarText(sidecar: Sidecar): string {
  return `${JSON.stringify(sidecar, null, 2)}\n`;
}

/**
 * Gives an image saved under its hash (`<hash>.<ext>`, before 0.2) its name from its prompt and
 * date, its sidecar the hash; answers the new file name, or undefined when it is left as it is.
 *
 * No file is ever lost or replaced: the new sidecar is written first, the image then linked (or,
 * where links are refused, copied) to a name nothing has, and only once it is there under that
 * name are the old name and the old sidecar removed. An image whose bytes do not match its name
 * is not the gallery's and stays; one gone meanwhile leaves everything as it was. A sidecar
 * without its image is never touched. Run again after a crash, it picks up what was begun.
 */
export async function renameLegacyImage(
  folder: string,
  id: string,
  ext: ImageExtension,
  mtime: Date,
): Promise<string | undefined> {
  const from = join(folder, imageFileName(id, ext));
  if (!(await fileMatchesHash(from, id))) return undefined;
  const old = await readSidecar(folder, id);
  const createdAt = old?.createdAt || mtime.toISOString();
  const stem = await freeStem(old?.prompt ?? '', new Date(createdAt), async (candidate) => {
    if (await nameTaken(folder, imageFileName(candidate, ext))) return true;
    if (!(await nameTaken(folder, sidecarFileName(candidate)))) return false;
    // A sidecar for this very image, left by a rename a crash cut short, is taken up again.
    return (await readSidecar(folder, candidate))?.sha256 !== id;
  });
  const sidecar: Sidecar = {
    prompt: old?.prompt ?? '',
    ...(old?.revisedPrompt === undefined ? {} : { revisedPrompt: old.revisedPrompt }),
    model: old?.model ?? '',
    size: old?.size ?? '',
    createdAt,
    sha256: id,
  };
  const name = imageFileName(stem, ext);
  const to = join(folder, name);
  await writeGalleryFile(folder, sidecarFileName(stem), sidecarText(sidecar));
  try {
    try {
      await link(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EEXIST') throw error;
      // A file system without hard links (FAT, some network shares): a copy, never over a file.
      await copyFile(from, to, constants.COPYFILE_EXCL);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EEXIST') throw error;
    await rm(join(folder, sidecarFileName(stem)), { force: true });
    return undefined;
  }
  if (!(await fileMatchesHash(to, id))) return undefined;
  await unlink(from).catch(() => undefined);
  if (old !== undefined) await rm(join(folder, sidecarFileName(id)), { force: true });
  return name;
}
