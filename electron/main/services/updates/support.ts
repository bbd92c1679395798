/**
 * Whether this installation can update itself, decided from how it was installed. Plain logic,
 * tested in Node; `platform/updater.ts` gives it what Electron and the environment say.
 */
import { said, type Said } from '../words';

export interface InstallFacts {
  /** `app.isPackaged`. */
  packaged: boolean;
  /** `process.platform`. */
  platform: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `resources/app-update.yml`, written by electron-builder when it has a `publish` address. */
  hasUpdateConfig: boolean;
  /** `resources/package-type` (deb, rpm, pacman), written by electron-builder's Linux packages. */
  packageType: string | undefined;
}

/**
 * Why this installation does not update itself, or undefined when electron-updater can update it:
 * an AppImage or a deb/rpm package on Linux, the NSIS installer on Windows, the app on macOS.
 */
export function updateUnsupportedReason(facts: InstallFacts): Said | undefined {
  if (!facts.packaged) return said('updates.unsupported.development');
  if (!facts.hasUpdateConfig) return said('updates.unsupported.noAddress');
  if (facts.platform === 'linux') {
    if (facts.env['SNAP'] !== undefined) return said('updates.unsupported.snap');
    if (facts.env['APPIMAGE'] !== undefined) return undefined;
    if (facts.packageType === 'deb' || facts.packageType === 'rpm') return undefined;
    return said('updates.unsupported.otherPackage');
  }
  if (facts.platform === 'win32') {
    if (facts.env['PORTABLE_EXECUTABLE_DIR'] !== undefined) {
      return said('updates.unsupported.portable');
    }
    return undefined;
  }
  if (facts.platform === 'darwin') return undefined;
  return said('updates.unsupported.platform', { platform: facts.platform });
}
