/**
 * The image gallery: generated images saved as real files in a folder the person chooses, a
 * sidecar JSON beside each, and an index in SQLite for fast paging.
 *
 * The folder is the source of truth. The index row is written after the file, and at start (or
 * when the folder changes) the index is reconciled with the folder: rows whose file is gone are
 * dropped, files without a row are read back from their sidecars, and temp files left by a
 * process that died mid-save are swept.
 *
 * Reconciling is off the start path: it runs in the background, a batch of files at a time, and
 * the gallery shows what is indexed so far (with how far the indexing has got) meanwhile. A folder
 * of 20,000 images that are all new takes seconds to hash; the app is usable from the first.
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
  fileInfo,
  fileMatchesHash,
  galleryImageOf,
  imageFileName,
  isRegularFile,
  listGalleryFolder,
  nameTaken,
  readSidecar,
  renameLegacyImage,
  sha256Hex,
  sidecarFileName,
  sidecarText,
  stemOf,
  sweepTempFiles,
  writeGalleryFile,
  type ImageExtension,
  type Sidecar,
} from './gallery-files';
import { said } from '../words';
import { freeStem } from './image-names';

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
  /** Present while the folder is being read: files checked so far, of those found. */
  indexing?: IndexingProgress;
}

export interface IndexingProgress {
  done: number;
  total: number;
}

export interface ReconcileResult {
  added: number;
  removed: number;
  swept: number;
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
    ? new AppError('internal', said('images.galleryFolderUnusable', { detail: error.message }))
    : error;
}

