/**
 * Files the app writes (its data, and the exports the person saves), written so that a crash or a
 * full disk never leaves a half-written file, and data files read so that a damaged one is kept
 * aside rather than overwritten. Every file the app writes goes through `writeFileAtomic`.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ZodType } from 'zod';

/** The parts of `node:fs/promises` the writer uses; tests inject failures through it. */
export interface AtomicWriteFs {
  open: typeof fs.open;
  rename: typeof fs.rename;
  rm: typeof fs.rm;
  mkdir: typeof fs.mkdir;
}

export interface AtomicWriteOptions {
  /** File mode of the new file (default 0o600: only this user reads our data). */
  mode?: number;
  fs?: AtomicWriteFs;
}

/**
 * Replaces `path` with `data` all at once: a temp file beside it, fsync, rename over the old file,
 * then fsync the folder so the rename itself survives a power cut. On any failure the old file is
 * untouched and the temp file is removed.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const io = options.fs ?? fs;
  const mode = options.mode ?? 0o600;
  const folder = dirname(path);
  await io.mkdir(folder, { recursive: true, mode: 0o700 });
  const temp = join(
    folder,
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const handle = await io.open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await io.rename(temp, path);
  } catch (error) {
    await io.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(folder);
}

/**
 * Makes a new, empty file readable by this user only (0600), failing if anything is there
 * already: for a copy another program fills in (SQLite's `VACUUM INTO` takes an empty file), so
 * the copy is private from the moment it exists rather than once it is written.
 */
export async function createPrivateFile(path: string): Promise<void> {
  const handle = await fs.open(path, 'wx', 0o600);
  await handle.close();
}

async function syncFolder(folder: string): Promise<void> {
  // Windows cannot open a folder for fsync; there the rename is already durable enough.
  if (process.platform === 'win32') return;
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the data itself is already synced.
  } finally {
    await handle?.close();
  }
}

/** What went wrong reading a data file, to show the person. */
export type DataFileProblem =
  | {
      kind: 'corrupt';
      /** Where the damaged file was kept. */
      backupPath: string;
      message: string;
    }
  | {
      kind: 'unreadable';
      code: string;
      message: string;
    };

export type JsonFileRead<T> =
  | { status: 'missing' }
  | { status: 'ok'; value: T }
  | { status: 'corrupt'; problem: Extract<DataFileProblem, { kind: 'corrupt' }> }
  | { status: 'unreadable'; problem: Extract<DataFileProblem, { kind: 'unreadable' }> };

/**
 * Reads and checks a JSON data file. A file that is not valid JSON or does not match `schema` is
 * copied to `<path>.corrupt-<date>` before anything else can replace it; a file that cannot be
 * read at all is reported and left alone.
 */
export async function readJsonFile<T>(
  path: string,
  schema: ZodType<T>,
  what: string,
  now: () => Date = () => new Date(),
): Promise<JsonFileRead<T>> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOENT') return { status: 'missing' };
    return {
      status: 'unreadable',
      problem: {
        kind: 'unreadable',
        code,
        message: `Your ${what} could not be read from ${path} (${code}). Nothing was changed; fix the file's permissions and restart.`,
      },
    };
  }
  try {
    const checked = schema.safeParse(JSON.parse(bytes.toString('utf8')));
    if (checked.success) return { status: 'ok', value: checked.data };
  } catch {
    // Not JSON: kept aside below, like JSON of the wrong shape.
  }
  const stamp = now().toISOString().replace(/[:.]/g, '-');
  const backupPath = `${path}.corrupt-${stamp}`;
  await writeFileAtomic(backupPath, bytes);
  return {
    status: 'corrupt',
    problem: {
      kind: 'corrupt',
      backupPath,
      message: `Your ${what} file was damaged, so the app started without it. The damaged file was kept as ${backupPath}.`,
    },
  };
}
