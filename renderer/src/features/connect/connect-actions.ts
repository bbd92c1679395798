/**
 * What the connect feature asks of main. Each call reports its outcome to the store as an event;
 * the API key passes through once, from a form field to main, and is never kept.
 */
import { failureOf } from '../../lib/errors';
import { requireBridge, type ConnectionSummary } from '../../lib/relay-bridge';
import { useConnectStore } from './connect-store';

export interface ConnectionDraft {
  name: string;
  baseUrl: string;
  consoleUrl: string;
  /** Typed by the person just now; absent or empty keeps the saved key. */
  apiKey?: string | undefined;
  /** Send the key over plain http outside the local network (main asks the person to confirm). */
  allowUnencrypted?: boolean | undefined;
  /** Extra headers; a secret one without a value keeps the saved value. */
  headers?: HeaderDraft[] | undefined;
}

export interface HeaderDraft {
  name: string;
  value?: string;
  secret: boolean;
}

export async function loadConnections(): Promise<void> {
  const store = useConnectStore.getState();
  store.connectionsRequested();
  try {
    const bridge = requireBridge();
    const [connections, keyStorage] = await Promise.all([
      bridge.listConnections(),
      bridge.getKeyStorageStatus(),
    ]);
    store.keyStorageLoaded(keyStorage);
    store.connectionsLoaded(connections);
  } catch (error) {
    store.connectionsFailed(failureOf(error));
  }
}

/**
 * Loads the list and follows changes main reports, and how each connection's last request went;
 * returns the unsubscribe.
 */
export function watchConnections(): () => void {
  void loadConnections();
  const bridge = requireBridge();
  const stops = [
    bridge.onConnectionsChanged(() => {
      void loadConnections();
    }),
    bridge.onConnectionHealthChanged((health) =>
      useConnectStore.getState().healthReported([health]),
    ),
  ];
  void bridge.getConnectionHealth().then(
    (all) => useConnectStore.getState().healthReported(all),
    () => undefined, // The dot stays grey: nothing is known yet.
  );
  return () => stops.forEach((stop) => stop());
}

export async function createConnection(draft: ConnectionDraft): Promise<ConnectionSummary> {
  const saved = await requireBridge().createConnection({
    name: draft.name.trim(),
    baseUrl: draft.baseUrl.trim(),
    ...(draft.consoleUrl.trim() ? { consoleUrl: draft.consoleUrl.trim() } : {}),
    ...(draft.apiKey ? { apiKey: draft.apiKey } : {}),
    ...(draft.allowUnencrypted !== undefined ? { allowUnencrypted: draft.allowUnencrypted } : {}),
    ...(draft.headers !== undefined ? { headers: draft.headers } : {}),
  });
  useConnectStore.getState().connectionSaved(saved);
  return saved;
}

export async function updateConnection(
  id: string,
  draft: ConnectionDraft,
): Promise<ConnectionSummary> {
  const saved = await requireBridge().updateConnection({
    id,
    changes: {
      name: draft.name.trim(),
      baseUrl: draft.baseUrl.trim(),
      consoleUrl: draft.consoleUrl.trim(),
      ...(draft.apiKey ? { apiKey: draft.apiKey } : {}),
      ...(draft.allowUnencrypted !== undefined ? { allowUnencrypted: draft.allowUnencrypted } : {}),
      ...(draft.headers !== undefined ? { headers: draft.headers } : {}),
    },
  });
  useConnectStore.getState().connectionSaved(saved);
  return saved;
}

export async function deleteConnection(id: string): Promise<void> {
  await requireBridge().deleteConnection({ id });
  useConnectStore.getState().connectionDeleted(id);
  // Main may have made another connection the active one.
  await loadConnections();
}

export async function selectConnection(id: string): Promise<void> {
  const saved = await requireBridge().selectConnection({ id });
  useConnectStore.getState().connectionSaved(saved);
}

export async function startDemoRelay(): Promise<ConnectionSummary> {
  const saved = await requireBridge().startDemoRelay();
  useConnectStore.getState().connectionSaved(saved);
  return saved;
}

export function testConnection(request: {
  baseUrl: string;
  apiKey?: string;
  id?: string;
  allowUnencrypted?: boolean;
  headers?: HeaderDraft[];
}) {
  return requireBridge().testConnection({
    baseUrl: request.baseUrl.trim(),
    ...(request.apiKey ? { apiKey: request.apiKey } : {}),
    ...(request.id ? { id: request.id } : {}),
    ...(request.allowUnencrypted ? { allowUnencrypted: true } : {}),
    ...(request.headers && request.headers.length > 0 ? { headers: request.headers } : {}),
  });
}
