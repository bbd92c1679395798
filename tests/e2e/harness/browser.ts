/**
 * The Chromium the tests drive (Electron's own binary cannot be installed here).
 *
 * The e2e and reliability runs use Debian's headless shell (`chromium-headless-shell`, the same
 * Blink and V8 as `chromium`, without the browser's window chrome): a browser context, which each
 * spec's app gets, opens and closes in a tenth of the processor time the full browser's headless
 * mode takes (it starts a WebUI renderer for every window and tears its profile down on close).
 * The benchmarks keep the full `chromium`, so their figures stay comparable from run to run.
 */
import { existsSync } from 'node:fs';

/** The full Chromium: benchmarks and the icon script. `RELAY_E2E_CHROMIUM` overrides it. */
export const CHROMIUM_PATH = process.env['RELAY_E2E_CHROMIUM'] ?? '/usr/bin/chromium';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The browser of the test runs: `RELAY_E2E_CHROMIUM` if set, else the headless shell, else (not
 * installed yet) the full Chromium.
 */
export const TEST_CHROMIUM_PATH =
  process.env['RELAY_E2E_CHROMIUM'] ??
  (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--headless',
];
