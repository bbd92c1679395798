/**
 * Opens sync over the tables of chat and prompts (its sources, so opened after them), the saved
 * connections, the settings and prices, and the knowledge bases once they open. The composition
 * root only.
 */
import type { AppContext } from '../../app-context';
import type { KnowledgeService } from '../knowledge/knowledge-service';
import type { ScryptCost } from './sync-crypto';
import { SyncService, type SyncTiming } from './sync-service';

export type SyncDeps = Pick<
  AppContext,
  | 'userDataDir'
  | 'db'
  | 'secretStore'
  | 'settings'
  | 'models'
  | 'connections'
  | 'dialogs'
  | 'fetch'
  | 'emit'
  | 'log'
  | 'onClose'
> & {
  /** The knowledge bases, once open (after sync). */
  knowledge: Promise<KnowledgeService>;
  /** The background timing and a new storage's key cost, for tests; the real ones by default. */
  seams?:
    { timing?: Partial<SyncTiming>; scryptCost?: ScryptCost; deviceLabel?: string } | undefined;
};

export async function openSync(deps: SyncDeps): Promise<SyncService> {
  const { emit, log, models } = deps;
  const sync = await SyncService.open({
    connections: deps.connections,
    knowledge: deps.knowledge,
    userDataDir: deps.userDataDir,
    db: deps.db,
    secrets: deps.secretStore,
    settings: deps.settings,
    prices: models.prices,
    dialogs: deps.dialogs,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    onStatus: (status) => emit('syncStatusChanged', status),
    // Another computer's changes: the page refreshes what they touched.
    onApplied: (applied) => {
      if (applied.conversation || applied.message) emit('conversationsChanged', null);
      if (applied.prompt) emit('promptsChanged', null);
      if (applied.connection) emit('connectionsChanged', null);
      if (applied.price)
        void models.prices.get().then(
          (prices) => emit('pricesChanged', prices),
          (error: unknown) => log.error('sync.prices', error),
        );
    },
    onError: (event, error) => log.error(event, error),
    ...deps.seams,
  });
  // Before the database closes: a running sync ends first.
  deps.onClose(() => sync.close());
  return sync;
}
