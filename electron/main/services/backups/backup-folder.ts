/**
 * The backup folder: how backups are named in it, what is in it, and whether it can take the
 * next one (there, writable, room enough).
 *
 * A folder may be shared by several computers through a sync service, so every name carries the
 * short id of the installation that made it: each computer rotates only its own backups, and
 * lists everyone's for a restore.
 */
import * as fs from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import type { ErrorMessageKey, MessageValues } from '../../../shared/messages/keys';
import type { AtomicWriteFs } from '../data-files';
import { messageFields, said, type Said } from '../words';
import { CHECKSUM_SUFFIX, codeOf, type BackupReason } from './backup-file';

/** The parts of the file system the service uses where a test injects a fault (a full disk). */
export interface BackupFs extends AtomicWriteFs {
  statfs(path: string): Promise<{ bavail: number | bigint; bsize: number | bigint }>;
}

export const nodeBackupFs: BackupFs = {
  open: fs.open,
  rename: fs.rename,
  rm: fs.rm,
  mkdir: fs.mkdir,
  statfs: (path) => fs.statfs(path),
};

const PREFIX = 'relay-desktop-backup-';
const NAME =
  /^relay-desktop-backup-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)-([0-9a-f]{6})(-before-restore)?(?:-(\d+))?(\.FAILED)?\.db$/;
const PARTIAL = /^\.(.+\.db)\.partial(?:-journal)?$/;

/** `2025-05-02T10-00-00Z`: sortable, and legal in a file name everywhere. */
function stampOf(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

function dateOfStamp(stamp: string): Date {
  const [day, time] = stamp.split('T') as [string, string];
  return new Date(`${day}T${time.replace(/-/g, ':')}`);
}

export function backupName(
  date: Date,
  installation: string,
  reason: BackupReason,
  attempt = 1,
): string {
  return `${PREFIX}${stampOf(date)}-${installation}${reason === 'before-restore' ? '-before-restore' : ''}${attempt > 1 ? `-${attempt}` : ''}.db`;
}

/** Where a backup is written until it has been verified: hidden, and never listed as a backup. */
export function partialName(name: string): string {
  return `.${name}.partial`;
}

/** Where a backup that failed its check is kept aside, and the note beside it saying why. */
export function failedName(name: string): string {
  return name.replace(/\.db$/, '.FAILED.db');
}

export function failedNoteName(name: string): string {
  return name.replace(/\.db$/, '.FAILED.txt');
}

export interface FolderEntry {
  name: string;
  createdAt: Date;
  installation: string;
  beforeRestore: boolean;
  failed: boolean;
  /** A checksum file is beside it. */
  checksum: boolean;
  bytes: number;
  mtimeMs: number;
}

export function parseBackupName(
  name: string,
): Omit<FolderEntry, 'checksum' | 'bytes' | 'mtimeMs'> | undefined {
  const match = NAME.exec(name);
  if (!match) return undefined;
  const createdAt = dateOfStamp(match[1] as string);
  if (Number.isNaN(createdAt.getTime())) return undefined;
  return {
    name,
    createdAt,
    installation: match[2] as string,
    beforeRestore: match[3] !== undefined,
    failed: match[5] !== undefined,
  };
}

/** The backups in the folder, newest first. */
export async function listFolder(folder: string): Promise<FolderEntry[]> {
  const names = await fs.readdir(folder);
  const present = new Set(names);
  const entries: FolderEntry[] = [];
  for (const name of names) {
    const parsed = parseBackupName(name);
    if (!parsed) continue;
    let info;
    try {
      info = await fs.stat(join(folder, name));
    } catch {
      continue;
    }
    if (!info.isFile()) continue;
    entries.push({
      ...parsed,
      checksum: present.has(`${name}${CHECKSUM_SUFFIX}`),
      bytes: info.size,
      mtimeMs: info.mtimeMs,
    });
  }
  return entries.sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.name < b.name ? 1 : -1),
  );
}

/** Unfinished copies this installation left in the folder (a crash or a kill mid-backup). */
export async function leftoverPartials(folder: string, installation: string): Promise<string[]> {
  return (await fs.readdir(folder)).filter((name) => {
    const backup = PARTIAL.exec(name)?.[1];
    return backup !== undefined && parseBackupName(backup)?.installation === installation;
  });
}

export type FolderProblem = {
  kind: 'missing' | 'not_writable' | 'full';
  /** In English; `messageId` and `values` say it in the person's language. */
  message: string;
  messageId: ErrorMessageKey;
  values?: MessageValues;
};

/** Megabytes to one decimal (at least 0.1), for "{size, number} MB". */
function megabytes(bytes: number): number {
  return Math.max(0.1, Math.round(bytes / 100_000) / 10);
}

function problem(kind: FolderProblem['kind'], sentence: Said): FolderProblem {
  return { kind, ...messageFields(sentence) };
}

/**
 * Whether the folder can take a backup of `neededBytes`: there (a drive unplugged or a sync
 * folder removed is not made again), writable, and with room. Undefined when it can.
 */
export async function checkFolder(
  folder: string,
  neededBytes: number,
  io: BackupFs,
): Promise<FolderProblem | undefined> {
  try {
    const info = await fs.stat(folder);
    if (!info.isDirectory())
      return problem('missing', said('backups.folder.notAFolder', { folder }));
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return problem('missing', said('backups.folder.missing', { folder }));
    return notWritable(folder, code);
  }
  try {
    await fs.access(folder, constants.W_OK);
  } catch (error) {
    return notWritable(folder, codeOf(error));
  }
  try {
    const space = await io.statfs(folder);
    const free = Number(space.bavail) * Number(space.bsize);
    if (free < neededBytes)
      return problem(
        'full',
        said('backups.folder.noRoom', {
          folder,
          needed: megabytes(neededBytes),
          free: megabytes(free),
        }),
      );
  } catch {
    // No free-space figure here (some network drives): the write itself will tell.
  }
  return undefined;
}

export function notWritable(folder: string, code: string): FolderProblem {
  return problem('not_writable', said('backups.folder.notWritable', { folder, code }));
}

export function fullProblem(folder: string): FolderProblem {
  return problem('full', said('backups.folder.full', { folder }));
}

/** What a failed write means for the person: a full drive, a folder they cannot write to, or gone. */
export function problemOfWriteError(folder: string, error: unknown): FolderProblem | undefined {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : '';
  if (
    code === 'ENOSPC' ||
    code === 'EDQUOT' ||
    code === 'SQLITE_FULL' ||
    /disk is full/i.test(message)
  )
    return fullProblem(folder);
  if (['EACCES', 'EPERM', 'EROFS', 'SQLITE_READONLY', 'SQLITE_PERM'].includes(code))
    return notWritable(folder, code);
  if (code === 'ENOENT' || code === 'SQLITE_CANTOPEN')
    return problem('missing', said('backups.folder.wentAway', { folder }));
  return undefined;
}