export const IMAGE_MIGRATIONS: readonly Migration[] = [
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
  {
    version: 2,
    name: 'image file names',
    // The file's name, from its prompt and date; NULL for a file still named by its hash
    // (`<id>.<ext>`, saved before 0.2), until the folder is read and the file renamed.
    up(db) {
      db.exec('ALTER TABLE images ADD COLUMN file TEXT');
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
  file: string | null;
}

const fileNameOf = (row: Pick<Row, 'id' | 'ext' | 'file'>) =>
  row.file ?? imageFileName(row.id, row.ext);

function toImage(row: Row): GalleryImage {
  const image: GalleryImage = {
    id: row.id,
    fileName: fileNameOf(row),
    url: `${GALLERY_URL_PREFIX}${imageFileName(row.id, row.ext)}`,
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
  /**
   * Called while the background indexing adds or drops rows (at most every `changeIntervalMs`)
   * and once when it ends, so the page can show what is indexed so far.
   */
  onChange?: () => void;
  /** Default 500 ms. */
  changeIntervalMs?: number;
  /** Files hashed and indexed per batch; the event loop is free between batches. Default 64. */
  batchSize?: number;
  /**
   * How long after opening the indexing starts; at once by default. The app waits, so that
   * listing a folder of thousands of images does not compete with its start (the window
   * being drawn, the first calls answered); asking for a page of the gallery, or `whenIndexed`,
   * starts it at once.
   */
  indexAfterMs?: number;
}

/** A reconcile replaced by a newer one (another folder chosen) stops where it is. */
class Superseded extends Error {}

/** Files read and hashed at once while indexing: images can be megabytes each. */
const HASH_CONCURRENCY = 8;

/** `work` over `items`, at most `size` at a time, results in order. */
async function mapInGroups<T, R>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  }
  return out;
}

/** Lets the event loop answer IPC and serve files between two batches of indexing. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ImageGallery {
  readonly #db: Db;
  readonly #defaultFolder: string;
  readonly #now: () => Date;
  readonly #options: ImageGalleryOptions;
  /** The reconcile running now (the newest asked for); each one started gets a new number. */
  #generation = 0;
  #indexing: Promise<ReconcileResult> = Promise.resolve({ added: 0, removed: 0, swept: 0 });
  #progress: IndexingProgress | undefined;
  #closed = false;
  /** The indexing `open` put off (`indexAfterMs`), until its timer or the first need of it. */
  #deferred: NodeJS.Timeout | undefined;

  private constructor(options: ImageGalleryOptions) {
    this.#db = options.db;
    this.#defaultFolder = options.defaultFolder;
    this.#now = options.now ?? (() => new Date());
    this.#options = options;
  }

  /**
   * Opens the gallery: migrates its tables and starts reconciling the index with the folder in
   * the background (`whenIndexed` settles when that is done). Lists answer at once meanwhile.
   */
  static async open(options: ImageGalleryOptions): Promise<ImageGallery> {
    await migrate(options.db, 'images', IMAGE_MIGRATIONS);
    const gallery = new ImageGallery(options);
    const after = options.indexAfterMs ?? 0;
    if (after > 0) {
      gallery.#deferred = setTimeout(() => gallery.#startDeferred(), after);
      gallery.#deferred.unref();
    } else void gallery.reconcile().catch(() => undefined);
    return gallery;
  }

  /** Starts the indexing `open` put off, if it has not started yet. */
  #startDeferred(): void {
    if (this.#deferred === undefined) return;
    clearTimeout(this.#deferred);
    this.#deferred = undefined;
    if (!this.#closed) void this.reconcile().catch(() => undefined);
  }

  /** Settles when the background indexing started last has finished (or stopped). */
  async whenIndexed(): Promise<void> {
    this.#startDeferred();
    for (;;) {
      const current = this.#indexing;
      await current.catch(() => undefined);
      if (current === this.#indexing) return;
    }
  }

  /** How far the background indexing has got; undefined when it is not running. */
  indexing(): IndexingProgress | undefined {
    return this.#progress === undefined ? undefined : { ...this.#progress };
  }

  /** Stops the background indexing (the app is closing); what was indexed stays. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#deferred);
    this.#deferred = undefined;
    this.#generation++;
    await this.whenIndexed();
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
      throw new AppError('invalid_request', said('images.galleryFolderNotFull', { path }));
    }
    await mkdir(path, { recursive: true });
    this.#setState('folder', path);
    // The old folder's rows go at once; the new folder's files come in the background.
    this.#db.run('DELETE FROM images');
    this.#setState('indexed_folder', path);
    void this.reconcile().catch(() => undefined);
    return this.folder();
  }

  /**
   * Brings the index in line with the folder: the folder wins. Returns what changed.
   * A file whose bytes do not hash to its name is left alone and not shown.
   *
   * Runs a batch of files at a time and yields between batches; a newer call (another folder
   * chosen) makes this one stop after its current batch, and it then resolves with what it did.
   */
  reconcile(): Promise<ReconcileResult> {
    clearTimeout(this.#deferred);
    this.#deferred = undefined;
    const generation = ++this.#generation;
    const previous = this.#indexing;
    this.#progress = { done: 0, total: 0 };
    const run = previous
      .catch(() => undefined)
      .then(() => this.#reconcile(generation))
      .finally(() => {
        if (this.#generation === generation) this.#progress = undefined;
        this.#options.onChange?.();
      });
    this.#indexing = run;
    return run;
  }

  async #reconcile(generation: number): Promise<ReconcileResult> {
    const result: ReconcileResult = { added: 0, removed: 0, swept: 0 };
    const live = () => {
      if (this.#generation !== generation || this.#closed) throw new Superseded();
    };
    try {
      live();
      // The folder is made by the first save, not by looking at it.
      const folder = this.folder().path;
      result.swept = await sweepTempFiles(folder);
      live();
      if (this.#state('indexed_folder') !== folder) {
        this.#db.run('DELETE FROM images');
        this.#setState('indexed_folder', folder);
      }
      // Files saved before 0.2 under their hash get their names from their prompts first.
      await this.#renameLegacy(folder, live);
      // Rows are read before the folder is: an image saved in between has its file in the
      // listing (indexed again, harmlessly) rather than a row without its file (dropped).
      const rows = this.#db.all<Pick<Row, 'id' | 'ext' | 'file'>>(
        'SELECT id, ext, file FROM images',
      );
      const { images: files } = await listGalleryFolder(folder);
      live();
      const stale = rows.filter((r) => !files.has(fileNameOf(r))).map((r) => r.id);
      const indexed = new Set(rows.map(fileNameOf));
      const fresh = [...files.values()].filter((file) => !indexed.has(file.name));
      this.#progress = { done: 0, total: fresh.length };
      if (stale.length > 0) {
        this.#db.transaction(() => {
          for (const id of stale) this.#db.run('DELETE FROM images WHERE id = ?', [id]);
        });
        result.removed = stale.length;
        this.#changed(true);
      }
      const batchSize = Math.max(1, this.#options.batchSize ?? 64);
      for (let start = 0; start < fresh.length; start += batchSize) {
        const batch = fresh.slice(start, start + batchSize);
        const read = await mapInGroups(
          batch,
          HASH_CONCURRENCY,
          async (file): Promise<Row | undefined> => {
            // A named file is the gallery's when its sidecar gives the hash of its bytes; one
            // named by its hash (left by a rename that failed) when its bytes match its name.
            const sidecar = await readSidecar(folder, file.stem);
            const id = file.legacyId ?? sidecar?.sha256;
            if (id === undefined) return undefined;
            if (!(await fileMatchesHash(join(folder, file.name), id))) return undefined;
            const info = await fileInfo(join(folder, file.name));
            if (info === undefined) return undefined;
            return {
              id,
              ext: file.ext,
              prompt: sidecar?.prompt ?? '',
              revised_prompt: sidecar?.revisedPrompt ?? null,
              model: sidecar?.model ?? '',
              size: sidecar?.size ?? '',
              created_at: sidecar?.createdAt || info.mtime.toISOString(),
              bytes: info.size,
              file: file.legacyId === undefined ? file.name : null,
            };
          },
        );
        live();
        const rowsRead = read.filter((row): row is Row => row !== undefined);
        // The folder may have been left meanwhile (a file deleted from the gallery): a row is
        // written only for a file still there, which `fileMatchesHash` has just read.
        this.#db.transaction(() => {
          for (const row of rowsRead) this.#insert(row);
        });
        result.added += rowsRead.length;
        this.#progress = { done: start + batch.length, total: fresh.length };
        this.#changed(false);
        await yieldToEventLoop();
        live();
      }
      return result;
    } catch (error) {
      if (error instanceof Superseded) return result;
      throw error;
    }
  }

  /**
   * Renames the files saved under their hashes (`renameLegacyImage`), a batch at a time, and
   * points their rows at the new names. A file that cannot be renamed stays as it is, shown.
   */
  async #renameLegacy(folder: string, live: () => void): Promise<void> {
    const { images } = await listGalleryFolder(folder);
    const legacy = [...images.values()].filter((file) => file.legacyId !== undefined);
    const batchSize = Math.max(1, this.#options.batchSize ?? 64);
    for (let start = 0; start < legacy.length; start += batchSize) {
      // One at a time: two images of the same prompt and day must not pick the same name. Each
      // row follows its file at once, so the page never asks for a name that has just gone.
      for (const file of legacy.slice(start, start + batchSize)) {
        const id = file.legacyId as string;
        const info = await fileInfo(join(folder, file.name));
        if (info === undefined) continue;
        const name = await renameLegacyImage(folder, id, file.ext, info.mtime).catch(
          () => undefined,
        );
        if (name !== undefined) {
          this.#db.run('UPDATE images SET file = ? WHERE id = ? AND ext = ?', [name, id, file.ext]);
        }
      }
      await yieldToEventLoop();
      live();
    }
  }

  #lastChange = 0;

  /** Tells the page the index changed, at most every `changeIntervalMs` unless `now`. */
  #changed(now: boolean): void {
    const interval = this.#options.changeIntervalMs ?? 500;
    const at = Date.now();
    if (!now && at - this.#lastChange < interval) return;
    this.#lastChange = at;
    this.#options.onChange?.();
  }

  #insert(row: Row): void {
    this.#db.run(
      `INSERT INTO images (id, ext, prompt, revised_prompt, model, size, created_at, bytes, file)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET ext = excluded.ext, prompt = excluded.prompt,
         revised_prompt = excluded.revised_prompt, model = excluded.model, size = excluded.size,
         created_at = excluded.created_at, bytes = excluded.bytes, file = excluded.file`,
      [
        row.id,
        row.ext,
        row.prompt,
        row.revised_prompt,
        row.model,
        row.size,
        row.created_at,
        row.bytes,
        row.file,
      ],
    );
  }

  /** Saves run one after another, so two saves of one prompt never pick the same name. */
  #saving: Promise<unknown> = Promise.resolve();

  /**
   * Saves one image as `<prompt's words>-<date>-<n>.<ext>`: the sidecar (with the hash), then the
   * image (each atomically), then the index row. A crash at any point leaves either nothing, a
   * sidecar without an image (ignored), or an image the next start indexes from its sidecar;
   * never a partial file or a row without its file. The same bytes saved again keep their file.
   */
  save(image: NewImage): Promise<GalleryImage> {
    const run = this.#saving.catch(() => undefined).then(() => this.#save(image));
    this.#saving = run;
    return run;
  }

  async #save(image: NewImage): Promise<GalleryImage> {
    const ext = extensionOfType(image.mimeType);
    if (ext === undefined) {
      throw new AppError('invalid_request', said('images.typeNotSaved', { type: image.mimeType }));
    }
    const folder = this.folder().path;
    const id = sha256Hex(image.bytes);
    const now = this.#now();
    await mkdir(folder, { recursive: true });
    const before = this.#db.one<Row>('SELECT * FROM images WHERE id = ? AND ext = ?', [id, ext]);
    const kept =
      before !== undefined &&
      (await isRegularFile(join(folder, fileNameOf(before)), image.bytes.length)) &&
      (await fileMatchesHash(join(folder, fileNameOf(before)), id))
        ? fileNameOf(before)
        : undefined;
    const fileName =
      kept ??
      imageFileName(
        await freeStem(
          image.prompt,
          now,
          async (stem) =>
            (await nameTaken(folder, imageFileName(stem, ext))) ||
            (await nameTaken(folder, sidecarFileName(stem))),
        ),
        ext,
      );
    const stem = stemOf(fileName);
    const legacy = kept !== undefined && before?.file === null;
    const sidecar: Sidecar = {
      prompt: image.prompt,
      model: image.model,
      size: image.size,
      createdAt: now.toISOString(),
      ...(image.revisedPrompt === undefined ? {} : { revisedPrompt: image.revisedPrompt }),
      ...(legacy ? {} : { sha256: id }),
    };
    await writeGalleryFile(folder, sidecarFileName(stem), sidecarText(sidecar));
    if (kept === undefined) await writeGalleryFile(folder, fileName, image.bytes);
    const row: Row = {
      id,
      ext,
      prompt: sidecar.prompt,
      revised_prompt: sidecar.revisedPrompt ?? null,
      model: sidecar.model,
      size: sidecar.size,
      created_at: sidecar.createdAt,
      bytes: image.bytes.length,
      file: legacy ? null : fileName,
    };
    this.#insert(row);
    return toImage(row);
  }

  /** A page of the gallery, newest first. */
  list(
    options: {
      limit?: number | undefined;
      after?: { createdAt: string; id: string } | undefined;
    } = {},
  ): GalleryPage {
    // The person is looking at the gallery: what was put off at start is wanted now.
    this.#startDeferred();
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
    const page: GalleryPage =
      rows.length === limit && last
        ? { images, total, next: { createdAt: last.created_at, id: last.id } }
        : { images, total };
    const indexing = this.indexing();
    if (indexing !== undefined) page.indexing = indexing;
    return page;
  }

  #row(id: string): Row {
    const row = this.#db.one<Row>('SELECT * FROM images WHERE id = ?', [id]);
    if (row === undefined) {
      throw new AppError('not_found', said('images.gone'));
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
      throw new AppError('not_found', said('images.fileGone', { name: image.fileName }));
    }
    return path;
  }

  /** The file of the image a page path (`/gallery/<hash>.<ext>`) names, inside the folder. */
  async servedFile(pathname: string): Promise<string | undefined> {
    const named = galleryImageOf(pathname);
    if (named === undefined) return undefined;
    const row = this.#db.one<Pick<Row, 'id' | 'ext' | 'file'>>(
      'SELECT id, ext, file FROM images WHERE id = ? AND ext = ?',
      [named.id, named.ext],
    );
    return row === undefined ? undefined : fileInsideFolder(this.folder().path, fileNameOf(row));
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
    const sidecar = await fileInsideFolder(folder, sidecarFileName(stemOf(image.fileName)));
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
      throw new AppError('invalid_request', said('images.saveNotFull'));
    }
    await writeFileAtomic(destination, await readFile(path), { mode: 0o666 });
  }

  /** The folder's real path, for tests and for revealing it. */
  async realFolder(): Promise<string> {
    return realpath(this.folder().path);
  }
}
