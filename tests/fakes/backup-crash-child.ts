/**
 * A process for the backup kill tests: opens the app's services on a user data folder (whose
 * backups.json names the backup folder), takes one backup or restores one, printing each stage
 * as the status reports it, and exits. The test kills it with SIGKILL at random moments.
 *
 * Arguments: <user data folder> <api key> backup | restore <backup file name>
 * Prints `ready` once the services are open, `stage <name>` as the work moves on, `done` at the end.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAppServices } from '../../electron/main/app-services';
import { MemorySecretStore } from '../../electron/main/services/secret-store';

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const [userDataDir, apiKey, mode, name] = process.argv.slice(2);
  if (!userDataDir || !apiKey || (mode !== 'backup' && mode !== 'restore'))
    throw new Error('usage: <user data folder> <key> backup | restore <name>');
  // The keys as the keychain holds them on this computer: one for each saved connection.
  const secrets = new MemorySecretStore();
  const saved = JSON.parse(await readFile(join(userDataDir, 'connections.json'), 'utf8')) as {
    connections: Array<{ id: string }>;
  };
  for (const connection of saved.connections) await secrets.set(connection.id, apiKey);
  let last = '';
  const services = await createAppServices({
    userDataDir,
    secretStore: secrets,
    version: '0.2.0',
    emit: (channel, payload) => {
      if (channel !== 'backups:status-changed') return;
      const stage = (payload as { running?: { stage: string } }).running?.stage ?? 'idle';
      if (stage !== last) say(`stage ${(last = stage)}`);
    },
  });
  say('ready');
  if (mode === 'backup') await services.backups.backUpNow('manual');
  else await services.backups.restore(name ?? '');
  say('done');
  await services.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
