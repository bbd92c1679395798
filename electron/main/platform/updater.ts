/**
 * electron-updater's `autoUpdater`, behind the `Updater` the update service uses. It is touched
 * only when this installation can update itself (`services/updates/support.ts`): creating it
 * reads the app's version and, on macOS, takes Electron's own autoUpdater (Squirrel.Mac).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { app } from 'electron';
import electronUpdater from 'electron-updater';
import type { AppLog } from '../services/log';
import { adaptAutoUpdater } from '../services/updates/auto-updater';
import { feedUrlOf, updateUnsupportedReason } from '../services/updates/support';
import type { Updater } from '../services/updates/update-service';
import type { Said } from '../services/words';

function packageType(resources: string | undefined): string | undefined {
  if (resources === undefined) return undefined;
  try {
    return readFileSync(join(resources, 'package-type'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The feed address the build wrote into app-update.yml, if it holds one. */
function feedUrlIn(path: string): string | undefined {
  try {
    return feedUrlOf(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The updater of this installation, or why there is none. Its feed is the one the build wrote
 * into app-update.yml (never set here, nor from anything at run time), and only over https.
 */
export function openUpdater(log: AppLog): { updater: Updater } | { reason: Said } {
  // Undefined outside Electron (the boot test's Node).
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  const updateConfig = resources === undefined ? undefined : join(resources, 'app-update.yml');
  const reason = updateUnsupportedReason({
    packaged: app.isPackaged,
    platform: process.platform,
    env: process.env,
    hasUpdateConfig: updateConfig !== undefined && existsSync(updateConfig),
    packageType: packageType(resources),
    feedUrl: updateConfig === undefined ? undefined : feedUrlIn(updateConfig),
  });
  if (reason !== undefined) return { reason };

  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = {
    info: (message?: unknown) => log.info('updater', { message: String(message) }),
    warn: (message?: unknown) => log.warn('updater', { message: String(message) }),
    error: (message?: unknown) => log.warn('updater.error', { message: String(message) }),
    debug: () => undefined,
  };
  return { updater: adaptAutoUpdater(autoUpdater) };
}
