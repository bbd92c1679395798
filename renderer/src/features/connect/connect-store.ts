import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { LoadStatus } from '../../lib/load-state';
import type { ConnectionHealth, ConnectionSummary, KeyStorageStatus } from '../../lib/relay-bridge';

export interface ConnectState {
  status: Exclude<LoadStatus, 'idle'>;
  connections: ConnectionSummary[];
  loadFailure?: FailureInfo | undefined;
  keyStorage?: KeyStorageStatus | undefined;
  /** How the last request to each connection went, by connection id. */
  health: Record<string, ConnectionHealth>;

  connectionsRequested(): void;
  connectionsLoaded(connections: ConnectionSummary[]): void;
  connectionsFailed(failure: FailureInfo): void;
  keyStorageLoaded(status: KeyStorageStatus): void;
  /** A connection was created, edited or switched to in main. */
  connectionSaved(connection: ConnectionSummary): void;
  connectionDeleted(id: string): void;
  healthReported(health: ConnectionHealth[]): void;
}

export const useConnectStore = create<ConnectState>()((set) => ({
  status: 'loading',
  connections: [],
  health: {},

  connectionsRequested: () =>
    set((state) => ({ status: state.status === 'failed' ? 'loading' : state.status })),
  connectionsLoaded: (connections) => set({ status: 'ready', connections, loadFailure: undefined }),
  connectionsFailed: (failure) => set({ status: 'failed', loadFailure: failure }),
  keyStorageLoaded: (keyStorage) => set({ keyStorage }),
  connectionSaved: (connection) =>
    set((state) => {
      const others = state.connections
        .filter((existing) => existing.id !== connection.id)
        .map((existing) => (connection.active ? { ...existing, active: false } : existing));
      const index = state.connections.findIndex((existing) => existing.id === connection.id);
      const connections =
        index === -1
          ? [...others, connection]
          : [...others.slice(0, index), connection, ...others.slice(index)];
      return { status: 'ready', connections };
    }),
  connectionDeleted: (id) =>
    set((state) => ({ connections: state.connections.filter((c) => c.id !== id) })),
  healthReported: (reports) =>
    set((state) => {
      const health = { ...state.health };
      for (const report of reports) {
        const known = health[report.connectionId];
        // Answers can cross: the newer outcome wins.
        if (!known || known.at <= report.at) health[report.connectionId] = report;
      }
      return { health };
    }),
}));

export const selectActiveConnection = (state: ConnectState): ConnectionSummary | undefined =>
  state.connections.find((connection) => connection.active);

/** How the last request to the connection in use went; undefined before any. */
export const selectActiveHealth = (state: ConnectState): ConnectionHealth | undefined => {
  const active = selectActiveConnection(state);
  return active ? state.health[active.id] : undefined;
};

/** Where keys go; the keychain until main has said otherwise. */
export const selectKeyBackend = (state: ConnectState): KeyStorageStatus['backend'] =>
  state.keyStorage?.backend ?? 'keychain';

export const selectHasConnections = (state: ConnectState): boolean => state.connections.length > 0;

/**
 * The key store's warning, when keys are not kept by the operating system: main's reason, or ''
 * when it gave none (the notice then says it in its own words).
 */
export const selectKeyStorageWarning = (state: ConnectState): string | undefined =>
  state.keyStorage && !state.keyStorage.secure ? (state.keyStorage.reason ?? '') : undefined;
