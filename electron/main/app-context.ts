/**
 * What every feature's handlers and services may use: the shell's services, the database, a
 * relay client for the active connection, events to the page, and the platform's dialogs.
 */
import type { Emit } from '../shared/ipc/contract';
import type { Locale } from '../shared/locales';
import type { ReadDocuments } from './services/documents/read-documents';
import type { StartImportWorker } from './services/chat/import-reader';
import type { Db } from './services/database';
import type { ConnectionsService } from './services/connections/connections';
import type { FileGrants } from './services/files/file-grants';
import type { FileOpener } from './services/files/file-opener';
import type { AppLog } from './services/log';
import type { McpService } from './services/mcp/mcp-service';
import type { ModelCatalog } from './services/models/model-catalog';
import type { FetchLike, RelayClient } from './services/relay/relay-client';
import type { SecretStore } from './services/secret-store';
import type { SettingsService } from './services/settings/settings';

export interface FileFilter {
  name: string;
  extensions: string[];
}

/** A question for the person, with a choice between going ahead and cancelling. */
export interface ConfirmOptions {
  title: string;
  /** The question, in one sentence. */
  message: string;
  /** What going ahead means, in full. */
  detail: string;
  /** The button that goes ahead; the other one cancels and is the default. */
  confirmLabel: string;
}

/** The system's dialogs; Electron's `dialog` in the app, a scripted fake in tests. */
export interface Dialogs {
  /** The path the person chose to save to, or undefined if they cancelled. */
  chooseSavePath(options: {
    title: string;
    defaultName: string;
    filters?: FileFilter[];
  }): Promise<string | undefined>;
  /** The files the person chose to open, or an empty list if they cancelled. */
  chooseOpenPaths(options: {
    title: string;
    filters?: FileFilter[];
    multiple?: boolean;
  }): Promise<string[]>;
  /** The folder the person chose, or undefined if they cancelled; absent where there is none. */
  chooseFolder?(options: { title: string; defaultPath?: string }): Promise<string | undefined>;
  /**
   * Asks the person, in a window of main's own that the page cannot answer for them; resolves
   * true only when they chose to go ahead. Absent where no one can be asked: counts as cancelled.
   */
  confirm?(options: ConfirmOptions): Promise<boolean>;
}

/** The person's answer to `question` in main's own dialog: yes only if they said so. */
export async function confirmed(
  dialogs: Pick<Dialogs, 'confirm'> | undefined,
  question: ConfirmOptions,
): Promise<boolean> {
  return (await dialogs?.confirm?.(question)) ?? false;
}

/** The operating system's file manager and trash; Electron's `shell` in the app. */
export interface DesktopShell {
  showInFolder(path: string): void;
  /**
   * Opens a file in the system's app for its type; resolves to the system's error text, or ''
   * when it opened. Absent where there is no desktop. Called by the guarded opener only
   * (`services/files/file-opener.ts`), never directly.
   */
  openPath?(path: string): Promise<string>;
  moveToTrash(path: string): Promise<void>;
  /** Puts the image file on the clipboard as an image; absent where there is no clipboard. */
  copyImage?(path: string): Promise<void>;
  /** Puts text on the clipboard; absent where there is no clipboard. */
  copyText?(text: string): void;
  /** Starts dragging the file out of the window that sent the request; absent in tests. */
  startDrag?(path: string, webContentsId: number): void;
}

export interface AppContext {
  /** The app's version and the platform it runs on. */
  version: string;
  platform: string;
  /** The app's language that fits the system's preferred languages, resolved at start. */
  systemLocale: Locale;
  userDataDir: string;
  /** The person's Pictures folder, where the image gallery lives by default. */
  picturesDir?: string;
  db: Db;
  /** Sends an event of the contract to the page, by its name. */
  emit: Emit;
  connections: ConnectionsService;
  /** Where keys are kept (its status is shown; the key itself never leaves main). */
  secretStore: SecretStore;
  /** The support log. */
  log: AppLog;
  settings: SettingsService;
  models: ModelCatalog;
  fetch?: FetchLike;
  dialogs: Dialogs;
  desktop: DesktopShell;
  /** The one way to open a file in the system's app for its type (never a type that runs). */
  files: FileOpener;
  /** Starts the worker thread chat imports are read in; without it they are read on main. */
  startImportWorker?: StartImportWorker;
  /** The sample documents of the demo knowledge base (`resources/knowledge-samples`). */
  knowledgeSamplesDir?: string;
  /** Reads files the person gave (attachments, knowledge-base files) for their text. */
  readDocuments: ReadDocuments;
  /** A client for the active connection, with the person's timeouts; retries are reported as events. */
  activeClient(requestId?: string): Promise<{ connectionId: string; client: RelayClient }>;
  /** A client for a saved connection (a knowledge base embeds through its own), like `activeClient`. */
  clientFor(connectionId: string, requestId?: string): Promise<RelayClient>;
  /**
   * Files saved for the person in this session (exports, image copies), by the id the save's
   * answer gave the page (`handlers/saved-files.ts`): the only files the page may ask to show in
   * the file manager, by that id.
   */
  savedFiles: Map<string, string>;
  /** The grants for files the person dropped on the page (`services/files/file-grants.ts`). */
  grants: FileGrants;
  /** Work to run when the app closes (stop streams, flush writes). */
  onClose(cleanup: () => Promise<void> | void): void;
  /**
   * MCP servers and their tools (the chat's tool loop offers and calls them); set once the
   * session's services are built.
   */
  mcp?: McpService;
}
