/**
 * Reading the files chosen for an import: only regular files, within the size of one import,
 * each checked whole (`readImportFile`) before any of its conversations is passed on.
 *
 * It runs in a worker thread (`import-worker.ts`), so that reading, unzipping, parsing and
 * checking hundreds of megabytes never holds main's event loop.
 */
import { basename } from 'node:path';
import { readRegularFile, type RegularFileRead } from '../files/regular-file';
import { megabytes } from './zip-reader';
import {
  MAX_IMPORT_BYTES,
  readImportFile,
  ZIP_LIMITS,
  type ExportedConversation,
  type Refused,
} from './transfer';
import { MAX_IMPORTED_FILE_BYTES } from './transfer-files';

export interface ImportLimits {
  /** The largest file read. */
  maxFileBytes: number;
  /** The most JSON one import reads, all files (and everything a zip unpacks to) together. */
  maxTotalBytes: number;
  /** The most files one zip may hold. */
  maxZipEntries: number;
  /** The largest file sent with a message that a zip export may carry (default 50 MB). */
  maxAttachmentBytes?: number;
}

export const IMPORT_LIMITS: ImportLimits = {
  maxFileBytes: MAX_IMPORT_BYTES,
  maxTotalBytes: MAX_IMPORT_BYTES,
  maxZipEntries: ZIP_LIMITS.maxEntries,
  maxAttachmentBytes: MAX_IMPORTED_FILE_BYTES,
};

export interface ImportFilesResult {
  refused: Refused[];
  /** How many exports were read whole (an export may hold no conversation). */
  documents: number;
}

const NOT_REGULAR = (name: string) =>
  `${name} is not a regular file (a folder, a pipe or a device), so it was not read.`;

/**
 * Reads every chosen file in turn and passes each conversation of every good one to `accept`,
 * after the bytes of the files its messages carry to `acceptFile` (by SHA-256, each once per
 * import); returns what was refused, by name and why. A file past `maxFileBytes`, or past what
 * is left of `maxTotalBytes`, is refused before it is read.
 */
export async function readImportFiles(
  paths: readonly string[],
  accept: (conversation: ExportedConversation) => void,
  limits: ImportLimits = IMPORT_LIMITS,
  acceptFile: (sha256: string, bytes: Uint8Array) => void = () => undefined,
): Promise<ImportFilesResult> {
  const refused: Refused[] = [];
  let left = limits.maxTotalBytes;
  let documents = 0;
  const passed = new Set<string>();
  for (const path of paths) {
    const name = basename(path);
    // Past what is left of the import, a file is refused before it is read.
    const file = await readRegularFile(path, Math.min(limits.maxFileBytes, left));
    if (!file.ok) {
      refused.push({ name, reason: refusal(name, file, limits) });
      continue;
    }
    const read = readImportFile(
      name,
      file.bytes,
      {
        maxEntries: limits.maxZipEntries,
        // What a zip unpacks to counts against the import, not its packed size.
        maxUncompressedBytes: left,
      },
      limits.maxAttachmentBytes ?? MAX_IMPORTED_FILE_BYTES,
    );
    refused.push(...read.refused);
    left -= read.bytes;
    for (const [sha256, bytes] of read.files) {
      if (passed.has(sha256)) continue;
      passed.add(sha256);
      acceptFile(sha256, bytes);
    }
    for (const { document } of read.documents) {
      documents++;
      for (const conversation of document.conversations) accept(conversation);
    }
  }
  return { refused, documents };
}

function refusal(
  name: string,
  file: Exclude<RegularFileRead, { ok: true }>,
  limits: ImportLimits,
): string {
  switch (file.problem) {
    case 'not_regular':
      return NOT_REGULAR(name);
    case 'too_large':
      return file.size > limits.maxFileBytes
        ? `${name} is too large to be a chat export.`
        : `${name} was not read: one import reads at most ${megabytes(limits.maxTotalBytes)} in all. Import it on its own.`;
    case 'changed':
      return `${name} changed while it was read; import it again.`;
    case 'missing':
      return `${name} could not be read (ENOENT).`;
    case 'unreadable':
      return `${name} could not be read (${file.code}).`;
  }
}
