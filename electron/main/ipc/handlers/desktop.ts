import type { DESKTOP_ROUTES } from '../../../shared/ipc/routes/desktop';
import type { DesktopService } from '../../services/desktop/desktop-service';
import type { Handlers } from '../router';

/** The handlers of the desktop routes: one line each, over the desktop service. */
export function desktopHandlers(service: DesktopService): Handlers<typeof DESKTOP_ROUTES> {
  return {
    getDesktopStatus: () => service.status(),
    updateDesktop: (changes) => service.update(changes),
    takeConnectLink: () => service.takeLink(),
  };
}
