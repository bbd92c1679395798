/**
 * What the command line and the environment may change about a start, decided before anything
 * else runs. Free of Electron imports, so the decision is tested as a plain function.
 */

/** A start the app refuses, with the sentence to print before it exits. */
export class StartRefused extends Error {
  override readonly name = 'StartRefused';
}

/**
 * Chromium switches that open the window's pages to a debugger from outside. The release fuses
 * turn off Node's `--inspect` family but not these: Chromium itself reads them, for any build.
 */
const DEBUGGING_SWITCHES = ['remote-debugging-port', 'remote-debugging-pipe'];

/**
 * The debugging switch among `argv`, if any. Chromium takes a switch after `--` or `-` (and `/`
 * on Windows), in any case on Windows, with or without `=value`; each form counts.
 */
function debuggingSwitchIn(argv: readonly string[]): string | undefined {
  for (const arg of argv) {
    const match = /^(?:--?|\/)([^=]+)(?:=|$)/.exec(arg);
    const name = match?.[1]?.toLowerCase();
    if (name !== undefined && DEBUGGING_SWITCHES.includes(name)) return arg;
  }
  return undefined;
}

export interface StartInput {
  /** `app.isPackaged`: true for an installed build, false under `electron-vite dev` or `preview`. */
  isPackaged: boolean;
  /** `process.argv`. */
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** `app.commandLine.hasSwitch`: what Chromium itself parsed from the command line. */
  hasSwitch: (name: string) => boolean;
}

export interface StartPlan {
  /** The dev server the window loads from in a development build, with its trusted origin. */
  devServer: { url: string; origin: string } | undefined;
}

/**
 * Decides whether and how the app starts. A packaged build refuses the remote-debugging
 * switches; a development build loads from `ELECTRON_RENDERER_URL`, which must then be a plain
 * http(s) address: its origin is the one the IPC router trusts, so an address that cannot be
 * read must stop the start rather than leave an empty or wrong origin trusted.
 */
export function checkStart(input: StartInput): StartPlan {
  if (input.isPackaged) {
    const flag =
      debuggingSwitchIn(input.argv) ??
      DEBUGGING_SWITCHES.map((name) => (input.hasSwitch(name) ? `--${name}` : undefined)).find(
        (name) => name !== undefined,
      );
    if (flag !== undefined) {
      throw new StartRefused(
        `Relay Desktop does not start with remote debugging turned on (${flag}): it would let another program read the window and use your connections. Start it without that switch.`,
      );
    }
    return { devServer: undefined };
  }
  const url = input.env['ELECTRON_RENDERER_URL'];
  if (url === undefined) return { devServer: undefined };
  return { devServer: { url, origin: devServerOrigin(url) } };
}

function devServerOrigin(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (
    parsed === undefined ||
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.hostname === ''
  ) {
    throw new StartRefused(
      `ELECTRON_RENDERER_URL is set to ${JSON.stringify(url)}, which is not an http(s) address of a dev server. Unset it, or set it to the address electron-vite printed.`,
    );
  }
  return parsed.origin;
}
