/**
 * The entry of the child process a boot test loads the built main bundle in (bundled to one
 * file by `boot-app.ts`, run by plain Node with an IPC channel to the test).
 *
 * Before the bundle loads, `electron` is made to resolve to the double, both ways Electron's main
 * process is reached: `import … from 'electron'` through a module customization hook
 * (`module.register`), whose generated module exports every name Electron exports, and
 * `require('electron')` (electron-log, electron-updater and other CommonJS packages) through
 * Node's CommonJS resolver. Both give the same object. Then the bundle is imported as Electron
 * imports `package.json`'s `main`, and the test drives the double over IPC (`messages.ts`).
 */
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { createElectronDouble } from './electron-double';
import {
  BOOT_CONFIG_ENV,
  type BootConfig,
  type ChildMessage,
  type CommandMessage,
} from './messages';
import { describe, type Journal } from './strict';

const DOUBLE_KEY = 'relay-desktop.electron-double';
const DOUBLE_URL = 'relay-electron-double:electron';
/** The specifiers that name Electron's main-process module. */
const SPECIFIERS = ['electron', 'electron/main'];

/** Runs in the hooks thread: `electron` becomes a module built from the double's exports. */
const HOOKS = `
let names = [];
export function initialize(data) { names = data.names; }
export async function resolve(specifier, context, next) {
  if (${JSON.stringify(SPECIFIERS)}.includes(specifier)) return { url: ${JSON.stringify(DOUBLE_URL)}, shortCircuit: true };
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url !== ${JSON.stringify(DOUBLE_URL)}) return next(url, context);
  const source = [
    'const electron = globalThis[Symbol.for(${JSON.stringify(DOUBLE_KEY)})];',
    'export default electron;',
    ...names.map((name) => 'export const ' + name + ' = electron[' + JSON.stringify(name) + '];'),
  ].join('\\n');
  return { format: 'module', source, shortCircuit: true };
}
`;

function send(message: ChildMessage): void {
  process.send?.(message);
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

const raw = process.env[BOOT_CONFIG_ENV];
if (raw === undefined) throw new Error(`${BOOT_CONFIG_ENV} is not set`);
const config = JSON.parse(raw) as BootConfig;

let ready = false;
let seq = 0;
const journal: Journal = {
  call(path, args) {
    send({
      type: 'call',
      call: { seq: seq++, path, args: describe(args) as unknown[], afterReady: ready },
    });
  },
  missing(miss) {
    send({ type: 'missing', miss });
  },
};

const { electron, control } = createElectronDouble(config.double, journal, (code) =>
  process.exit(code),
);

(globalThis as Record<symbol, unknown>)[Symbol.for(DOUBLE_KEY)] = electron;
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
  data: { names: config.double.exportNames },
});

// require('electron'): resolved to an id of its own, already in the module cache.
const cjs = Module as unknown as {
  _resolveFilename: (request: string, ...rest: unknown[]) => string;
  _cache: Record<string, unknown>;
};
const resolveFilename = cjs._resolveFilename;
cjs._resolveFilename = function (request, ...rest) {
  if (SPECIFIERS.includes(request)) return DOUBLE_URL;
  return resolveFilename.call(this, request, ...rest);
};
const electronModule = new Module(DOUBLE_URL);
electronModule.exports = electron;
electronModule.loaded = true;
cjs._cache[DOUBLE_URL] = electronModule;

// Electron logs what escapes the app; the test fails on any.
process.on('uncaughtExceptionMonitor', (error) =>
  send({ type: 'uncaught', error: errorText(error) }),
);
process.on('unhandledRejection', (reason) =>
  send({ type: 'uncaught', error: `unhandled rejection: ${errorText(reason)}` }),
);

async function run(message: CommandMessage): Promise<unknown> {
  switch (message.command) {
    case 'ready':
      ready = true;
      control.makeReady();
      return null;
    case 'request':
      return control.protocolRequest(message.url);
    case 'invoke':
      return control.invoke(message.channel, message.payload, message.sender);
    case 'send':
      return control.send(message.channel, message.payload, message.sender);
    case 'navigate':
      return control.navigate(message.window, message.url);
    case 'open-window':
      return control.openWindow(message.window, message.url);
    case 'permission':
      return control.permission(message.window, message.permission);
    case 'click-menu':
      control.clickMenuItem(message.menuId);
      return null;
    case 'close-window':
      control.closeWindow(message.window);
      return null;
    case 'quit':
      control.quit();
      return null;
    case 'second-instance':
      control.secondInstance(message.argv);
      return null;
    case 'open-url':
      return control.openUrl(message.url);
    case 'press-shortcut':
      control.pressShortcut(message.accelerator);
      return null;
    case 'click-tray':
      control.clickTray();
      return null;
    case 'click-tray-menu':
      control.clickTrayMenuItem(message.menuId);
      return null;
    case 'state':
      return control.state();
  }
}

process.on('message', (message: CommandMessage) => {
  run(message).then(
    (value) => send({ type: 'reply', id: message.id, ok: true, value }),
    (error: unknown) => send({ type: 'reply', id: message.id, ok: false, error: errorText(error) }),
  );
});
// The test going away ends the app.
process.on('disconnect', () => process.exit(0));

// Electron's process.argv: the executable, then its arguments (no script path when packaged).
process.argv.splice(1, process.argv.length, ...config.argv);
// Electron's own addition to `process`: where app.asar and the extra resources are.
Object.defineProperty(process, 'resourcesPath', {
  value: config.double.resourcesPath,
  enumerable: true,
});

try {
  await import(pathToFileURL(config.main).href);
  send({ type: 'loaded' });
} catch (error) {
  send({ type: 'load-failed', error: errorText(error) });
  process.exitCode = 1;
  process.disconnect();
}
