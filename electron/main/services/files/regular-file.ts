/**
 * Reading a file the person chose, safely: only a regular file (never a folder, a pipe or a
 * device, which could block a read for ever or never end), and never more than a cap, even when
 * the file grows or is swapped while it is read.
 */
import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';

export type RegularFileRead =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; problem: 'not_regular' }
  | { ok: false; problem: 'too_large'; size: number }
  /** The file grew past the cap between `stat` and the read. */
  | { ok: false; problem: 'changed' }
  /** The file is gone (ENOENT): deleted or moved since it was chosen. */
  | { ok: false; problem: 'missing' }
  | { ok: false; problem: 'unreadable'; code: string };

/**
 * Opens a file that `stat` called regular, without ever waiting on it: with O_NONBLOCK, opening
 * a FIFO that replaced the file in between returns at once (a plain open would wait for a writer
 * for ever); the handle is then checked again, so what is read is the regular file itself.
 */
async function openRegular(path: string): Promise<FileHandle | undefined> {
  // O_NONBLOCK does not exist on Windows, where a path cannot be swapped for a FIFO this way.
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if ((await handle.stat()).isFile()) return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return undefined;
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

/** Reads a whole regular file of at most `maxBytes`, or says why it was not read. */
export async function readRegularFile(path: string, maxBytes: number): Promise<RegularFileRead> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, problem: 'not_regular' };
    if (info.size > maxBytes) return { ok: false, problem: 'too_large', size: info.size };
    const handle = await openRegular(path);
    if (handle === undefined) return { ok: false, problem: 'not_regular' };
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readUpTo(handle, maxBytes);
    } finally {
      await handle.close();
    }
    return bytes === undefined ? { ok: false, problem: 'changed' } : { ok: true, bytes };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') throw error;
    return code === 'ENOENT'
      ? { ok: false, problem: 'missing' }
      : { ok: false, problem: 'unreadable', code };
  }
}
