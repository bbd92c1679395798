/**
 * Builds the app's services and the handler of every IPC route from platform pieces.
 *
 * `index.ts` calls it with the OS keychain, `net.fetch` and `app.getPath('userData')`; the e2e
 * harness calls it with a temp folder, Node's fetch and an in-memory or real keychain. Wiring
 * only: the shell's services and the context every domain gets, then each domain's handlers
 * (`ipc/handlers/<domain>.ts`), whose logic lives in its services.
 */
import { randomUUID } from 'node:crypto';
import type { Locale } from '../shared/locales';
import { emitEvents, ROUTES, type Routes } from '../shared/ipc/contract';
import type { SendEvent } from '../shared/ipc/define';
import type { PreloadRoutes } from '../shared/ipc/file-grants';
import { BACKUPS_ROUTES } from '../shared/ipc/routes/backups';
import type { AppContext, DesktopShell, Dialogs } from './app-context';
import { AppSession } from './app-session';
import {
  readDocumentsInProcess,
  readDocumentsInWorker,
  type StartDocumentWorker,
} from './services/documents/read-documents';
import type { StartImportWorker } from './services/chat/import-reader';
import { appHandlers } from './ipc/handlers/app';
import { backupsHandlers } from './ipc/handlers/backups';
import { chatHandlers } from './ipc/handlers/chat';
import { connectionsHandlers } from './ipc/handlers/connections';
import { desktopHandlers } from './ipc/handlers/desktop';
import { openDesktop } from './services/desktop';
import { embeddingsHandlers } from './ipc/handlers/embeddings';
import { openEmbeddings } from './services/embeddings';
import { imagesHandlers } from './ipc/handlers/images';
import { openImageGallery, openImages } from './services/images';
import { knowledgeHandlers } from './ipc/handlers/knowledge';
import { openKnowledge } from './services/knowledge';
import type { KnowledgeService } from './services/knowledge/knowledge-service';
import { modelsHandlers } from './ipc/handlers/models';
import { networkHandlers } from './ipc/handlers/network';
import { promptsHandlers } from './ipc/handlers/prompts';
import { openPrompts } from './services/prompts';
import { quickAskHandlers } from './ipc/handlers/quick-ask';
import { openQuickAsk, type AppWindows } from './services/quick-ask';
import { settingsHandlers } from './ipc/handlers/settings';
import { syncHandlers } from './ipc/handlers/sync';
import { toolsHandlers } from './ipc/handlers/tools';
import { updatesHandlers } from './ipc/handlers/updates';
import type { Handlers } from './ipc/router';
import { AppError } from './services/app-error';
import { BackupsService, type BackupsServiceOptions } from './services/backups/backups-service';
import { completePendingRestore } from './services/backups/restore-files';
import { openChat } from './services/chat';
import { CHAT_MIGRATIONS } from './services/chat/migrations';
import { openConnections } from './services/connections';
import type { ConnectionsService } from './services/connections/connections';
import { databasePath, openDatabase, type Db, type Migration } from './services/database';
import type { DesktopIntegration, DesktopService } from './services/desktop/desktop-service';
import { EMBEDDINGS_MIGRATIONS } from './services/embeddings/run-store';
import { FileGrants } from './services/files/file-grants';
import { FileOpener } from './services/files/file-opener';
import { IMAGE_MIGRATIONS, type ImageGallery } from './services/images/gallery';
import {
  createNullLog,
  logMigrations,
  logRequests,
  watchSecrets,
  type AppLog,
} from './services/log';
import { KNOWLEDGE_MIGRATIONS } from './services/knowledge/migrations';
import type { RetrievalRecords } from './services/chat/transfer';
import type { KnowledgeRetrieval, ReplyRetrieval } from './services/knowledge/retrieval';
import { openMcp } from './services/mcp';
import type { McpService } from './services/mcp/mcp-service';
import type { ProcessHost } from './services/mcp/processes';
import { openModels } from './services/models';
import type { ModelCatalog } from './services/models/model-catalog';
import { openNetwork } from './services/network';
import type { NetworkService, ProxyStack } from './services/network/network-service';
import { PROMPTS_MIGRATIONS } from './services/prompts/migrations';
import type { ClipboardText, QuickAskService } from './services/quick-ask/quick-ask-service';
import type { FetchLike, RelayClient } from './services/relay/relay-client';
import type { SecretStore } from './services/secret-store';
import { openSettings } from './services/settings';
import { keepRestoredSettingsSafe } from './services/settings/restored-settings';
import type { SettingsService } from './services/settings/settings';
import { openSync } from './services/sync';
import { syncConfigured, type SyncService, type SyncTiming } from './services/sync/sync-service';
import type { ScryptCost } from './services/sync/sync-crypto';
import { SYNC_MIGRATIONS } from './services/sync/sync-tables';
import { inMainLanguage, said, type Said } from './services/words';
import { openUpdates } from './services/updates';
import type { UpdateService, Updater } from './services/updates/update-service';

