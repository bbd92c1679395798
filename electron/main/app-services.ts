/**
 * Builds the app's services and the handler of every IPC route from platform pieces.
 *
 * `index.ts` calls it with the OS keychain, `net.fetch` and `app.getPath('userData')`; the e2e
 * harness calls it with a temp folder, Node's fetch and an in-memory or real keychain. Handlers
 * stay a few lines: the logic lives in the services.
 */
import { randomUUID } from 'node:crypto';
import type { Routes } from '../shared/ipc/contract';
import { join } from 'node:path';
import type { AppContext, ConfirmOptions, DesktopShell, Dialogs } from './app-context';
import {
  readDocumentsInProcess,
  readDocumentsInWorker,
  type StartDocumentWorker,
} from './services/documents/read-documents';
import type { StartImportWorker } from './services/chat/import-reader';
import { chatHandlers } from './ipc/handlers/chat';
import { desktopHandlers, openDesktop } from './ipc/handlers/desktop';
import { embeddingsHandlers } from './ipc/handlers/embeddings';
import { imagesHandlers, openImageGallery } from './ipc/handlers/images';
import { networkHandlers } from './ipc/handlers/network';
import { openQuickAsk, quickAskHandlers, type AppWindows } from './ipc/handlers/quick-ask';
import { updatesHandlers } from './ipc/handlers/updates';
import { HandlerError, type Handlers } from './ipc/router';
import {
  ConnectionError,
  ConnectionsService,
  type ConnectionSummary,
} from './services/connections';
import { databasePath, openDatabase, type Db } from './services/database';
import type { DesktopIntegration, DesktopService } from './services/desktop/desktop-service';
import type { ImageGallery } from './services/images/gallery';
import {
  createNullLog,
  logConnectionTest,
  logMigrations,
  logRequests,
  watchSecrets,
  type AppLog,
} from './services/log';
import { ModelCatalog } from './services/model-catalog';
import { NetworkService, type ProxyStack } from './services/network/network-service';
import type { ClipboardText, QuickAskService } from './services/quick-ask/quick-ask-service';
import type { FetchLike, RelayClient } from './services/relay-client';
import {
  PLAINTEXT_KEYS_FILE,
  stopKeepingKeysInFile,
  type SecretStore,
} from './services/secret-store';
import { SettingsService } from './services/settings';
import { UpdateService, type Updater } from './services/updates/update-service';

export interface AppServicesOptions {
  userDataDir: string;
  /** The person's Pictures folder (the gallery's default home); the user data folder if absent. */
  picturesDir?: string;
  secretStore: SecretStore;
  fetch?: FetchLike;
  /** Sends an event of the contract to the renderer. */
  emit?: (channel: string, payload: unknown) => void;
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
  /**
   * A fetch no proxy setting reaches, for the embedded demo relay on loopback (Node's own in the
   * app); `fetch` if absent.
   */
  directFetch?: FetchLike;
  /** Where the proxy is applied (Electron's sessions in the app); without it, it is only saved. */
  proxyStack?: ProxyStack;
  /** The app's own updater; without it the app says it does not update itself, and why. */
  updater?: Updater;
  updatesUnsupported?: string;
  /** The quick ask shortcut, the tray and the login items; without it they are only saved. */
  desktopIntegration?: DesktopIntegration;
  /** The main and quick ask windows, for the quick window's routes. */
  windows?: AppWindows;
  /** Reads the clipboard (the selection on Linux) for quick ask's context. */
  readClipboard?: () => Promise<ClipboardText | undefined>;
}

export interface AppServices {
  handlers: Handlers<Routes>;
  connections: ConnectionsService;
  settings: SettingsService;
  models: ModelCatalog;
  db: Db;
  /** The image gallery: the app protocol serves its files from `/gallery/<hash>.<ext>`. */
  gallery: ImageGallery;
  quickAsk: QuickAskService;
  desktop: DesktopService;
  updates: UpdateService;
  network: NetworkService;
  close(): Promise<void>;
}

const NO_DIALOGS: Dialogs = {
  chooseSavePath: async () => undefined,
  chooseOpenPaths: async () => [],
};

