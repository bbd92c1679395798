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
  /**
   * The feed's address in `resources/app-update.yml` (`feedUrlOf`), written there at build time
   * from `RELAY_UPDATE_URL`; absent for a provider without one (GitHub). Nothing at run time (the
   * environment, the settings, the page) can give another.
   */
  feedUrl?: string | undefined;
}

/**
 * The `url:` of an `app-update.yml` (a generic provider's feed), as electron-builder writes it:
 * one `key: value` a line, the value quoted or not.
 */
export function feedUrlOf(appUpdateYml: string): string | undefined {
  const line = /^url:[ \t]*(.+?)[ \t]*$/m.exec(appUpdateYml)?.[1];
  if (line === undefined) return undefined;
  const quoted = /^(['"])(.*)\1$/.exec(line);
  return quoted ? quoted[2] : line;
}

/**
 * Why a feed address cannot be used, or undefined: an update is a program the app installs, so
 * it comes over https only. Plain http is allowed to this computer's own loopback (a feed served
 * locally to try a release), which no network sits between.
 */
export function insecureFeed(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true;
  }
  if (parsed.protocol === 'https:') return false;
  const loopback =
    parsed.hostname === 'localhost' ||
    parsed.hostname === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(parsed.hostname);
  return !(parsed.protocol === 'http:' && loopback);
}

/**
 * Why this installation does not update itself, or undefined when electron-updater can update it:
 * an AppImage or a deb/rpm package on Linux, the NSIS installer on Windows, the app on macOS.
 */
export function updateUnsupportedReason(facts: InstallFacts): Said | undefined {
  if (!facts.packaged) return said('updates.unsupported.development');
  if (!facts.hasUpdateConfig) return said('updates.unsupported.noAddress');
  if (facts.feedUrl !== undefined && insecureFeed(facts.feedUrl))
    return said('updates.unsupported.insecureFeed', { address: facts.feedUrl });
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
