/**
 * Storage the person already has, behind one small interface: a folder (Dropbox, iCloud Drive,
 * Nextcloud, Syncthing), WebDAV, or S3-compatible storage.
 *
 * The engine alone chooses the names (`h/…`, `o/…`, `s/…`, `b/…` and `keyring`, see
 * sync-crypto.ts), never overwrites an object another device wrote, and reads back what each
 * upload stored by its size in the next listing: a target does four plain things well and says
 * exactly what went wrong when it cannot (`TargetError`).
 */
import type { Said } from '../../words';

export interface StoredObject {
  name: string;
  size: number;
}

export interface Listing {
  objects: StoredObject[];
  /** The storage's own time when it answered (an HTTP Date header), to measure this clock against. */
  serverTime?: Date;
}

export interface SyncTarget {
  /** What it is, for logs and the person: "WebDAV at https://dav.example/relay". */
  readonly description: string;
  /** The objects whose names start with `prefix` ("h/"); a prefix never written lists none. */
  list(prefix: string): Promise<Listing>;
  /** The object's bytes, or undefined when there is none by that name. */
  get(name: string): Promise<Uint8Array | undefined>;
  /**
   * Stores an object under a name not yet taken. 'exists' when the name was taken already and
   * the storage said so (a folder always can; WebDAV and S3 servers that honour
   * `If-None-Match: *` can, others overwrite: the engine's names are its own and never reused
   * for other bytes, so an overwrite writes what was there).
   */
  putIfAbsent(name: string, bytes: Uint8Array): Promise<'written' | 'exists'>;
  /** Deletes an object; deleting one that is not there is not an error. */
  delete(name: string): Promise<void>;
}

/** Each way a storage can fail, which says what the person can do about it. */
export type TargetProblem =
  | 'auth' // 401: the user name, password, key or secret is wrong
  | 'forbidden' // 403: signed in, but not allowed there
  | 'not_found' // the folder, collection or bucket is not there
  | 'tls' // the certificate is not trusted, expired or for another name
  | 'full' // 507, ENOSPC, a quota
  | 'too_large' // 413: the server refuses objects that big
  | 'timeout' // no answer in time
  | 'unreachable' // DNS, refused, reset: cannot get there
  | 'rate_limited' // 429, S3's SlowDown
  | 'server' // 5xx
  | 'not_writable' // a folder without write permission
  | 'unexpected'; // an answer that fits none of these

/** Problems that pass by themselves: sync tries again later, with backoff. */
export const PASSING_PROBLEMS: ReadonlySet<TargetProblem> = new Set([
  'timeout',
  'unreachable',
  'rate_limited',
  'server',
  'full',
]);

export class TargetError extends Error {
  override readonly name = 'TargetError';
  constructor(
    readonly problem: TargetProblem,
    /** The sentence for the person, with the fix, in main's catalogue. */
    readonly said: Said,
    readonly status?: number,
  ) {
    super(said.english);
  }

  get passing(): boolean {
    return PASSING_PROBLEMS.has(this.problem);
  }
}