const NO_DESKTOP: DesktopShell = {
  showInFolder: () => undefined,
  moveToTrash: async () => {
    throw new HandlerError('internal', 'Moving files to the trash is not available here.');
  },
};

/** What the person agrees to when they choose to keep keys in a file. */
function keyFileQuestion(userDataDir: string): ConfirmOptions {
  const path = join(userDataDir, PLAINTEXT_KEYS_FILE);
  return {
    title: 'Keep keys in a file',
    message: 'Keep your API keys in a file that is not encrypted?',
    detail: `From the next start, your API keys will be saved in ${path}. The file is readable only by your user account, but it is not encrypted: any program running as you can read it. Turning this off deletes the file at once.`,
    confirmLabel: 'Keep keys in a file',
  };
}

function unencryptedQuestion(origin: string): ConfirmOptions {
  return {
    title: 'Send your key unencrypted',
    message: `Send your API key to ${origin} without encryption?`,
    detail: `${origin} uses plain http. Your API key, and every prompt and reply, would cross the network readable by anyone on the way (a shared Wi-Fi, a proxy, your provider). Choose this only for a relay you reach over a network you trust; an https address is always safer.`,
    confirmLabel: 'Send unencrypted',
  };
}

/** Turns a refusal of the connections service into an error the router passes on as it is. */
function asHandlerError(error: unknown): never {
  if (error instanceof ConnectionError) {
    const first = error.issues[0];
    const kind =
      error.kind === 'invalid'
        ? 'invalid_request'
        : error.kind === 'not_found'
          ? 'not_found'
          : 'internal';
    const handlerError = new HandlerError(
      kind,
      first && error.issues.length === 1 ? first.message : error.message,
    );
    throw handlerError;
  }
  throw error;
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    return asHandlerError(error);
  }
}

