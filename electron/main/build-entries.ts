/**
 * Entries of the main build that the app loads by file name at run time, named once for both
 * `electron.vite.config.ts` (which writes `out/main/<name>.js`) and the code that loads them.
 */

/** The worker thread chat imports are read in (`services/chat/import-worker.ts`). */
export const CHAT_IMPORT_WORKER = 'chat-import-worker';

/** The worker thread documents are read in for their text (`services/documents/document-worker.ts`). */
export const DOCUMENT_WORKER = 'document-worker';

/**
 * Dependencies bundled into main's build rather than imported from node_modules at run time.
 * zod is about fifty ES modules: resolving, reading and compiling each at start cost about 60 ms
 * of the services' 300 (CPU, `cold-start`'s services process); bundled, it is parsed with main.
 */
export const MAIN_BUNDLED_DEPENDENCIES = ['zod'];
