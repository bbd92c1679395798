/** Opens the model catalog of the saved connections, with the person's prices. Composition root only. */
import type { AppContext } from '../../app-context';
import type { RelayClient } from '../relay/relay-client';
import { ModelCatalog } from './model-catalog';

export type ModelsDeps = Pick<AppContext, 'userDataDir' | 'dialogs' | 'connections'> & {
  /** A client for a saved connection, with the person's timeouts (`AppContext.clientFor`). */
  clientFor(connectionId: string): Promise<RelayClient>;
};

export function openModels(deps: ModelsDeps): ModelCatalog {
  const { connections, clientFor } = deps;
  return new ModelCatalog({
    dataDir: deps.userDataDir,
    active: async () => {
      const id = await connections.activeId();
      return id === undefined ? undefined : { id, client: await clientFor(id) };
    },
    clientFor: (id) => clientFor(id),
    dialogs: deps.dialogs,
  });
}
