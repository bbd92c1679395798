/** Opens the app's own updates over the update settings. Composition root only. */
import type { AppContext } from '../../app-context';
import type { Said } from '../words';
import { UpdateService, type Updater } from './update-service';

export type UpdatesDeps = Pick<AppContext, 'version' | 'settings' | 'emit' | 'log' | 'onClose'> & {
  /** The app's own updater; without it the app says it does not update itself, and why. */
  updater?: Updater | undefined;
  unsupportedReason?: Said | undefined;
};

/** The update service; its checks start when the shell calls `start` (after the window). */
export function openUpdates(deps: UpdatesDeps): UpdateService {
  const { settings, emit, log } = deps;
  const updates = new UpdateService({
    currentVersion: deps.version,
    ...(deps.updater ? { updater: deps.updater } : {}),
    ...(deps.unsupportedReason ? { unsupportedReason: deps.unsupportedReason } : {}),
    settings: async () => (await settings.get()).updates,
    saveSettings: async (updates) => (await settings.update({ updates })).updates,
    emit: (status) => emit('updateStatus', status),
    log: (event, fields) => log.info(event, fields),
  });
  deps.onClose(() => updates.close());
  return updates;
}
