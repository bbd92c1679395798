/**
 * Runs the app's key store in a fresh Node process: a restart of the app, or a machine without a
 * Secret Service. Shared by the keychain test and the reliability suite's keychain section.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const KEYCHAIN_MODULE = join(ROOT, 'electron/main/platform/keychain.ts');

export interface ChildResult {
  status: { secure: boolean; persistent: boolean; backend: string; reason?: string };
  read?: string | null;
}

export interface ChildOptions {
  /** The keychain service name the entries go under. */
  service: string;
  account: string;
  /** Saved under `account` before reading, when given. */
  set?: string;
  userDataDir: string;
  allowPlaintextFile?: boolean;
}

/**
 * Runs `openSecretStore` in a fresh Node process, optionally saving `set` under `account`, and
 * reports the status and what it read.
 */
export async function inChild(
  options: ChildOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildResult> {
  const code = `(async () => {
    const { openSecretStore } = await import(${JSON.stringify(KEYCHAIN_MODULE)});
    const args = JSON.parse(process.env.KEYCHAIN_CHILD_ARGS);
    const store = await openSecretStore({ service: args.service, userDataDir: args.userDataDir,
      allowPlaintextFile: args.allowPlaintextFile, timeoutMs: 10000 });
    if (args.set !== undefined) await store.set(args.account, args.set);
    const read = (await store.get(args.account)) ?? null;
    process.stdout.write(JSON.stringify({ status: store.status, read }));
  })().catch((error) => { console.error(error); process.exit(1); });`;
  const { stdout } = await run(TSX, ['-e', code], {
    cwd: ROOT,
    env: { ...env, KEYCHAIN_CHILD_ARGS: JSON.stringify(options) },
    timeout: 30_000,
  });
  return JSON.parse(stdout) as ChildResult;
}

/** An environment in which no D-Bus session bus can be found. */
export function withoutSecretService(runtimeDir: string, busAddress?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtimeDir };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  if (busAddress !== undefined) env.DBUS_SESSION_BUS_ADDRESS = busAddress;
  return env;
}
