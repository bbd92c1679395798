/** Opens the desktop integration: shortcut, tray, login item and connect links. Composition root only. */
import type { AppContext } from '../../app-context';
import { DesktopService, type DesktopIntegration } from './desktop-service';

export type DesktopDeps = Pick<AppContext, 'settings' | 'platform' | 'emit' | 'log'> & {
  integration?: DesktopIntegration | undefined;
};

export function openDesktop(deps: DesktopDeps): DesktopService {
  return new DesktopService({
    settings: deps.settings,
    platform: deps.platform,
    ...(deps.integration ? { integration: deps.integration } : {}),
    onLinkOpened: () => deps.emit('connectLinkOpened', null),
    log: (event, fields) => deps.log.info(event, fields),
  });
}
