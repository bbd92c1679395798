/**
 * Reading the files of an import away from main's event loop: in a worker thread that runs
 * `import-worker.ts`, whose conversations arrive one message at a time (so no single message
 * takes main long to receive).
 *
 * The worker is its own entry of the build (`electron.vite.config.ts`), next to `index.js` in
 * `out/main`; `index.ts` says where, and tests start it from the sources.
 */
import type { Worker } from 'node:worker_threads';
import { IMPORT_LIMITS, readImportFiles, type ImportLimits } from './import-files';
import type { ExportedConversation, Refused } from './transfer';

export interface ImportWorkerData {
  paths: string[];
  limits: ImportLimits;
}

export type ImportWorkerMessage =
  | { type: 'file'; sha256: string; bytes: Uint8Array }
  | { type: 'conversation'; conversation: ExportedConversation }
  | { type: 'done'; refused: Refused[]; documents: number }
  | { type: 'failed'; message: string };

/** Starts the import worker with its data (`new Worker(<built import-worker.js>, { workerData })`). */
export type StartImportWorker = (data: ImportWorkerData) => Worker;

export interface ChosenFiles {
  conversations: ExportedConversation[];
  /** The bytes of the files the conversations' messages carry, by SHA-256 (checked). */
  files: Map<string, Uint8Array>;
  refused: Refused[];
  /** How many exports were read whole. */
  documents: number;
}

export type ReadChosenFiles = (paths: readonly string[]) => Promise<ChosenFiles>;

/** Reads the files in a worker thread started by `start`. */
export function readInWorker(
  start: StartImportWorker,
  limits: ImportLimits = IMPORT_LIMITS,
): ReadChosenFiles {
  return (paths) =>
    new Promise((resolve, reject) => {
      const conversations: ExportedConversation[] = [];
      const files = new Map<string, Uint8Array>();
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        outcome();
        void worker.terminate();
      };
      const worker = start({ paths: [...paths], limits });
      worker.on('message', (message: ImportWorkerMessage) => {
        if (message.type === 'conversation') conversations.push(message.conversation);
        else if (message.type === 'file') files.set(message.sha256, message.bytes);
        else if (message.type === 'done')
          settle(() =>
            resolve({
              conversations,
              files,
              refused: message.refused,
              documents: message.documents,
            }),
          );
        else settle(() => reject(new Error(`Reading the files failed: ${message.message}`)));
      });
      worker.on('error', (error) => settle(() => reject(error)));
      worker.on('exit', (code) =>
        settle(() => reject(new Error(`Reading the files stopped early (exit code ${code}).`))),
      );
    });
}

/** Reads the files on the calling thread: for callers that run no worker (some tests, tools). */
export function readInProcess(limits: ImportLimits = IMPORT_LIMITS): ReadChosenFiles {
  return async (paths) => {
    const conversations: ExportedConversation[] = [];
    const files = new Map<string, Uint8Array>();
    const { refused, documents } = await readImportFiles(
      paths,
      (conversation) => conversations.push(conversation),
      limits,
      (sha256, bytes) => files.set(sha256, bytes),
    );
    return { conversations, files, refused, documents };
  };
}
