import type { NETWORK_ROUTES } from '../../../shared/ipc/routes/network';
import type { AppContext } from '../../app-context';
import type { NetworkService } from '../../services/network/network-service';
import type { Handlers } from '../router';

/** The handlers of the network routes: a few lines each, over the network service. */
export function networkHandlers(
  context: AppContext,
  service: NetworkService,
): Handlers<typeof NETWORK_ROUTES> {
  return {
    setProxy: ({ proxy }) => service.save(proxy, context.settings),
    testProxy: ({ url }) => service.test(url),
  };
}
