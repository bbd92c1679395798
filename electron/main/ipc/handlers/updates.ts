import type { UPDATES_ROUTES } from '../../../shared/ipc/routes/updates';
import type { UpdateService } from '../../services/updates/update-service';
import type { Handlers } from '../router';

/** The handlers of the updates routes: one line each, over the update service. */
export function updatesHandlers(updates: UpdateService): Handlers<typeof UPDATES_ROUTES> {
  return {
    getUpdateStatus: () => updates.status,
    checkForUpdates: () => updates.check(),
    configureUpdates: (changes) => updates.change(changes),
    installUpdate: () => (updates.install(), null),
  };
}
