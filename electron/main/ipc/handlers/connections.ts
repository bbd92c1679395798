import type { CONNECTIONS_ROUTES } from '../../../shared/ipc/routes/connections';
import type { AppContext } from '../../app-context';
import type { ConnectionSummary } from '../../services/connections/connections';
import { logConnectionTest } from '../../services/log';
import type { Handlers } from '../router';

/** The handlers of the connections routes; every change is announced to the page. */
export function connectionsHandlers(
  context: Pick<AppContext, 'connections' | 'models' | 'secretStore' | 'log' | 'health' | 'emit'>,
): Handlers<typeof CONNECTIONS_ROUTES> {
  const { connections, models, secretStore, log, health } = context;

  /** A summary as the page sees it: whether it is the connection in use. */
  const asShown = (summary: ConnectionSummary, activeId: string | undefined) => ({
    ...summary,
    isDemo: summary.isDemo ?? false,
    active: summary.id === activeId,
  });
  const withActive = async (summary: ConnectionSummary) =>
    asShown(summary, await connections.activeId());

  function changed<T>(value: T): T {
    context.emit('connectionsChanged', null);
    return value;
  }

  return {
    listConnections: async () => {
      const activeId = await connections.activeId();
      return (await connections.list()).map((summary) => asShown(summary, activeId));
    },
    createConnection: async (draft) => changed(await withActive(await connections.create(draft))),
    updateConnection: async ({ id, changes }) =>
      changed(await withActive(await connections.update(id, changes))),
    deleteConnection: async ({ id }) => {
      await connections.delete(id);
      await models.forget(id);
      health.forget(id);
      return changed(null);
    },
    selectConnection: async ({ id }) => {
      await connections.select(id);
      return changed(await withActive(await connections.get(id)));
    },
    testConnection: (draft) => logConnectionTest(log, draft, () => connections.test(draft)),
    startDemoRelay: async () => changed(await withActive(await connections.startDemo())),
    getConnectionHealth: () => health.list(),
    getKeyStorageStatus: () => {
      const { secure, persistent, backend, reason, messageId, values } = secretStore.status;
      return reason === undefined
        ? { secure, persistent, backend }
        : {
            secure,
            persistent,
            backend,
            reason,
            ...(messageId !== undefined ? { messageId } : {}),
            ...(values !== undefined ? { values } : {}),
          };
    },
  };
}
