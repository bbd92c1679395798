import type { NETWORK_ROUTES } from '../../../shared/ipc/routes/network';
import type { NetworkService } from '../../services/network/network-service';
import type { Handlers } from '../router';

/** The handlers of the network routes: one line each, over the network service. */
export function networkHandlers(network: NetworkService): Handlers<typeof NETWORK_ROUTES> {
  return {
    setProxy: ({ proxy }) => network.choose(proxy),
    testProxy: ({ url }) => network.test(url),
    proxyPasswordStatus: async () => ({ set: await network.passwordSet() }),
    setProxyPassword: async ({ password }) => ({ set: await network.setPassword(password) }),
  };
}
