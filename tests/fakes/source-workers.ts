/**
 * Worker threads started from the TypeScript sources, as the built app starts them from `out/`:
 * the worker registers tsx first, then loads the entry.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { StartImportWorker } from '../../electron/main/services/chat/import-reader';
import type { StartDocumentWorker } from '../../electron/main/services/documents/read-documents';

const IMPORT_WORKER = join(
  import.meta.dirname,
  '../../electron/main/services/chat/import-worker.ts',
);

const DOCUMENT_WORKER = join(
  import.meta.dirname,
  '../../electron/main/services/documents/document-worker.ts',
);

function sourceWorker(entry: string, workerData: unknown): Worker {
  const url = JSON.stringify(pathToFileURL(entry).href);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${url}); })`;
  return new Worker(boot, { eval: true, workerData });
}

export const startSourceImportWorker: StartImportWorker = (data) =>
  sourceWorker(IMPORT_WORKER, data);

export const startSourceDocumentWorker: StartDocumentWorker = (data) =>
  sourceWorker(DOCUMENT_WORKER, data);
