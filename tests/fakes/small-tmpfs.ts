/**
 * A folder on a real file system of a fixed, small size (a tmpfs), so a write runs out of room
 * for real: `ENOSPC` from the kernel, `SQLITE_FULL` from SQLite. Mounting needs root (as in CI's
 * container); elsewhere `mountSmallTmpfs` says why it could not, and the test is skipped.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type SmallTmpfs =
  | { path: string; unmount(): Promise<void>; skipped?: undefined }
  | { skipped: string; path?: undefined; unmount?: undefined };

export async function mountSmallTmpfs(bytes: number): Promise<SmallTmpfs> {
  if (process.platform !== 'linux') return { skipped: 'a tmpfs can only be mounted on Linux' };
  if (process.getuid?.() !== 0) return { skipped: 'mounting a tmpfs needs root' };
  const path = await mkdtemp(join(tmpdir(), 'relay-small-tmpfs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', path]);
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    return { skipped: `mount -t tmpfs failed: ${(error as Error).message.split('\n')[0]}` };
  }
  return {
    path,
    async unmount() {
      await run('umount', [path]).catch(() => run('umount', ['-l', path]));
      await rm(path, { recursive: true, force: true });
    },
  };
}
