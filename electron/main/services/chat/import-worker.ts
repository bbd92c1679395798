/**
 * The worker thread an import is read in (`import-reader.ts` starts it): reads and checks the
 * chosen files, posts the bytes of the files they carry and each conversation of every good one,
 * then what was refused.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readImportFiles } from './import-files';
import type { ImportWorkerData, ImportWorkerMessage } from './import-reader';

const port = parentPort;
if (port === null) throw new Error('import-worker.ts runs only as a worker thread.');
const post = (message: ImportWorkerMessage) => port.postMessage(message);
const { paths, limits } = workerData as ImportWorkerData;

readImportFiles(
  paths,
  (conversation) => post({ type: 'conversation', conversation }),
  limits,
  // Handed over, not copied: each file's bytes are read once and needed only by main.
  (sha256, bytes) =>
    port.postMessage({ type: 'file', sha256, bytes }, [bytes.buffer as ArrayBuffer]),
).then(
  ({ refused, documents }) => post({ type: 'done', refused, documents }),
  (error: unknown) =>
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
