/**
 * Putting a backup's data in place of the live data, all of it or none of it.
 *
 * Several files change together (the database and the small data files), and no file system
 * renames several files at once. So the new files are first written whole into a staging folder
 * beside the live ones; then a marker file listing the renames is written (atomically); then the
 * renames are done and the marker removed. A process killed before the marker exists leaves the
 * live data as it was (the staging folder is swept at the next start); killed after, the next
 * start finishes the renames before anything opens the data. Either way no half-restored state is
 * ever opened.
 */
import { copyFile, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'libsql';
import { z } from 'zod';
import { writeFileAtomic } from '../data-files';
import { CONNECTIONS_FILE } from '../connections/store';
import { DATABASE_FILE } from '../database';
import { MODEL_PREFERENCES_FILE } from '../models/model-catalog';
import { SETTINGS_FILE } from '../settings/settings';
import { FILES_TABLE, MANIFEST_TABLE, type DataFile } from './backup-file';

/**
 * The small data files a backup holds beside the database. Never the plaintext key file, the
 * window's place on this computer's screens, or the logs.
 */
export const BACKED_UP_FILES: readonly string[] = [
  SETTINGS_FILE,
  CONNECTIONS_FILE,
  MODEL_PREFERENCES_FILE,
];

export const RESTORE_STAGING = 'restore-staging';
export const RESTORE_MARKER = 'restore-pending.json';

const markerSchema = z.object({
  version: z.literal(1),
  /** Renames, relative to the user data folder: staged file to live file. */
  renames: z.array(z.object({ from: z.string(), to: z.string() })),
  /** Live files to remove first: the old database's WAL, data files the backup does not hold. */
  remove: z.array(z.string()),
});
type Marker = z.infer<typeof markerSchema>;

/** Flushes a file's bytes to disk (Windows needs write access to flush). */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries (the renames in it) to disk, where the system allows it. */
export async function syncFolder(path: string): Promise<void> {
  // Windows cannot open a folder for fsync; there a rename is already durable enough.
  if (process.platform === 'win32') return;
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the files themselves are synced.
  } finally {
    await handle?.close();
  }
}

/**
 * Writes the backup's data into the staging folder: a copy of the file without the backup's own
 * tables, and its data files. Nothing live is touched.
 */
export async function stageRestore(
  userDataDir: string,
  backupPath: string,
  files: readonly DataFile[],
): Promise<void> {
  const staging = join(userDataDir, RESTORE_STAGING);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  const database = join(staging, DATABASE_FILE);
  await copyFile(backupPath, database);
  const db = new Database(database);
  try {
    db.exec(`DROP TABLE IF EXISTS ${MANIFEST_TABLE}`);
    db.exec(`DROP TABLE IF EXISTS ${FILES_TABLE}`);
    db.exec('PRAGMA application_id = 0');
    const check = db.prepare('PRAGMA quick_check').all() as Array<{ quick_check: string }>;
    if (check.map((r) => r.quick_check).join('; ') !== 'ok')
      throw new Error('the staged copy failed its check');
  } finally {
    db.close();
  }
  await syncFile(database);
  for (const file of files) {
    // Only the files the app itself backs up, whatever names the backup holds.
    if (!BACKED_UP_FILES.includes(file.name)) continue;
    await writeFileAtomic(join(staging, file.name), file.bytes);
  }
  await syncFolder(staging);
}

/** Writes the marker that makes the staged restore happen, even across a crash. */
export async function markRestore(userDataDir: string, files: readonly DataFile[]): Promise<void> {
  const held = new Set(files.map((f) => f.name).filter((n) => BACKED_UP_FILES.includes(n)));
  const marker: Marker = {
    version: 1,
    renames: [
      { from: join(RESTORE_STAGING, DATABASE_FILE), to: DATABASE_FILE },
      ...[...held].map((name) => ({ from: join(RESTORE_STAGING, name), to: name })),
    ],
    remove: [
      `${DATABASE_FILE}-wal`,
      `${DATABASE_FILE}-shm`,
      `${DATABASE_FILE}-journal`,
      ...BACKED_UP_FILES.filter((name) => !held.has(name)),
    ],
  };
  await writeFileAtomic(join(userDataDir, RESTORE_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await (await open(path, 'r')).close();
    return true;
  } catch {
    return false;
  }
}

/**
 * Finishes a marked restore (renames the staged files over the live ones), or sweeps a staging
 * folder that was never marked. Safe to run again after a crash at any point: a rename already
 * done is skipped. Returns whether a restore was finished.
 */
export async function completePendingRestore(userDataDir: string): Promise<boolean> {
  const markerPath = join(userDataDir, RESTORE_MARKER);
  let text: string;
  try {
    text = await readFile(markerPath, 'utf8');
  } catch {
    await rm(join(userDataDir, RESTORE_STAGING), { recursive: true, force: true });
    return false;
  }
  const parsed = markerSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    // A marker is written atomically, so a damaged one was never this app's: leave the data.
    await rm(markerPath, { force: true });
    await rm(join(userDataDir, RESTORE_STAGING), { recursive: true, force: true });
    return false;
  }
  const inside = (relative: string) => {
    if (relative.includes('..')) throw new Error(`A restore marker names ${relative}.`);
    return join(userDataDir, relative);
  };
  const marker = parsed.data;
  const pending: Marker['renames'] = [];
  for (const move of marker.renames) if (await exists(inside(move.from))) pending.push(move);
  // The old WAL goes only while the new database has yet to arrive: once it has, the WAL beside
  // it may be the restored database's own.
  if (pending.some((move) => move.to === DATABASE_FILE))
    for (const name of marker.remove) await rm(inside(name), { force: true });
  for (const move of pending) await rename(inside(move.from), inside(move.to));
  await syncFolder(userDataDir);
  await rm(markerPath, { force: true });
  await rm(join(userDataDir, RESTORE_STAGING), { recursive: true, force: true });
  return true;
}
