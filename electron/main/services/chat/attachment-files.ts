/**
 * A sent attachment out of the database: opened in the system's app for its type (from a copy the
 * guarded opener writes in a private folder, under a name of a type that shows rather than runs),
 * or saved where the person chooses.
 */
import { extname } from 'node:path';
import type { Dialogs } from '../../app-context';
import type { AttachmentKind } from '../../../shared/ipc/routes/chat';
import { AppError } from '../app-error';
import { writeFileAtomic } from '../data-files';
import type { FileOpener } from '../files/file-opener';
import { isLaunchType } from '../files/launch-types';
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

/** The extension an image's copy carries, by the type its bytes were checked to be. */
const IMAGE_EXTENSIONS: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
};

/**
 * The name a copy is opened under: the file's own name made safe, with the extension of what it
 * was read as, so the system shows it rather than runs it. A PDF ends in `.pdf`, an image in its
 * type's extension, and a text file named like a program or a script (or with no extension at
 * all) gets `.txt`: `Quarterly report.pdf.exe` opens as `Quarterly report.pdf.exe.txt`, in a text
 * editor. The name stays as it was everywhere else.
 */
export function openedName(file: { name: string; kind: AttachmentKind; mimeType: string }): string {
  const name = safeFileName(file.name);
  const extension = extname(name).slice(1).toLowerCase();
  if (file.kind === 'pdf') return extension === 'pdf' ? name : `${name}.pdf`;
  if (file.kind === 'image') {
    const allowed = IMAGE_EXTENSIONS[file.mimeType] ?? ['png'];
    return allowed.includes(extension) ? name : `${name}.${allowed[0]!}`;
  }
  return extension === '' || isLaunchType(name) ? `${name}.txt` : name;
}

/**
 * Opens a copy of a sent attachment; a type the system would run is never opened (it cannot
 * arise from `openedName`, and the opener checks again).
 */
export async function openAttachment(
  store: AttachmentStore,
  opener: FileOpener,
  id: string,
): Promise<string> {
  const file = stored(store, id);
  if (!opener.canOpen) throw new AppError('invalid_request', said('attachments.cannotOpen'));
  const opened = await opener.openCopy(openedName(file), file.data);
  if (opened.outcome === 'failed')
    throw new AppError(
      'invalid_request',
      said('attachments.openFailed', { name: file.name, problem: opened.problem }),
    );
  if (opened.outcome === 'shown')
    throw new AppError('invalid_request', said('files.shownNotOpened', { name: file.name }));
  return opened.path;
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
