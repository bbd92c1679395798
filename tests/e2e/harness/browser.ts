/** Debian's Chromium, as the e2e run drives it (Electron's own binary cannot be installed here). */
export const CHROMIUM_PATH = process.env['RELAY_E2E_CHROMIUM'] ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--headless',
];