export interface AppServicesOptions {
  userDataDir: string;
  /** The demo knowledge base's sample documents; without it, that offer says they are missing. */
  knowledgeSamplesDir?: string;
  /** The person's Pictures folder (the gallery's default home); the user data folder if absent. */
  picturesDir?: string;
  secretStore: SecretStore;
  fetch?: FetchLike;
  /** Sends an event's payload on its channel to the renderer (`webContents.send` in the app). */
  emit?: SendEvent;
  platform?: string;
  version?: string;
  /** The system's language as the app speaks it (`resolveLocale` of Electron's); English if absent. */
  systemLocale?: Locale;
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
  /** Reloads the page after a restore (the window's `webContents.reload()` in the app). */
  reloadWindow?: () => void;
  /**
   * Called once a restore has opened the services again on the restored data, so what lives
   * outside them (index.ts's tray, shortcut and settings listeners) can follow the new ones.
   */
  onReopened?: () => void;
  /** The backups' clock, file system and copy step, for tests; the real ones by default. */
  backupSeams?: Pick<BackupsServiceOptions, 'clock' | 'fs' | 'copy' | 'computerName'> | undefined;
  /**
   * A fetch no proxy setting reaches, for the embedded demo relay on loopback (Node's own in the
   * app); `fetch` if absent.
   */
  directFetch?: FetchLike;
  /** Where the proxy is applied (Electron's sessions in the app); without it, it is only saved. */
  proxyStack?: ProxyStack;
  /** The app's own updater; without it the app says it does not update itself, and why. */
  updater?: Updater;
  updatesUnsupported?: Said;
  /** The quick ask shortcut, the tray and the login items; without it they are only saved. */
  desktopIntegration?: DesktopIntegration;
  /** The main and quick ask windows, for the quick window's routes. */
  windows?: AppWindows;
  /** Reads the clipboard (the selection on Linux) for quick ask's context. */
  readClipboard?: () => Promise<ClipboardText | undefined>;
  /** Where MCP servers' processes start and end; the machine's own (child_process) if absent. */
  processHost?: ProcessHost;
  /** Sync's background timing and a new storage's key cost, for tests; the real ones by default. */
  syncSeams?: { timing?: Partial<SyncTiming>; scryptCost?: ScryptCost; deviceLabel?: string };
}

/** The routes of the services over the user data folder: all but backups, which reopen them. */
type SessionRoutes = Omit<Routes, keyof typeof BACKUPS_ROUTES>;

interface SessionServices {
  handlers: Handlers<SessionRoutes>;
  mcp: McpService;
  connections: ConnectionsService;
  settings: SettingsService;
  models: ModelCatalog;
  db: Db;
  gallery: ImageGallery;
  quickAsk: QuickAskService;
  desktop: DesktopService;
  updates: UpdateService;
  network: NetworkService;
  sync: SyncService;
  close(): Promise<void>;
}

/** The newest schema version of each domain: a backup with a later one was made by a newer app. */
export const KNOWN_SCHEMA: Record<string, number> = Object.fromEntries(
  Object.entries({
    chat: CHAT_MIGRATIONS,
    embeddings: EMBEDDINGS_MIGRATIONS,
    images: IMAGE_MIGRATIONS,
    knowledge: KNOWLEDGE_MIGRATIONS,
    prompts: PROMPTS_MIGRATIONS,
    sync: SYNC_MIGRATIONS,
  } satisfies Record<string, readonly Migration[]>).map(([domain, migrations]) => [
    domain,
    Math.max(0, ...migrations.map((m) => m.version)),
  ]),
);

export interface AppServices {
  handlers: Handlers<Routes>;
  /**
   * The handlers of the preload's own channel (`shared/ipc/file-grants.ts`): grants for the files
   * of a drop. Registered beside the routes, never part of the page's bridge.
   */
  preloadHandlers: Handlers<PreloadRoutes>;
  backups: BackupsService;
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
  /** MCP servers: the chat's tool loop offers and calls their tools. */
  mcp: McpService;
  /** Sync through the person's own storage, and its background job. */
  sync: SyncService;
  close(): Promise<void>;
}

const NO_DIALOGS: Dialogs = {
  chooseSavePath: async () => undefined,
  chooseOpenPaths: async () => [],
};

const NO_DESKTOP: DesktopShell = {
  showInFolder: () => undefined,
  moveToTrash: async () => {
    throw new AppError('internal', said('app.trashUnavailable'));
  },
};

/**
 * The app's services. Those over the user data folder live in an `AppSession` a restore closes
 * and opens again; their routes reach them through it, so the router (made once, in the app and
 * in tests) never holds a closed service. Backups sit outside it and drive it.
 */
