/**
 * A computer syncing, as a process of its own, for the sync crash test: it opens its user data
 * folder and syncs through a folder storage whose every read and write takes `delay` ms, then
 * exits. The test kills it with SIGKILL at random moments, mid-upload or mid-download.
 *
 * Arguments: <user data folder> <storage folder> <master key, base64> <delay ms> [options as
 * JSON: the device's `skewMs` and `compaction`]. Prints `syncing` once it has opened everything
 * and starts the sync.
 */
import { keysFromMaster } from '../../electron/main/services/sync/sync-crypto';
import { FolderTarget } from '../../electron/main/services/sync/targets/folder-target';
import type { SyncTarget } from '../../electron/main/services/sync/targets/target';
import { openSyncDevice, type SyncDeviceOptions } from './sync-device';

/** A target whose requests each take `ms` first: a slow storage, so a kill lands mid-transfer. */
export function slowTarget(inner: SyncTarget, ms: number): SyncTarget {
  const wait = () => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    description: inner.description,
    list: async (prefix) => (await wait(), inner.list(prefix)),
    get: async (name) => (await wait(), inner.get(name)),
    putIfAbsent: async (name, bytes) => (await wait(), inner.putIfAbsent(name, bytes)),
    delete: async (name) => (await wait(), inner.delete(name)),
  };
}

async function main(): Promise<void> {
  const [dir, storage, key, delay, extra] = process.argv.slice(2);
  if (!dir || !storage || !key || !delay) throw new Error('usage: <dir> <storage> <key> <delay>');
  const target = slowTarget(new FolderTarget(storage), Number(delay));
  const device = await openSyncDevice({
    target,
    keys: keysFromMaster(Buffer.from(key, 'base64')),
    dir,
    ...(extra ? (JSON.parse(extra) as Pick<SyncDeviceOptions, 'skewMs' | 'compaction'>) : {}),
  });
  process.stdout.write('syncing\n');
  const report = await device.engine.sync();
  process.stdout.write(`done ${JSON.stringify(report.problem)}\n`);
  await device.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
