/**
 * Whether this installation can update itself, decided from how it was installed. Plain logic,
 * tested in Node; `platform/updater.ts` gives it what Electron and the environment say.
 */

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
export function updateUnsupportedReason(facts: InstallFacts): string | undefined {
  if (!facts.packaged) {
    return 'This is a development build (npm start or npm run dev): it does not update itself.';
  }
  if (!facts.hasUpdateConfig) {
    return 'This build was made without an update address (RELAY_UPDATE_URL), so it does not update itself.';
  }
  if (facts.platform === 'linux') {
    if (facts.env['SNAP'] !== undefined)
      return 'The Snap store keeps this installation up to date.';
    if (facts.env['APPIMAGE'] !== undefined) return undefined;
    if (facts.packageType === 'deb' || facts.packageType === 'rpm') return undefined;
    return 'This installation is not an AppImage or a deb or rpm package: update it the way you installed it.';
  }
  if (facts.platform === 'win32') {
    if (facts.env['PORTABLE_EXECUTABLE_DIR'] !== undefined) {
      return 'The portable version does not update itself: download the new version.';
    }
    return undefined;
  }
  if (facts.platform === 'darwin') return undefined;
  return `Updates are not available on ${facts.platform}.`;
}
