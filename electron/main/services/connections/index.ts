/**
 * Opens the connections domain: the saved connections (file, key store, demo relay, relay
 * clients), how the last request to each went, and their view for the page. Called by the
 * composition root (`app-services.ts`) only.
 */
import type { Emit } from '../../../shared/ipc/contract';
import { confirmed, type Dialogs } from '../../app-context';
import type { AppLog } from '../log';
import type { FetchLike } from '../relay/relay-client';
import type { SecretStore } from '../secret-store';
import { ConnectionHealthTracker } from './connection-health';
import { ConnectionViews } from './connection-views';
import { ConnectionsService } from './connections';
import { unencryptedQuestion } from './unencrypted-question';

export interface ConnectionsDeps {
  userDataDir: string;
  /** The key store, as the log watches it (`watchSecrets`). */
  secrets: SecretStore;
  fetch?: FetchLike | undefined;
  /** A fetch no proxy setting reaches, for the demo relay on loopback; `fetch` if absent. */
  directFetch?: FetchLike | undefined;
  dialogs: Dialogs;
  emit: Emit;
  log: AppLog;
}

export interface Connections {
  service: ConnectionsService;
  health: ConnectionHealthTracker;
  views: ConnectionViews;
}

export function openConnections(deps: ConnectionsDeps): Connections {
  const service = new ConnectionsService({
    dataDir: deps.userDataDir,
    secrets: deps.secrets,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.directFetch ? { directFetch: deps.directFetch } : {}),
    confirmUnencrypted: (origin) => confirmed(deps.dialogs, unencryptedQuestion(origin)),
  });
  const health = new ConnectionHealthTracker(deps.emit);
  const views = new ConnectionViews(service, health, deps.emit, deps.log);
  return { service, health, views };
}