export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  const emit = options.emit ?? (() => undefined);
  const log = options.log ?? createNullLog();
  const startedAt = new Date();
  const dialogs = options.dialogs ?? NO_DIALOGS;
  const connections = new ConnectionsService({
    dataDir: options.userDataDir,
    secrets: watchSecrets(options.secretStore, log),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.directFetch ? { directFetch: options.directFetch } : {}),
    confirmUnencrypted: async (origin) =>
      (await dialogs.confirm?.(unencryptedQuestion(origin))) ?? false,
  });
  const settings = new SettingsService(options.userDataDir);
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
        emit('relay:retry-scheduled', {
          requestId,
          attempt,
          delayMs,
          kind: error.kind,
          message: error.message,
        });
      },
    });
    return logRequests(client, log, { requestId, connectionId: id });
  }

  const models = new ModelCatalog({
    dataDir: options.userDataDir,
    active: async () => {
      const id = await connections.activeId();
      return id === undefined ? undefined : { id, client: await clientFor(id) };
    },
  });

  async function withActive(summary: ConnectionSummary) {
    const activeId = await connections.activeId();
    return { ...summary, isDemo: summary.isDemo ?? false, active: summary.id === activeId };
  }

  function changed<T>(value: T): T {
    emit('connections:changed', null);
    return value;
  }

  const db = await openDatabase({ path: databasePath(options.userDataDir) });
  const cleanups: Array<() => Promise<void> | void> = [];
  const context: AppContext = {
    userDataDir: options.userDataDir,
    ...(options.picturesDir ? { picturesDir: options.picturesDir } : {}),
    db,
    emit,
    connections,
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
        throw new HandlerError(
          'not_found',
          'Connect to a relay first: no connection is set up yet.',
        );
      return { connectionId: id, client: await clientFor(id, requestId) };
    },
    onClose: (cleanup) => cleanups.push(cleanup),
  };

  const gallery = await openImageGallery(context);
  const network = new NetworkService(options.proxyStack);
  await network.apply((await settings.get()).proxy).catch((error: unknown) => {
    log.error('network.proxy-not-applied', error);
  });
  const quickAsk = openQuickAsk(context, options.readClipboard);
  const platform = options.platform ?? process.platform;
  const desktop = openDesktop(context, platform, options.desktopIntegration, (event, fields) =>
    log.info(event, fields),
  );
  const updates = new UpdateService({
    currentVersion: options.version ?? '0.0.0',
    ...(options.updater ? { updater: options.updater } : {}),
    ...(options.updatesUnsupported ? { unsupportedReason: options.updatesUnsupported } : {}),
    settings: async () => (await settings.get()).updates,
    emit: (status) => emit('updates:status-changed', status),
    log: (event, fields) => log.info(event, fields),
  });
  context.onClose(() => updates.close());
  const handlers: Handlers<Routes> = {
    ...(await chatHandlers(context)),
    ...(await embeddingsHandlers(context)),
    ...(await imagesHandlers(context, gallery)),
    ...quickAskHandlers(context, quickAsk, options.windows),
    ...desktopHandlers(desktop),
    ...updatesHandlers(context, updates),
    ...networkHandlers(context, network),

    getAppInfo: () => ({
      version: options.version ?? '0.0.0',
      platform: options.platform ?? process.platform,
    }),
    copyText: ({ text }) => {
      const { copyText } = context.desktop;
      if (!copyText) throw new HandlerError('internal', 'Copying is not available here.');
      copyText(text);
      return null;
    },

    listConnections: () =>
      guarded(async () => {
        const activeId = await connections.activeId();
        return (await connections.list()).map((c) => ({
          ...c,
          isDemo: c.isDemo ?? false,
          active: c.id === activeId,
        }));
      }),
    createConnection: (draft) =>
      guarded(async () => changed(await withActive(await connections.create(draft)))),
    updateConnection: ({ id, changes }) =>
      guarded(async () => changed(await withActive(await connections.update(id, changes)))),
    deleteConnection: ({ id }) =>
      guarded(async () => {
        await connections.delete(id);
        await models.forget(id);
        return changed(null);
      }),
    selectConnection: ({ id }) =>
      guarded(async () => {
        await connections.select(id);
        return changed(await withActive(await connections.get(id)));
      }),
    testConnection: (draft) =>
      guarded(() => logConnectionTest(log, draft, () => connections.test(draft))),
    startDemoRelay: () =>
      guarded(async () => changed(await withActive(await connections.startDemo()))),
    getKeyStorageStatus: () => {
      const { secure, persistent, backend, reason } = options.secretStore.status;
      return reason === undefined
        ? { secure, persistent, backend }
        : { secure, persistent, backend, reason };
    },

    listModels: (request) =>
      guarded(async () => {
        const listing = await models.list({ refresh: request?.refresh ?? false });
        if (listing === undefined)
          throw new HandlerError(
            'not_found',
            'Connect to a relay first: no connection is set up yet.',
          );
        return listing;
      }),
    setModelKind: ({ modelId, kind }) =>
      guarded(async () => (await models.setKind(modelId, kind), null)),
    setLastModel: ({ feature, modelId }) =>
      guarded(async () => (await models.setLastModel(feature, modelId), null)),

    getSettings: () => settings.get(),
    updateSettings: async (changes) => {
      const before = await settings.get();
      if (changes.allowPlaintextKeys === true && !before.allowPlaintextKeys) {
        // Asked by main, in a dialog of its own: a script in the page cannot agree for the person.
        const agreed = (await dialogs.confirm?.(keyFileQuestion(options.userDataDir))) ?? false;
        if (!agreed) {
          const { allowPlaintextKeys: _declined, ...rest } = changes;
          changes = rest;
        }
      }
      const after = await settings.update(changes);
      if (before.allowPlaintextKeys && !after.allowPlaintextKeys)
        await stopKeepingKeysInFile(options.userDataDir, options.secretStore);
      return after;
    },
  };

  logMigrations(log, db, startedAt);

  return {
    handlers,
    connections,
    settings,
    models,
    db,
    gallery,
    quickAsk,
    desktop,
    updates,
    network,
    async close() {
      for (const cleanup of cleanups.reverse()) await cleanup();
      await connections.close();
      db.close();
    },
  };
}
