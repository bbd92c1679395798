/**
 * The worker thread an import is read in (`import-reader.ts` starts it): reads and checks the
 * chosen files, posts each conversation of every good one, then what was refused.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readImportFiles } from './import-files';
import type { ImportWorkerData, ImportWorkerMessage } from './import-reader';

const port = parentPort;
if (port === null) throw new Error('import-worker.ts runs only as a worker thread.');
const post = (message: ImportWorkerMessage) => port.postMessage(message);
const { paths, limits } = workerData as ImportWorkerData;

readImportFiles(paths, (conversation) => post({ type: 'conversation', conversation }), limits).then(
  ({ refused, documents }) => post({ type: 'done', refused, documents }),
  (error: unknown) =>
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
