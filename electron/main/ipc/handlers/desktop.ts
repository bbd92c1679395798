import type { DESKTOP_ROUTES } from '../../../shared/ipc/routes/desktop';
import type { AppContext } from '../../app-context';
import { DesktopService, type DesktopIntegration } from '../../services/desktop/desktop-service';
import type { Handlers } from '../router';

export function openDesktop(
  context: AppContext,
  integration: DesktopIntegration | undefined,
): DesktopService {
  return new DesktopService({
    settings: context.settings,
    platform: context.platform,
    ...(integration ? { integration } : {}),
    onLinkOpened: () => context.emit('connectLinkOpened', null),
    log: (event, fields) => context.log.info(event, fields),
  });
}

/** The handlers of the desktop routes: a few lines each, over the desktop service. */
export function desktopHandlers(service: DesktopService): Handlers<typeof DESKTOP_ROUTES> {
  return {
    getDesktopStatus: () => service.status(),
    updateDesktop: (changes) => service.update(changes),
    takeConnectLink: () => service.takeLink(),
  };
}
