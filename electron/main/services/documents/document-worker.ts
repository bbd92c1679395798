/**
 * The worker thread documents are read in (`read-documents.ts` starts it): reads each path in
 * turn and posts its result as soon as it has it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DocumentWorkerData, DocumentWorkerMessage } from './read-documents';
import { readDocumentFile } from './read-documents';

const port = parentPort;
if (port === null) throw new Error('document-worker.ts runs only as a worker thread.');
const post = (message: DocumentWorkerMessage) => port.postMessage(message);
const { paths, limits } = workerData as DocumentWorkerData;

(async () => {
  for (const [index, path] of paths.entries()) {
    post({ type: 'document', index, result: await readDocumentFile(path, limits) });
  }
})().catch((error: unknown) =>
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
