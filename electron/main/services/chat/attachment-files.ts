/**
 * A sent attachment out of the database: opened in the system's app for its type (from a copy in
 * a folder of the app's own under the system's temp folder), or saved where the person chooses.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { DesktopShell, Dialogs } from '../../app-context';
import { AppError } from '../app-error';
import { writeFileAtomic } from '../data-files';
import type { AttachmentStore } from './attachments';
import { nativeText, said } from '../words';

function stored(store: AttachmentStore, id: string) {
  const file = store.file(id);
  if (file === undefined) throw new AppError('not_found', said('attachments.gone'));
  return file;
}

/** A file name that names no folder and no device: what is left of it once made safe. */
export function safeFileName(name: string): string {
  const cleaned = [...name]
    .map((char) => (char.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .replace(/^\.+/, '_')
    .trim();
  return cleaned === '' ? 'attachment' : cleaned.slice(0, 200);
}

export async function openAttachment(
  store: AttachmentStore,
  desktop: DesktopShell,
  id: string,
  base = join(tmpdir(), 'relay-desktop-attachments'),
): Promise<string> {
  const file = stored(store, id);
  if (desktop.openPath === undefined)
    throw new AppError('invalid_request', said('attachments.cannotOpen'));
  const folder = join(base, safeFileName(id));
  await mkdir(folder, { recursive: true });
  const path = join(folder, safeFileName(file.name));
  await writeFile(path, file.data);
  const problem = await desktop.openPath(path);
  if (problem !== '')
    throw new AppError(
      'invalid_request',
      said('attachments.openFailed', { name: file.name, problem }),
    );
  return path;
}

export async function saveAttachment(
  store: AttachmentStore,
  dialogs: Dialogs,
  id: string,
): Promise<{ saved: boolean; path?: string }> {
  const file = stored(store, id);
  const extension = extname(file.name).slice(1);
  const path = await dialogs.chooseSavePath({
    title: nativeText('dialog.saveFile'),
    defaultName: safeFileName(file.name),
    ...(extension ? { filters: [{ name: extension.toUpperCase(), extensions: [extension] }] } : {}),
  });
  if (path === undefined) return { saved: false };
  await writeFileAtomic(path, file.data);
  return { saved: true, path };
}
