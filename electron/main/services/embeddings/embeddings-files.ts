/**
 * The embeddings playground's files: a run exported where the person chooses, and texts to embed
 * read from a file they open.
 */
import { basename } from 'node:path';
import type { Dialogs } from '../../app-context';
import type { EmbeddingsService } from './embeddings-service';
import type { InputFile } from './input-file';
import { nativeText } from '../words';

/** Exports a run as JSON or CSV to a file the person chooses; `rows` is 0 if they cancelled. */
export async function exportRunToFile(
  service: EmbeddingsService,
  dialogs: Dialogs,
  runId: string,
  format: 'json' | 'csv',
): Promise<{ path?: string; rows: number }> {
  const run = service.get(runId);
  const stamp = run.createdAt.slice(0, 19).replace(/[:T]/g, '-');
  const path = await dialogs.chooseSavePath({
    title: nativeText('dialog.exportEmbeddings', { format: format.toUpperCase() }),
    defaultName: `embeddings-${stamp}.${format}`,
    filters: [{ name: format.toUpperCase(), extensions: [format] }],
  });
  if (path === undefined) return { rows: 0 };
  return { path, rows: await service.export(runId, format, path) };
}

/** Reads the texts of a .txt or .csv file the person opens; none if they cancelled. */
export async function openInputsFile(
  service: EmbeddingsService,
  dialogs: Dialogs,
): Promise<Omit<InputFile, 'fileName'> & { fileName?: string }> {
  const [path] = await dialogs.chooseOpenPaths({
    title: nativeText('dialog.openTexts'),
    filters: [{ name: nativeText('dialog.textOrCsvFilter'), extensions: ['txt', 'csv'] }],
  });
  if (path === undefined) return { inputs: [], skippedEmpty: 0 };
  const file = await service.readInputFile(path);
  return { ...file, fileName: basename(file.fileName) };
}
