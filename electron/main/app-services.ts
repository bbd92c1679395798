/**
 * Builds the app's services and the handler of every IPC route from platform pieces.
 *
 * `index.ts` calls it with the OS keychain, `net.fetch` and `app.getPath('userData')`; the e2e
 * harness calls it with a temp folder, Node's fetch and an in-memory or real keychain. Wiring
 * only: the shell's services and the context every domain gets, then each domain's handlers
 * (`ipc/handlers/<domain>.ts`), whose logic lives in its services.
 */
import { randomUUID } from 'node:crypto';
import { emitEvents, type Routes } from '../shared/ipc/contract';
import type { SendEvent } from '../shared/ipc/define';
import type { AppContext, DesktopShell, Dialogs } from './app-context';
import {
  readDocumentsInProcess,
  readDocumentsInWorker,
  type StartDocumentWorker,
} from './services/documents/read-documents';
import type { StartImportWorker } from './services/chat/import-reader';
import { appHandlers } from './ipc/handlers/app';
import { chatHandlers } from './ipc/handlers/chat';
import { connectionsHandlers } from './ipc/handlers/connections';
import { embeddingsHandlers } from './ipc/handlers/embeddings';
import { imagesHandlers, openImageGallery } from './ipc/handlers/images';
import { modelsHandlers } from './ipc/handlers/models';
import { settingsHandlers } from './ipc/handlers/settings';
import type { Handlers } from './ipc/router';
import { AppError } from './services/app-error';
import { ConnectionHealthTracker } from './services/connections/connection-health';
import { ConnectionsService } from './services/connections/connections';
import { unencryptedQuestion } from './services/connections/unencrypted-question';
import { databasePath, openDatabase, type Db } from './services/database';
import type { ImageGallery } from './services/images/gallery';
import {
  createNullLog,
  logMigrations,
  logRequests,
  watchSecrets,
  type AppLog,
} from './services/log';
import { ModelCatalog } from './services/models/model-catalog';
import type { FetchLike, RelayClient } from './services/relay/relay-client';
import type { SecretStore } from './services/secret-store';
import { SettingsService } from './services/settings/settings';

export interface AppServicesOptions {
  userDataDir: string;
  /** The person's Pictures folder (the gallery's default home); the user data folder if absent. */
  picturesDir?: string;
  secretStore: SecretStore;
  fetch?: FetchLike;
  /** Sends an event's payload on its channel to the renderer (`webContents.send` in the app). */
  emit?: SendEvent;
  platform?: string;
  version?: string;
  /** The file dialogs; without them every "save as" or "open" counts as cancelled. */
  dialogs?: Dialogs;
  /** The file manager and trash; without them, reveal does nothing and trash refuses. */
  desktop?: DesktopShell;
  /** The support log; without it nothing is logged. */
  log?: AppLog;
  /** Starts the worker thread chat imports are read in; without it they are read on main. */
  startImportWorker?: StartImportWorker;
  /** Starts the worker thread documents are read in; without it they are read on main. */
  startDocumentWorker?: StartDocumentWorker;
}

export interface AppServices {
  handlers: Handlers<Routes>;
  connections: ConnectionsService;
  settings: SettingsService;
  models: ModelCatalog;
  db: Db;
  /** The image gallery: the app protocol serves its files from `/gallery/<hash>.<ext>`. */
  gallery: ImageGallery;
  close(): Promise<void>;
}

const NO_DIALOGS: Dialogs = {
  chooseSavePath: async () => undefined,
  chooseOpenPaths: async () => [],
};

const NO_DESKTOP: DesktopShell = {
  showInFolder: () => undefined,
  moveToTrash: async () => {
    throw new AppError('internal', 'Moving files to the trash is not available here.');
  },
};

export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  const emit = emitEvents(options.emit ?? (() => undefined));
  const log = options.log ?? createNullLog();
  const startedAt = new Date();
  const dialogs = options.dialogs ?? NO_DIALOGS;
  const connections = new ConnectionsService({
    dataDir: options.userDataDir,
    secrets: watchSecrets(options.secretStore, log),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    confirmUnencrypted: async (origin) =>
      (await dialogs.confirm?.(unencryptedQuestion(origin))) ?? false,
  });
  const settings = new SettingsService(options.userDataDir);
  const health = new ConnectionHealthTracker(emit);
  log.setIncludePrompts((await settings.get()).includePromptsInLogs);
  settings.onChange((changed) => log.setIncludePrompts(changed.includePromptsInLogs));

  /** A client for a connection, with the person's timeouts and retry countdowns sent to the page. */
  async function clientFor(id: string, requestId: string = randomUUID()): Promise<RelayClient> {
    const { timeouts } = await settings.get();
    const client = await connections.clientFor(id, {
      timeoutMs: timeouts.requestSeconds * 1000,
      idleTimeoutMs: timeouts.idleSeconds * 1000,
      onRetry: ({ attempt, delayMs, error }) => {
        log.warn('relay.retry', {
          requestId,
          attempt,
          delayMs,
          kind: error.kind,
          status: error.status,
        });
        emit('retryScheduled', {
          requestId,
          attempt,
          delayMs,
          kind: error.kind,
          message: error.message,
        });
      },
    });
    return logRequests(client, log, {
      requestId,
      connectionId: id,
      onOutcome: (outcome) => health.record(id, outcome),
    });
  }

  const models = new ModelCatalog({
    dataDir: options.userDataDir,
    active: async () => {
      const id = await connections.activeId();
      return id === undefined ? undefined : { id, client: await clientFor(id) };
    },
  });

  const db = await openDatabase({ path: databasePath(options.userDataDir) });
  const cleanups: Array<() => Promise<void> | void> = [];
  const context: AppContext = {
    version: options.version ?? '0.0.0',
    platform: options.platform ?? process.platform,
    userDataDir: options.userDataDir,
    ...(options.picturesDir ? { picturesDir: options.picturesDir } : {}),
    db,
    emit,
    connections,
    health,
    secretStore: options.secretStore,
    log,
    settings,
    models,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    dialogs,
    desktop: options.desktop ?? NO_DESKTOP,
    ...(options.startImportWorker ? { startImportWorker: options.startImportWorker } : {}),
    readDocuments: options.startDocumentWorker
      ? readDocumentsInWorker(options.startDocumentWorker)
      : readDocumentsInProcess(),
    async activeClient(requestId) {
      const id = await connections.activeId();
      if (id === undefined)
        throw new AppError('not_found', 'Connect to a relay first: no connection is set up yet.');
      return { connectionId: id, client: await clientFor(id, requestId) };
    },
    savedFiles: new Set(),
    onClose: (cleanup) => cleanups.push(cleanup),
  };

  const gallery = await openImageGallery(context);
  const handlers: Handlers<Routes> = {
    ...appHandlers(context),
    ...connectionsHandlers(context),
    ...modelsHandlers(context),
    ...settingsHandlers(context),
    ...(await chatHandlers(context)),
    ...(await embeddingsHandlers(context)),
    ...(await imagesHandlers(context, gallery)),
  };

  logMigrations(log, db, startedAt);

  return {
    handlers,
    connections,
    settings,
    models,
    db,
    gallery,
    async close() {
      for (const cleanup of cleanups.reverse()) await cleanup();
      await connections.close();
      db.close();
    },
  };
}