export async function createAppServices(options: AppServicesOptions): Promise<AppServices> {
  // A restore cut short by a crash is finished before anything opens the data.
  await completePendingRestore(options.userDataDir);
  // Grants outlive a restore's reopening (a drop handed over just before it stays good).
  const grants = new FileGrants();
  const session = await AppSession.start(() => openServices(options, grants));
  const emit = emitEvents(options.emit ?? (() => undefined));
  const backups = new BackupsService({
    userDataDir: options.userDataDir,
    appVersion: options.version ?? '0.0.0',
    knownSchema: KNOWN_SCHEMA,
    live: () => {
      const { db, connections } = session.current;
      return { db, connections: () => connections.list() };
    },
    reopen: async (swap) => {
      const before = await session.current.settings.get();
      await session.reopen(async () => {
        await swap();
        await keepRestoredSettingsSafe(options, before);
      });
      options.onReopened?.();
    },
    emit,
    ...options.backupSeams,
  });
  backups.start();

  const delegated = Object.fromEntries(
    Object.keys(ROUTES)
      .filter((name) => !(name in BACKUPS_ROUTES))
      .map((name) => [
        name,
        (request: unknown, sender: unknown) =>
          session.use((services) =>
            (services.handlers as Record<string, (r: unknown, s: unknown) => unknown>)[name]?.(
              request,
              sender,
            ),
          ),
      ]),
  ) as unknown as Handlers<SessionRoutes>;

  const preloadHandlers: Handlers<PreloadRoutes> = {
    grantDroppedFiles: ({ purpose, paths }, sender) => ({
      grants: grants.issue(paths, { webContentsId: sender.webContentsId, purpose }),
    }),
  };
  const live = liveFields(() => session.current, SESSION_FIELDS);
  return Object.assign(live, {
    handlers: {
      ...delegated,
      ...backupsHandlers({
        backups,
        dialogs: options.dialogs ?? NO_DIALOGS,
        desktop: options.desktop ?? NO_DESKTOP,
        ...(options.reloadWindow ? { reloadWindow: options.reloadWindow } : {}),
      }),
    },
    preloadHandlers,
    backups,
    async close() {
      // First: a backup due at quit needs the services still open.
      await backups.close();
      await session.close();
    },
  });
}

/** The session's services the shell and tests reach by name (each read from the open session). */
const SESSION_FIELDS = [
  'connections',
  'settings',
  'models',
  'db',
  'gallery',
  'quickAsk',
  'desktop',
  'updates',
  'network',
  'mcp',
  'sync',
] as const satisfies ReadonlyArray<keyof SessionServices>;

/**
 * An object whose fields are read from `source()` each time, so a holder never keeps a service
 * a restore has closed.
 */
function liveFields<T extends object, K extends keyof T>(
  source: () => T,
  keys: readonly K[],
): Pick<T, K> {
  const view = {};
  for (const key of keys) {
    Object.defineProperty(view, key, { get: () => source()[key], enumerable: true });
  }
  return view as Pick<T, K>;
}

