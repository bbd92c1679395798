/**
 * Reading documents from disk for their text, away from main's event loop: in a worker thread
 * that runs `document-worker.ts` (its own entry of the build, next to `index.js` in `out/main`),
 * one worker per batch, each document's result posted as soon as it is read.
 */
import { basename } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { readRegularFile, type RegularFileRead } from '../files/regular-file';
import {
  DOCUMENT_LIMITS,
  extractDocument,
  notAdded,
  type DocumentLimits,
  type DocumentRefusalReason,
  type DocumentResult,
} from './document-text';
import { said, type Said } from '../words';

export interface DocumentWorkerData {
  paths: string[];
  limits: DocumentLimits;
}

export type DocumentWorkerMessage =
  { type: 'document'; index: number; result: DocumentResult } | { type: 'failed'; message: string };

/** Starts the document worker with its data (`new Worker(<built document-worker.js>, …)`). */
export type StartDocumentWorker = (data: DocumentWorkerData) => Worker;

/** Reads documents and gives one result per path, in order; `onResult` hears each as it comes. */
export type ReadDocuments = (
  paths: readonly string[],
  options?: { onResult?: (index: number, result: DocumentResult) => void; signal?: AbortSignal },
) => Promise<DocumentResult[]>;

/** Reads one file from disk and extracts its text, or says why it was not read. */
export async function readDocumentFile(
  path: string,
  limits: DocumentLimits = DOCUMENT_LIMITS,
): Promise<DocumentResult> {
  const name = basename(path);
  const file = await readRegularFile(path, limits.maxBytes);
  if (file.ok) return extractDocument(name, file.bytes, limits);
  return unreadRefusal(
    name,
    file,
    said('documents.why.tooLarge', { megabytes: Math.round(limits.maxBytes / (1024 * 1024)) }),
  );
}

/**
 * Why a file could not be read from disk, as a refusal naming it; `tooLarge` says the size
 * allowed, which documents and attachments word each in their own way.
 */
export function unreadRefusal(
  name: string,
  read: Exclude<RegularFileRead, { ok: true }>,
  tooLarge: Said,
): Extract<DocumentResult, { ok: false }> {
  const refused = (reason: DocumentRefusalReason, why: Said) =>
    ({ ok: false, refusal: { name, reason, ...notAdded(name, why) } }) as const;
  switch (read.problem) {
    case 'not_regular':
      return refused('not_regular', said('documents.why.notRegular'));
    case 'too_large':
      return refused('too_large', tooLarge);
    case 'changed':
      return refused('unreadable', said('documents.why.changed'));
    case 'missing':
      return refused('missing', said('documents.why.missing'));
    case 'unreadable':
      return refused('unreadable', said('documents.why.unreadable', { code: read.code }));
  }
}

/** Reads in a worker thread started by `start`. */
export function readDocumentsInWorker(
  start: StartDocumentWorker,
  limits: DocumentLimits = DOCUMENT_LIMITS,
): ReadDocuments {
  return (paths, { onResult, signal } = {}) =>
    new Promise((resolve, reject) => {
      if (paths.length === 0) {
        resolve([]);
        return;
      }
      const results: Array<DocumentResult | undefined> = new Array(paths.length);
      let received = 0;
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        outcome();
        void worker.terminate();
      };
      const onAbort = () =>
        settle(() => reject(signal?.reason ?? new Error('Reading the documents was cancelled.')));
      const worker = start({ paths: [...paths], limits });
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', (message: DocumentWorkerMessage) => {
        if (message.type === 'failed') {
          settle(() => reject(new Error(`Reading the documents failed: ${message.message}`)));
          return;
        }
        results[message.index] = message.result;
        onResult?.(message.index, message.result);
        received++;
        if (received === paths.length) settle(() => resolve(results as DocumentResult[]));
      });
      worker.on('error', (error) => settle(() => reject(error)));
      worker.on('exit', (code) =>
        settle(() => reject(new Error(`Reading the documents stopped early (exit code ${code}).`))),
      );
    });
}

/** Reads on the calling thread: for tests and tools that run no worker. */
export function readDocumentsInProcess(limits: DocumentLimits = DOCUMENT_LIMITS): ReadDocuments {
  return async (paths, { onResult, signal } = {}) => {
    const results: DocumentResult[] = [];
    for (const [index, path] of paths.entries()) {
      signal?.throwIfAborted();
      const result = await readDocumentFile(path, limits);
      results.push(result);
      onResult?.(index, result);
    }
    return results;
  };
}
