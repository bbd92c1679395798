/**
 * Setting sync up on a storage: the first computer makes the storage's keyring from a new
 * recovery phrase; every other one joins it with that phrase. A wrong phrase is said plainly
 * (the keyring's check value does not match) and nothing is written. The master key is kept in
 * the keychain (SecretStore), so the phrase is asked for once per computer.
 */
import { AppError } from '../app-error';
import type { SecretStore } from '../secret-store';
import { said } from '../words';
import {
  checkMatches,
  DEFAULT_SCRYPT_COST,
  deriveKeys,
  keyCheck,
  keysFromMaster,
  newSalt,
  phraseProblem,
  type ScryptCost,
  type SyncKeys,
} from './sync-crypto';
import type { SyncTarget } from './targets/target';
import { KEYRING_FORMAT, KEYRING_NAME, keyringSchema, type Keyring } from './wire';

/** The keychain account of the sync key. */
export const SYNC_KEY_ACCOUNT = 'sync.key';

export type StorageState = { state: 'empty' } | { state: 'ready'; keyring: Keyring };

/** Whether the storage has sync data already; throws for a keyring this version cannot read. */
export async function storageState(target: SyncTarget): Promise<StorageState> {
  const bytes = await target.get(KEYRING_NAME);
  if (bytes === undefined) return { state: 'empty' };
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new AppError('invalid_request', said('sync.keyring.foreign'));
  }
  if (
    typeof data === 'object' &&
    data !== null &&
    (data as { format?: unknown }).format === KEYRING_FORMAT &&
    typeof (data as { version?: unknown }).version === 'number' &&
    (data as { version: number }).version > 1
  )
    throw new AppError('invalid_request', said('sync.keyring.newer'));
  const checked = keyringSchema.safeParse(data);
  if (!checked.success) throw new AppError('invalid_request', said('sync.keyring.foreign'));
  return { state: 'ready', keyring: checked.data };
}

/** Refuses a phrase that cannot be a recovery phrase, saying which word or why. */
export function checkPhrase(phrase: string): void {
  const problem = phraseProblem(phrase);
  if (problem === undefined) return;
  if (problem.problem === 'length')
    throw new AppError('invalid_request', said('sync.phrase.length', { count: problem.count }));
  if (problem.problem === 'unknown_word')
    throw new AppError(
      'invalid_request',
      said('sync.phrase.unknownWord', { word: problem.word, position: problem.position }),
    );
  throw new AppError('invalid_request', said('sync.phrase.checksum'));
}

async function unlock(keyring: Keyring, phrase: string): Promise<SyncKeys> {
  const keys = await deriveKeys(phrase, Buffer.from(keyring.salt, 'base64'), keyring.kdf);
  if (!checkMatches(keys, keyring.check))
    throw new AppError('invalid_request', said('sync.phrase.wrong'));
  return keys;
}

/**
 * Opens the storage with the recovery phrase: joins its keyring when there is one, or makes it
 * (the first computer) when it is empty. Nothing but the keyring is ever written here, and
 * nothing at all for a wrong phrase.
 */
export async function openStorage(
  target: SyncTarget,
  phrase: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
  now: () => Date = () => new Date(),
): Promise<{ keys: SyncKeys; created: boolean }> {
  checkPhrase(phrase);
  const found = await storageState(target);
  if (found.state === 'ready') return { keys: await unlock(found.keyring, phrase), created: false };
  const salt = newSalt();
  const keys = await deriveKeys(phrase, salt, cost);
  const keyring: Keyring = {
    format: KEYRING_FORMAT,
    version: 1,
    kdf: { name: 'scrypt', ...cost },
    salt: salt.toString('base64'),
    check: keyCheck(keys),
    createdAt: now().toISOString(),
  };
  const written = await target.putIfAbsent(
    KEYRING_NAME,
    Buffer.from(`${JSON.stringify(keyring, null, 2)}\n`),
  );
  if (written === 'exists') {
    // Another computer made it a moment before: join that one.
    const again = await storageState(target);
    if (again.state !== 'ready') throw new AppError('internal', said('sync.keyring.foreign'));
    return { keys: await unlock(again.keyring, phrase), created: false };
  }
  return { keys, created: true };
}

export async function saveSyncKey(store: SecretStore, keys: SyncKeys): Promise<void> {
  await store.set(SYNC_KEY_ACCOUNT, keys.master.toString('base64'));
}

export async function loadSyncKey(store: SecretStore): Promise<SyncKeys | undefined> {
  const saved = await store.get(SYNC_KEY_ACCOUNT);
  if (saved === undefined) return undefined;
  const master = Buffer.from(saved, 'base64');
  return master.length === 32 ? keysFromMaster(master) : undefined;
}