/** Opens the services over the user data folder: connections, settings, models and the database. */
async function openServices(
  options: AppServicesOptions,
  grants: FileGrants,
): Promise<SessionServices> {
  const emit = emitEvents(options.emit ?? (() => undefined));
  const log = options.log ?? createNullLog();
  const startedAt = new Date();
  const dialogs = options.dialogs ?? NO_DIALOGS;
  const opened = openConnections({
    userDataDir: options.userDataDir,
    secrets: watchSecrets(options.secretStore, log),
    fetch: options.fetch,
    directFetch: options.directFetch,
    dialogs,
    emit,
    log,
  });
  const { service: connections, health } = opened;
  const systemLocale = options.systemLocale ?? 'en';
  const base = { userDataDir: options.userDataDir, secretStore: options.secretStore, dialogs };
  const settingsDomain = await openSettings({ ...base, systemLocale, emit, log });
  const settings = settingsDomain.service;

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
          // Shown at once and not kept: in the person's language now.
          message: inMainLanguage(error),
        });
      },
    });
    return logRequests(client, log, {
      requestId,
      connectionId: id,
      onOutcome: (outcome) => health.record(id, outcome),
    });
  }

  const models = openModels({ ...base, connections, clientFor: (id) => clientFor(id) });
  opened.views.onDelete((id) => models.forget(id));

  const db = await openDatabase({ path: databasePath(options.userDataDir) });
  const cleanups: Array<() => Promise<void> | void> = [];
  const desktopShell = options.desktop ?? NO_DESKTOP;
  const files = new FileOpener(desktopShell, options.userDataDir);
  cleanups.push(() => files.close());
  const context: AppContext = {
    version: options.version ?? '0.0.0',
    platform: options.platform ?? process.platform,
    systemLocale: options.systemLocale ?? 'en',
    userDataDir: options.userDataDir,
    ...(options.picturesDir ? { picturesDir: options.picturesDir } : {}),
    db,
    emit,
    connections,
    secretStore: options.secretStore,
    log,
    settings,
    models,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    dialogs,
    desktop: desktopShell,
    files,
    ...(options.knowledgeSamplesDir ? { knowledgeSamplesDir: options.knowledgeSamplesDir } : {}),
    ...(options.startImportWorker ? { startImportWorker: options.startImportWorker } : {}),
    readDocuments: options.startDocumentWorker
      ? readDocumentsInWorker(options.startDocumentWorker)
      : readDocumentsInProcess(),
    async activeClient(requestId) {
      const id = await connections.activeId();
      if (id === undefined) throw new AppError('not_found', said('app.connectFirst'));
      return { connectionId: id, client: await clientFor(id, requestId) };
    },
    clientFor: (id, requestId) => clientFor(id, requestId),
    savedFiles: new Map(),
    grants,
    onClose: (cleanup) => cleanups.push(cleanup),
  };

  const mcp = openMcp({ ...context, processHost: options.processHost });
  context.mcp = mcp;

  const gallery = await openImageGallery(context);
  const network = await openNetwork({ ...context, stack: options.proxyStack });
  const desktop = openDesktop({ ...context, integration: options.desktopIntegration });
  const updates = openUpdates({
    ...context,
    updater: options.updater,
    unsupportedReason: options.updatesUnsupported,
  });
  // Chat asks the knowledge bases before each reply; their tables open after chat's own.
  let knowledgeRetrieval: KnowledgeRetrieval | undefined = undefined;
  const retrieval: ReplyRetrieval = {
    prepare: async (conversationId, question) =>
      knowledgeRetrieval?.prepare(conversationId, question),
    recorded: (replyId) => knowledgeRetrieval?.recorded(replyId),
  };
  // Exports and imports carry the replies' retrieval records, which the knowledge tables keep.
  const records: RetrievalRecords = {
    read: (messageIds) => knowledgeRetrieval?.read(messageIds) ?? new Map(),
    write: (messageId, conversationId, kept) => {
      if (knowledgeRetrieval === undefined)
        throw new Error('The knowledge tables are not open yet.');
      knowledgeRetrieval.write(messageId, conversationId, kept);
    },
    discard: (conversationIds) => knowledgeRetrieval?.discard(conversationIds),
  };
  // With sync set up, a deleted conversation stays in a restorable trash for 30 days (another
  // computer may still answer in it); without, it goes at the next start.
  const syncOn = await syncConfigured(options.userDataDir);
  const chat = await openChat({
    ...context,
    retrieval,
    records,
    trashDays: syncOn ? 30 : 0,
  });
  const quickAsk = openQuickAsk({
    ...context,
    store: chat.store,
    readClipboard: options.readClipboard,
    windows: options.windows,
  });
  const prompts = await openPrompts(context);
  // The knowledge bases open after sync (their handlers come with the others below).
  let knowledgeOpened: (service: KnowledgeService) => void = () => undefined;
  const knowledgeService = new Promise<KnowledgeService>((resolve) => (knowledgeOpened = resolve));
  // After chat and prompts: their tables are sync's sources.
  const sync = await openSync({
    ...context,
    knowledge: knowledgeService,
    seams: options.syncSeams,
  });
  const embeddings = await openEmbeddings(context);
  const images = openImages(context, gallery);
  const knowledge = await openKnowledge(context);
  knowledgeRetrieval = knowledge.retrieval;
  knowledgeOpened(knowledge.service);
  const handlers: Handlers<SessionRoutes> = {
    ...appHandlers(context),
    ...connectionsHandlers(opened.views),
    ...modelsHandlers(models),
    ...settingsHandlers(settingsDomain),
    ...chatHandlers(chat, context),
    ...embeddingsHandlers(embeddings, context),
    ...imagesHandlers(images, gallery, context),
    ...quickAskHandlers(quickAsk),
    ...desktopHandlers(desktop),
    ...updatesHandlers(updates),
    ...networkHandlers(network),
    ...promptsHandlers(prompts, context),
    ...knowledgeHandlers(knowledge, context),
    ...toolsHandlers(mcp),
    ...syncHandlers(sync),
  };

  logMigrations(log, db, startedAt);

  return {
    handlers,
    mcp,
    connections,
    settings,
    models,
    db,
    gallery,
    quickAsk: quickAsk.service,
    desktop,
    updates,
    network,
    sync,
    async close() {
      for (const cleanup of cleanups.reverse()) await cleanup();
      await connections.close();
      db.close();
    },
  };
}
