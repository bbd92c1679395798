/** Opens the network domain: the proxy setting applied to the app's requests. Composition root only. */
import { confirmed, type AppContext } from '../../app-context';
import { watchSecrets } from '../log';
import { NetworkService, type ProxyStack } from './network-service';

export type NetworkDeps = Pick<AppContext, 'settings' | 'secretStore' | 'dialogs' | 'log'> & {
  /** Where the proxy is applied (Electron's sessions in the app); without it, it is only saved. */
  stack?: ProxyStack | undefined;
};

/** The network service, with the saved proxy applied (a proxy the stack refuses is logged). */
export async function openNetwork(deps: NetworkDeps): Promise<NetworkService> {
  const { settings, dialogs, log } = deps;
  const network = new NetworkService(deps.stack, watchSecrets(deps.secretStore, log), {
    settings,
    confirm: (question) => confirmed(dialogs, question),
  });
  await network.apply((await settings.get()).proxy).catch((error: unknown) => {
    log.error('network.proxy-not-applied', error);
  });
  return network;
}
