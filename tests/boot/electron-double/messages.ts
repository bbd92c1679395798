/** The messages between a boot test (`boot-app.ts`) and the child process it loads the app in. */
import type { DoubleConfig, SenderSpec } from './electron-double';
import type { MissingApi, RecordedCall } from './strict';

/** What the child needs to know, passed in the environment as JSON (`RELAY_BOOT_CONFIG`). */
export interface BootConfig {
  /** The main bundle to load: `<app>/out/main/index.js`. */
  main: string;
  /** `process.argv` after the executable, as Electron would see it. */
  argv: string[];
  double: DoubleConfig;
}

export const BOOT_CONFIG_ENV = 'RELAY_BOOT_CONFIG';

export type Command =
  | { command: 'ready' }
  | { command: 'request'; url: string }
  | { command: 'invoke'; channel: string; payload: unknown; sender: SenderSpec }
  | { command: 'send'; channel: string; payload: unknown; sender: SenderSpec }
  | { command: 'navigate'; window?: number | undefined; url: string }
  | { command: 'open-window'; window?: number | undefined; url: string }
  | { command: 'permission'; window?: number | undefined; permission: string }
  | { command: 'click-menu'; menuId: string }
  | { command: 'close-window'; window?: number | undefined }
  | { command: 'quit' }
  | { command: 'second-instance'; argv: string[] }
  | { command: 'open-url'; url: string }
  | { command: 'press-shortcut'; accelerator: string }
  | { command: 'click-tray' }
  | { command: 'click-tray-menu'; menuId: string }
  | { command: 'state' };

export type CommandMessage = Command & { id: number };

export type ChildMessage =
  | { type: 'call'; call: RecordedCall }
  | { type: 'missing'; miss: MissingApi }
  | { type: 'loaded' }
  | { type: 'load-failed'; error: string }
  | { type: 'uncaught'; error: string }
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: string };
