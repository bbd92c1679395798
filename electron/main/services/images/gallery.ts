/**
 * The image gallery: generated images saved as real files in a folder the person chooses, a
 * sidecar JSON beside each, and an index in SQLite for fast paging.
 *
 * The folder is the source of truth. The index row is written after the file, and at start (or
 * when the folder changes) the index is reconciled with the folder: rows whose file is gone are
 * dropped, files without a row are read back from their sidecars, and temp files left by a
 * process that died mid-save are swept.
 */
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { AppError } from '../app-error';
import { migrate, type Db, type Migration } from '../database';
import { writeFileAtomic } from '../data-files';
import {
  GALLERY_URL_PREFIX,
  IMAGE_TYPES,
  extensionOfType,
  fileInsideFolder,
  fileMatchesHash,
  galleryFileNameOf,
  imageFileName,
  isRegularFile,
  listGalleryFolder,
  readSidecar,
  sha256Hex,
  sidecarFileName,
  sweepTempFiles,
  writeGalleryFile,
  type ImageExtension,
  type Sidecar,
} from './gallery-files';

export interface GalleryImage {
  id: string;
  fileName: string;
  url: string;
  mimeType: string;
  prompt: string;
  revisedPrompt?: string;
  model: string;
  size: string;
  createdAt: string;
  bytes: number;
}

export interface GalleryPage {
  images: GalleryImage[];
  total: number;
  next?: { createdAt: string; id: string };
}

export interface NewImage {
  bytes: Uint8Array;
  mimeType: string;
  prompt: string;
  revisedPrompt?: string;
  model: string;
  size: string;
}

/**
 * A file system failure of the gallery (a full disk, a folder it may not write), said plainly as
 * an AppError; any other error goes on as it is.
 */
export function galleryFault(error: unknown): unknown {
  return error instanceof Error && 'syscall' in error
    ? new AppError('internal', `The gallery folder could not be used: ${error.message}`)
    : error;
}

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'image index',
    up(db) {
      db.exec(`CREATE TABLE images (
        id TEXT PRIMARY KEY,
        ext TEXT NOT NULL,
        prompt TEXT NOT NULL,
        revised_prompt TEXT,
        model TEXT NOT NULL,
        size TEXT NOT NULL,
        created_at TEXT NOT NULL,
        bytes INTEGER NOT NULL
      )`);
      db.exec('CREATE INDEX images_newest ON images (created_at DESC, id DESC)');
      db.exec('CREATE TABLE images_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    },
  },
];

interface Row {
  id: string;
  ext: ImageExtension;
  prompt: string;
  revised_prompt: string | null;
  model: string;
  size: string;
  created_at: string;
  bytes: number;
}

function toImage(row: Row): GalleryImage {
  const fileName = imageFileName(row.id, row.ext);
  const image: GalleryImage = {
    id: row.id,
    fileName,
    url: `${GALLERY_URL_PREFIX}${fileName}`,
    mimeType: IMAGE_TYPES[row.ext],
    prompt: row.prompt,
    model: row.model,
    size: row.size,
    createdAt: row.created_at,
    bytes: Number(row.bytes),
  };
  if (row.revised_prompt !== null) image.revisedPrompt = row.revised_prompt;
  return image;
}

export interface ImageGalleryOptions {
  db: Db;
  /** The folder used until the person chooses another: `<Pictures>/Relay Desktop`. */
  defaultFolder: string;
  now?: () => Date;
}

export class ImageGallery {
  readonly #db: Db;
  readonly #defaultFolder: string;
  readonly #now: () => Date;

  private constructor(options: ImageGalleryOptions) {
    this.#db = options.db;
    this.#defaultFolder = options.defaultFolder;
    this.#now = options.now ?? (() => new Date());
  }

  /** Opens the gallery: migrates its tables, sweeps temp files, reconciles the index. */
  static async open(options: ImageGalleryOptions): Promise<ImageGallery> {
    await migrate(options.db, 'images', MIGRATIONS);
    const gallery = new ImageGallery(options);
    await gallery.reconcile();
    return gallery;
  }

