import type { UPDATES_ROUTES } from '../../../shared/ipc/routes/updates';
import type { AppContext } from '../../app-context';
import { setFields } from '../../services/changes';
import type { UpdateService } from '../../services/updates/update-service';
import type { Handlers } from '../router';

/** The handlers of the updates routes: a few lines each, over the update service. */
export function updatesHandlers(
  context: Pick<AppContext, 'settings'>,
  service: UpdateService,
): Handlers<typeof UPDATES_ROUTES> {
  return {
    getUpdateStatus: () => service.status,
    checkForUpdates: () => service.check(),
    configureUpdates: async (changes) => {
      const before = (await context.settings.get()).updates;
      const after = (
        await context.settings.update({ updates: { ...before, ...setFields(changes) } })
      ).updates;
      await service.configure(after, before);
      return after;
    },
    installUpdate: () => (service.install(), null),
  };
}
