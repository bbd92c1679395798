import type { NETWORK_ROUTES } from '../../../shared/ipc/routes/network';
import type { AppContext } from '../../app-context';
import { NetworkError, type NetworkService } from '../../services/network/network-service';
import { HandlerError, type Handlers } from '../router';

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NetworkError) throw new HandlerError('invalid_request', error.message);
    throw error;
  }
}

/** The handlers of the network routes: a few lines each, over the network service. */
export function networkHandlers(
  context: AppContext,
  service: NetworkService,
): Handlers<typeof NETWORK_ROUTES> {
  return {
    // Applied first: a proxy the network stack refuses is not saved.
    setProxy: ({ proxy }) =>
      guarded(async () => {
        const before = (await context.settings.get()).proxy;
        await service.apply(proxy);
        try {
          return (await context.settings.update({ proxy })).proxy;
        } catch (error) {
          await service.apply(before).catch(() => undefined);
          throw error;
        }
      }),
    testProxy: ({ url }) => guarded(() => service.test(url)),
  };
}
