import type { NETWORK_ROUTES } from '../../../shared/ipc/routes/network';
import type { AppContext } from '../../app-context';
import { AppError } from '../../services/app-error';
import type { NetworkService } from '../../services/network/network-service';
import { proxyNeedsConsent, proxyQuestion } from '../../services/network/proxy-question';
import { said } from '../../services/words';
import type { Handlers } from '../router';

/** The handlers of the network routes: a few lines each, over the network service. */
export function networkHandlers(
  context: Pick<AppContext, 'settings' | 'dialogs'>,
  service: NetworkService,
): Handlers<typeof NETWORK_ROUTES> {
  return {
    // A proxy of the page's is used only once the person said yes in main's own dialog.
    setProxy: async ({ proxy }) => {
      const current = (await context.settings.get()).proxy;
      if (proxy.mode === 'manual' && proxyNeedsConsent(current, proxy)) {
        const agreed = (await context.dialogs.confirm?.(proxyQuestion(proxy, 'settings'))) ?? false;
        if (!agreed) throw new AppError('invalid_request', said('network.notConfirmed'));
      }
      return service.save(proxy, context.settings);
    },
    testProxy: ({ url }) => service.test(url),
    proxyPasswordStatus: async () => ({ set: await service.passwordSet() }),
    setProxyPassword: async ({ password }) => ({ set: await service.setPassword(password) }),
  };
}
