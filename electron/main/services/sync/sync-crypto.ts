/**
 * What makes the storage read nothing: the recovery phrase, the keys derived from it, object
 * names that say nothing, and each object sealed before it leaves the computer.
 *
 * - The recovery phrase is 12 words of the BIP-39 English list (128 random bits, the last word
 *   carrying a checksum, so a mistyped word is found before anything is tried): the list people
 *   already write down for wallets and password managers, from `@scure/bip39`, a small, audited,
 *   dependency-free package.
 * - scrypt (node:crypto) turns the phrase and the storage's salt into a 32-byte master key, at
 *   the cost stored beside the salt in the storage's `keyring` object (which holds no secret:
 *   the salt, the cost and a check value that tells a wrong phrase from a right one). HKDF then
 *   derives one key to seal objects and one to name them.
 * - An object is AES-256-GCM (node:crypto) over its deflated bytes, with a fresh 96-bit nonce;
 *   its associated data is the format, its kind and its name in the storage, so an object moved
 *   to another name, or given as another kind, fails to open as surely as a changed byte.
 * - A name is the HMAC-SHA-256 of the object's logical name ("log:<device>:<seq>"), cut to 128
 *   bits: the storage sees which prefix (head, log, snapshot, blob) and nothing else.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
} from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';

/** The objects the engine writes, each under its own prefix. */
export type ObjectKind = 'head' | 'log' | 'snapshot' | 'blob';

export const KIND_PREFIX: Record<ObjectKind, string> = {
  head: 'h/',
  log: 'o/',
  snapshot: 's/',
  blob: 'b/',
};

const KIND_BYTE: Record<ObjectKind, number> = { head: 1, log: 2, snapshot: 3, blob: 4 };
const MAGIC = Buffer.from('RDS1', 'ascii');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + 1 + NONCE_BYTES;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** About a third of a second on a laptop, 128 MiB of memory: what a guess costs. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

export interface SyncKeys {
  /** The 32-byte master key, the one secret kept in the keychain. */
  master: Buffer;
  seal: Buffer;
  name: Buffer;
}

/** A phrase the person can be shown once and write down. */
export function newRecoveryPhrase(): string {
  return generateMnemonic(wordlist, 128);
}

/** The phrase as it is checked and derived from: lower case, single spaces, NFKD. */
export function normalizePhrase(phrase: string): string {
  return phrase.normalize('NFKD').toLowerCase().trim().split(/\s+/u).join(' ');
}

export type PhraseProblem =
  | { problem: 'length'; count: number }
  | { problem: 'unknown_word'; word: string; position: number }
  | { problem: 'checksum' };

/** Why a typed phrase cannot be a recovery phrase, or undefined when it can. */
export function phraseProblem(phrase: string): PhraseProblem | undefined {
  const words = normalizePhrase(phrase).split(' ').filter(Boolean);
  if (words.length !== 12) return { problem: 'length', count: words.length };
  const known = new Set(wordlist);
  const position = words.findIndex((word) => !known.has(word));
  if (position >= 0)
    return { problem: 'unknown_word', word: words[position]!, position: position + 1 };
  return validateMnemonic(words.join(' '), wordlist) ? undefined : { problem: 'checksum' };
}

function scrypt(phrase: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(
      normalizePhrase(phrase),
      salt,
      32,
      { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

export function keysFromMaster(master: Buffer): SyncKeys {
  const derive = (info: string) =>
    Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `relay-sync/1 ${info}`, 32));
  return { master, seal: derive('seal'), name: derive('name') };
}

export async function deriveKeys(
  phrase: string,
  salt: Buffer,
  cost: ScryptCost,
): Promise<SyncKeys> {
  return keysFromMaster(await scrypt(phrase, salt, cost));
}

/** The value stored beside the salt that tells the right phrase from a wrong one. */
export function keyCheck(keys: SyncKeys): string {
  return createHmac('sha256', keys.master).update('relay-sync/1 key check').digest('base64url');
}

export function checkMatches(keys: SyncKeys, check: string): boolean {
  const mine = Buffer.from(keyCheck(keys));
  const theirs = Buffer.from(check);
  return mine.length === theirs.length && timingSafeEqual(mine, theirs);
}

export function newSalt(): Buffer {
  return randomBytes(16);
}

/** The storage name of an object: its prefix and 128 bits of HMAC of its logical name. */
export function objectName(keys: SyncKeys, kind: ObjectKind, logical: string): string {
  return `${KIND_PREFIX[kind]}${createHmac('sha256', keys.name).update(`${kind}:${logical}`).digest('hex').slice(0, 32)}`;
}

function associatedData(kind: ObjectKind, name: string): Buffer {
  return Buffer.from(`relay-sync/1|${kind}|${name}`, 'utf8');
}

/** An object as it goes to the storage: deflated, then sealed. */
export function sealObject(
  keys: SyncKeys,
  kind: ObjectKind,
  name: string,
  plain: Uint8Array,
): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, nonce);
  cipher.setAAD(associatedData(kind, name));
  const body = Buffer.concat([cipher.update(deflateRawSync(plain)), cipher.final()]);
  return Buffer.concat([MAGIC, Buffer.from([KIND_BYTE[kind]]), nonce, body, cipher.getAuthTag()]);
}

/** An object that is not ours, is damaged, or was sealed with another key or under another name. */
export class SealedObjectError extends Error {
  override readonly name = 'SealedObjectError';
  constructor(
    readonly objectName: string,
    readonly reason: 'foreign' | 'damaged',
  ) {
    super(`${objectName} is ${reason === 'foreign' ? 'not a sync object' : 'damaged'}`);
  }
}

/** Opens an object read from the storage; throws `SealedObjectError` naming it when it cannot. */
export function openObject(
  keys: SyncKeys,
  kind: ObjectKind,
  name: string,
  sealed: Uint8Array,
): Buffer {
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (
    bytes.length < HEADER_BYTES + TAG_BYTES ||
    !bytes.subarray(0, MAGIC.length).equals(MAGIC) ||
    bytes[MAGIC.length] !== KIND_BYTE[kind]
  )
    throw new SealedObjectError(name, 'foreign');
  try {
    const nonce = bytes.subarray(MAGIC.length + 1, HEADER_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', keys.seal, nonce);
    decipher.setAAD(associatedData(kind, name));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const deflated = Buffer.concat([
      decipher.update(bytes.subarray(HEADER_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return inflateRawSync(deflated, { maxOutputLength: 512 * 1024 * 1024 });
  } catch {
    throw new SealedObjectError(name, 'damaged');
  }
}
