/**
 * Reading the files chosen for an import: only regular files, within the size of one import,
 * each checked whole (`readImportFile`) before any of its conversations is passed on.
 *
 * It runs in a worker thread (`import-worker.ts`), so that reading, unzipping, parsing and
 * checking hundreds of megabytes never holds main's event loop.
 */
import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { megabytes } from './zip-reader';
import {
  MAX_IMPORT_BYTES,
  readImportFile,
  ZIP_LIMITS,
  type ExportedConversation,
  type Refused,
} from './transfer';

export interface ImportLimits {
  /** The largest file read. */
  maxFileBytes: number;
  /** The most JSON one import reads, all files (and everything a zip unpacks to) together. */
  maxTotalBytes: number;
  /** The most files one zip may hold. */
  maxZipEntries: number;
}

export const IMPORT_LIMITS: ImportLimits = {
  maxFileBytes: MAX_IMPORT_BYTES,
  maxTotalBytes: MAX_IMPORT_BYTES,
  maxZipEntries: ZIP_LIMITS.maxEntries,
};

export interface ImportFilesResult {
  refused: Refused[];
  /** How many exports were read whole (an export may hold no conversation). */
  documents: number;
}

const NOT_REGULAR = (name: string) =>
  `${name} is not a regular file (a folder, a pipe or a device), so it was not read.`;

/**
 * Opens a file that `stat` called regular, without ever waiting on it: with O_NONBLOCK, opening
 * a FIFO that replaced the file in between returns at once (a plain open would wait for a writer
 * for ever); the handle is then checked again, so what is read is the regular file itself.
 */
async function openRegular(
  path: string,
): Promise<{ handle: FileHandle; size: number } | undefined> {
  // O_NONBLOCK does not exist on Windows, where a path cannot be swapped for a FIFO this way.
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return undefined;
    }
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads at most `limit` bytes; undefined when the file holds more (it grew since `stat`). */
async function readUpTo(handle: FileHandle, limit: number): Promise<Uint8Array | undefined> {
  const buffer = Buffer.alloc(limit + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
    if (bytesRead === 0) break;
    filled += bytesRead;
    if (filled > limit) return undefined;
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
}

/**
 * Reads every chosen file in turn and passes each conversation of every good one to `accept`;
 * returns what was refused, by name and why. A file past `maxFileBytes`, or past what is left
 * of `maxTotalBytes`, is refused before it is read.
 */
export async function readImportFiles(
  paths: readonly string[],
  accept: (conversation: ExportedConversation) => void,
  limits: ImportLimits = IMPORT_LIMITS,
): Promise<ImportFilesResult> {
  const refused: Refused[] = [];
  let left = limits.maxTotalBytes;
  let documents = 0;
  for (const path of paths) {
    const name = basename(path);
    try {
      const info = await stat(path);
      if (!info.isFile()) {
        refused.push({ name, reason: NOT_REGULAR(name) });
        continue;
      }
      if (info.size > limits.maxFileBytes) {
        refused.push({ name, reason: `${name} is too large to be a chat export.` });
        continue;
      }
      if (info.size > left) {
        refused.push({
          name,
          reason: `${name} was not read: one import reads at most ${megabytes(limits.maxTotalBytes)} in all. Import it on its own.`,
        });
        continue;
      }
      const opened = await openRegular(path);
      if (opened === undefined) {
        refused.push({ name, reason: NOT_REGULAR(name) });
        continue;
      }
      let bytes: Uint8Array | undefined;
      try {
        bytes = await readUpTo(opened.handle, Math.min(limits.maxFileBytes, left));
      } finally {
        await opened.handle.close();
      }
      if (bytes === undefined) {
        refused.push({ name, reason: `${name} changed while it was read; import it again.` });
        continue;
      }
      const read = readImportFile(name, bytes, {
        maxEntries: limits.maxZipEntries,
        // What a zip unpacks to counts against the import, not its packed size.
        maxUncompressedBytes: left,
      });
      refused.push(...read.refused);
      left -= read.bytes;
      for (const { document } of read.documents) {
        documents++;
        for (const conversation of document.conversations) accept(conversation);
      }
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string') throw error;
      refused.push({ name, reason: `${name} could not be read (${code}).` });
    }
  }
  return { refused, documents };
}
