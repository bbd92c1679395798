/**
 * The gallery folder on disk: how images and their sidecars are named, written, found and read.
 *
 * Every name here is built from a SHA-256 hash and a fixed extension chosen by the image's own
 * first bytes, so nothing the relay, the model or the page says ever becomes a path. Reads go
 * through `lstat` or `realpath`, so a symlink planted in the folder cannot lead outside it.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../data-files';

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

/** `<64 hex>.<ext>`: the only names of image files the gallery reads, serves or indexes. */
export const IMAGE_FILE_PATTERN = /^([0-9a-f]{64})\.(png|jpg|webp|gif)$/;
/** Temp files `writeFileAtomic` leaves when a process dies mid-write: `.<name>.<pid>.<hex>.tmp`. */
const TEMP_FILE_PATTERN = /^\.[0-9a-f]{64}\.(png|jpg|webp|gif|json)\.\d+\.[0-9a-f]{12}\.tmp$/;

/** Where the page loads gallery images from, on the app's own origin. */
export const GALLERY_URL_PREFIX = '/gallery/';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function extensionOfType(mimeType: string): ImageExtension | undefined {
  return EXTENSION_OF[mimeType];
}

export function imageFileName(id: string, ext: ImageExtension): string {
  return `${id}.${ext}`;
}

export function sidecarFileName(id: string): string {
  return `${id}.json`;
}

/**
 * The image file a page path names (`/gallery/<hash>.<ext>`), or undefined for anything else:
 * other folders, dot segments, encoded separators, other names. The answer is a bare file name.
 */
export function galleryFileNameOf(pathname: string): string | undefined {
  if (!pathname.startsWith(GALLERY_URL_PREFIX)) return undefined;
  const name = pathname.slice(GALLERY_URL_PREFIX.length);
  return IMAGE_FILE_PATTERN.test(name) ? name : undefined;
}

/** What is kept beside each image, and what the index is rebuilt from. */
export const sidecarSchema = z.object({
  prompt: z.string().max(32_000).catch(''),
  revisedPrompt: z.string().max(32_000).optional().catch(undefined),
  model: z.string().max(500).catch(''),
  size: z.string().max(40).catch(''),
  createdAt: z.iso.datetime().catch(''),
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

export interface FolderListing {
  /** Image files by id: the entries named `<hash>.<ext>` that are regular files, not links. */
  images: Map<string, { name: string; ext: ImageExtension }>;
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
    images.set(match[1] as string, { name: entry.name, ext: match[2] as ImageExtension });
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
export async function readSidecar(folder: string, id: string): Promise<Sidecar | undefined> {
  const path = join(folder, sidecarFileName(id));
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
