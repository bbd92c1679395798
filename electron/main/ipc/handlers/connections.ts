import type { CONNECTIONS_ROUTES } from '../../../shared/ipc/routes/connections';
import type { ConnectionViews } from '../../services/connections/connection-views';
import type { Handlers } from '../router';

/** The handlers of the connections routes. */
export function connectionsHandlers(views: ConnectionViews): Handlers<typeof CONNECTIONS_ROUTES> {
  return {
    listConnections: () => views.list(),
    createConnection: (draft) => views.create(draft),
    updateConnection: ({ id, changes }) => views.update(id, changes),
    deleteConnection: ({ id }) => views.delete(id),
    selectConnection: ({ id }) => views.select(id),
    testConnection: (draft) => views.test(draft),
    startDemoRelay: () => views.startDemo(),
    getConnectionHealth: () => views.health(),
    getKeyStorageStatus: () => views.keyStorage(),
  };
}
