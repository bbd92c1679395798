import type { DESKTOP_ROUTES } from '../../../shared/ipc/routes/desktop';
import type { AppContext } from '../../app-context';
import {
  DesktopError,
  DesktopService,
  type DesktopIntegration,
} from '../../services/desktop/desktop-service';
import type { LogFields } from '../../services/log-policy';
import { HandlerError, type Handlers } from '../router';

export function openDesktop(
  context: AppContext,
  platform: string,
  integration: DesktopIntegration | undefined,
  log?: (event: string, fields: LogFields) => void,
): DesktopService {
  return new DesktopService({
    settings: context.settings,
    platform,
    ...(integration ? { integration } : {}),
    onLinkOpened: () => context.emit('desktop:link-opened', null),
    ...(log ? { log } : {}),
  });
}

/** The handlers of the desktop routes: a few lines each, over the desktop service. */
export function desktopHandlers(service: DesktopService): Handlers<typeof DESKTOP_ROUTES> {
  return {
    getDesktopStatus: () => service.status(),
    updateDesktop: async (changes) => {
      try {
        return await service.update(changes);
      } catch (error) {
        if (error instanceof DesktopError) throw new HandlerError('invalid_request', error.message);
        throw error;
      }
    },
    takeConnectLink: () => service.takeLink(),
  };
}