  #state(key: string): string | undefined {
    return this.#db.one<{ value: string }>('SELECT value FROM images_state WHERE key = ?', [key])
      ?.value;
  }

  #setState(key: string, value: string): void {
    this.#db.run(
      'INSERT INTO images_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    );
  }

  /** The folder images are saved to now. */
  folder(): { path: string; isDefault: boolean } {
    const chosen = this.#state('folder');
    return chosen === undefined
      ? { path: this.#defaultFolder, isDefault: true }
      : { path: chosen, isDefault: false };
  }

  /** Makes `path` the gallery folder and shows what is in it. */
  async setFolder(path: string): Promise<{ path: string; isDefault: boolean }> {
    if (!isAbsolute(path)) {
      throw new AppError('invalid_request', `The gallery folder must be a full path, not ${path}.`);
    }
    await mkdir(path, { recursive: true });
    this.#setState('folder', path);
    await this.reconcile();
    return this.folder();
  }

  /**
   * Brings the index in line with the folder: the folder wins. Returns what changed.
   * A file whose bytes do not hash to its name is left alone and not shown.
   */
  async reconcile(): Promise<{ added: number; removed: number; swept: number }> {
    // The folder is made by the first save, not by looking at it.
    const folder = this.folder().path;
    const swept = await sweepTempFiles(folder);
    if (this.#state('indexed_folder') !== folder) {
      this.#db.run('DELETE FROM images');
      this.#setState('indexed_folder', folder);
    }
    const { images: files } = await listGalleryFolder(folder);
    const rows = this.#db.all<{ id: string; ext: string }>('SELECT id, ext FROM images');
    const stale = new Set(rows.filter((r) => files.get(r.id)?.ext !== r.ext).map((r) => r.id));
    const indexed = new Set(rows.map((r) => r.id));
    const fresh: Row[] = [];
    for (const [id, file] of files) {
      if (indexed.has(id) && !stale.has(id)) continue;
      if (!(await fileMatchesHash(join(folder, file.name), id))) continue;
      const sidecar = await readSidecar(folder, id);
      fresh.push({
        id,
        ext: file.ext,
        prompt: sidecar?.prompt ?? '',
        revised_prompt: sidecar?.revisedPrompt ?? null,
        model: sidecar?.model ?? '',
        size: sidecar?.size ?? '',
        created_at: sidecar?.createdAt || file.mtime.toISOString(),
        bytes: file.size,
      });
    }
    this.#db.transaction(() => {
      for (const id of stale) this.#db.run('DELETE FROM images WHERE id = ?', [id]);
      for (const row of fresh) this.#insert(row);
    });
    return { added: fresh.length, removed: stale.size, swept };
  }

  #insert(row: Row): void {
    this.#db.run(
      `INSERT INTO images (id, ext, prompt, revised_prompt, model, size, created_at, bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET ext = excluded.ext, prompt = excluded.prompt,
         revised_prompt = excluded.revised_prompt, model = excluded.model, size = excluded.size,
         created_at = excluded.created_at, bytes = excluded.bytes`,
      [
        row.id,
        row.ext,
        row.prompt,
        row.revised_prompt,
        row.model,
        row.size,
        row.created_at,
        row.bytes,
      ],
    );
  }

  /**
   * Saves one image: the sidecar, then the image (each atomically), then the index row. A crash
   * at any point leaves either nothing, a sidecar without an image (ignored), or an image the
   * next start indexes from its sidecar; never a partial file or a row without its file.
   */
  async save(image: NewImage): Promise<GalleryImage> {
    const ext = extensionOfType(image.mimeType);
    if (ext === undefined) {
      throw new AppError('invalid_request', `Images of type ${image.mimeType} are not saved.`);
    }
    const folder = this.folder().path;
    const id = sha256Hex(image.bytes);
    const fileName = imageFileName(id, ext);
    const sidecar: Sidecar = {
      prompt: image.prompt,
      model: image.model,
      size: image.size,
      createdAt: this.#now().toISOString(),
      ...(image.revisedPrompt === undefined ? {} : { revisedPrompt: image.revisedPrompt }),
    };
    await mkdir(folder, { recursive: true });
    await writeGalleryFile(folder, sidecarFileName(id), `${JSON.stringify(sidecar, null, 2)}\n`);
    // The same bytes were saved before: the file is already right (a rename put it there whole).
    if (!(await isRegularFile(join(folder, fileName), image.bytes.length))) {
      await writeGalleryFile(folder, fileName, image.bytes);
    }
    const row: Row = {
      id,
      ext,
      prompt: sidecar.prompt,
      revised_prompt: sidecar.revisedPrompt ?? null,
      model: sidecar.model,
      size: sidecar.size,
      created_at: sidecar.createdAt,
      bytes: image.bytes.length,
    };
    this.#insert(row);
    return toImage(row);
  }

  /** A page of the gallery, newest first. */
  list(options: { limit?: number; after?: { createdAt: string; id: string } } = {}): GalleryPage {
    const limit = options.limit ?? 500;
    const rows = options.after
      ? this.#db.all<Row>(
          'SELECT * FROM images WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?',
          [options.after.createdAt, options.after.id, limit],
        )
      : this.#db.all<Row>('SELECT * FROM images ORDER BY created_at DESC, id DESC LIMIT ?', [
          limit,
        ]);
    const total = Number(this.#db.one<{ n: number }>('SELECT COUNT(*) AS n FROM images')?.n ?? 0);
    const images = rows.map(toImage);
    const last = rows.at(-1);
    return rows.length === limit && last
      ? { images, total, next: { createdAt: last.created_at, id: last.id } }
      : { images, total };
  }

  #row(id: string): Row {
    const row = this.#db.one<Row>('SELECT * FROM images WHERE id = ?', [id]);
    if (row === undefined) {
      throw new AppError('not_found', 'That image is no longer in the gallery.');
    }
    return row;
  }

  /** Whether the gallery holds the image with these bytes (its id is their hash). */
  holds(bytes: Uint8Array): boolean {
    return (
      this.#db.one('SELECT 1 AS found FROM images WHERE id = ?', [sha256Hex(bytes)]) !== undefined
    );
  }

  /** One image with the real path of its file; refuses one whose file is gone or leads outside. */
  async get(id: string): Promise<GalleryImage & { path: string }> {
    const image = toImage(this.#row(id));
    return { ...image, path: await this.#pathOf(image) };
  }

  async #pathOf(image: GalleryImage): Promise<string> {
    const path = await fileInsideFolder(this.folder().path, image.fileName);
    if (path === undefined) {
      this.#db.run('DELETE FROM images WHERE id = ?', [image.id]);
      throw new AppError(
        'not_found',
        `The file ${image.fileName} is no longer in the gallery folder.`,
      );
    }
    return path;
  }

  /** The file a page path (`/gallery/<hash>.<ext>`) names, inside the folder; else undefined. */
  async servedFile(pathname: string): Promise<string | undefined> {
    const name = galleryFileNameOf(pathname);
    return name === undefined ? undefined : fileInsideFolder(this.folder().path, name);
  }

  /**
   * Removes an image: `trash` moves its file and sidecar away (to the OS trash in the app), then
   * the row goes.
   */
  async delete(id: string, trash: (path: string) => Promise<void>): Promise<void> {
    const image = toImage(this.#row(id));
    const folder = this.folder().path;
    const path = await fileInsideFolder(folder, image.fileName);
    if (path !== undefined) await trash(path);
    const sidecar = await fileInsideFolder(folder, sidecarFileName(id));
    if (sidecar !== undefined) await trash(sidecar).catch(() => undefined);
    this.#db.run('DELETE FROM images WHERE id = ?', [id]);
  }

  /**
   * Copies the image to a path the person chose: a saved file like any other program's (0666
   * less the umask), written whole or not at all.
   */
  async copyTo(id: string, destination: string): Promise<void> {
    const { path } = await this.get(id);
    if (!isAbsolute(destination)) {
      throw new AppError('invalid_request', 'Choose a full path to save the image to.');
    }
    await writeFileAtomic(destination, await readFile(path), { mode: 0o666 });
  }

  /** The folder's real path, for tests and for revealing it. */
  async realFolder(): Promise<string> {
    return realpath(this.folder().path);
  }
}
