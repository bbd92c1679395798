/**
 * What the chat's model picker shows beyond the connection in use: the chat models of every other
 * saved connection (listed when the picker opens), and the models chosen recently, kept across
 * starts in local storage (a choice of the person's, like "Enter sends").
 */
import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { RelayModel } from '../../lib/relay-bridge';
import type { ModelConnection } from './chat-store';

export interface ConnectionModels {
  connection: ModelConnection;
  status: 'loading' | 'ready' | 'failed';
  models: RelayModel[];
  failure?: FailureInfo | undefined;
}

/** A model chosen or sent to lately, and the connection it is on. */
export interface RecentModel {
  connectionId: string;
  model: string;
}

/** How many recent models the picker puts first. */
export const RECENT_MODELS = 5;
const RECENT_KEY = 'relay.chat.recentModels';

interface ModelChoiceState {
  /** The other saved connections (not the one in use), each with its chat models. */
  others: ConnectionModels[];
  /** Most recent first. */
  recent: RecentModel[];
  othersRequested(connections: ModelConnection[]): void;
  othersLoaded(connectionId: string, models: RelayModel[]): void;
  othersFailed(connectionId: string, failure: FailureInfo): void;
  modelUsed(used: RecentModel): void;
}

export const useModelChoiceStore = create<ModelChoiceState>()((set) => ({
  others: [],
  recent: readRecent(),
  othersRequested: (connections) =>
    set((state) => ({
      // What was listed before stays shown while it is listed again.
      others: connections.map(
        (connection) =>
          state.others.find((o) => o.connection.id === connection.id && o.status === 'ready') ?? {
            connection,
            status: 'loading',
            models: [],
          },
      ),
    })),
  othersLoaded: (connectionId, models) =>
    set((state) => ({
      others: state.others.map((o) =>
        o.connection.id === connectionId
          ? { ...o, status: 'ready', models, failure: undefined }
          : o,
      ),
    })),
  othersFailed: (connectionId, failure) =>
    set((state) => ({
      others: state.others.map((o) =>
        o.connection.id === connectionId && o.status !== 'ready'
          ? { ...o, status: 'failed', failure }
          : o,
      ),
    })),
  modelUsed: (used) =>
    set((state) => {
      const recent = [
        used,
        ...state.recent.filter(
          (r) => r.connectionId !== used.connectionId || r.model !== used.model,
        ),
      ].slice(0, RECENT_MODELS);
      writeRecent(recent);
      return { recent };
    }),
}));

function readRecent(): RecentModel[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (entry): entry is RecentModel =>
          typeof (entry as RecentModel | null)?.connectionId === 'string' &&
          typeof (entry as RecentModel | null)?.model === 'string',
      )
      .slice(0, RECENT_MODELS);
  } catch {
    return [];
  }
}

function writeRecent(recent: RecentModel[]): void {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(recent));
  } catch {
    // Storage refused: the list lasts until the window closes.
  }
}
