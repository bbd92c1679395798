/**
 * The grants main issues for files the person dropped (see `shared/ipc/file-grants.ts`): a random
 * id for each path the preload read from a drop, bound to the window that asked and to one
 * purpose, taken once, and forgotten after a minute. Kept in memory only.
 */
import { randomBytes } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { GrantPurpose } from '../../../shared/ipc/file-grants';
import { AppError } from '../app-error';
import { said } from '../words';

/** How long a grant can be used: a drop is handed over at once. */
export const GRANT_LIFETIME_MS = 60_000;
/** The most grants kept at once; the oldest go first. */
const MAX_KEPT = 1_000;

interface Grant {
  path: string;
  webContentsId: number;
  purpose: GrantPurpose;
  expiresAt: number;
}

/** Who asks: the window (its web contents) and what for. */
export interface GrantHolder {
  webContentsId: number;
  purpose: GrantPurpose;
}

export class FileGrants {
  readonly #grants = new Map<string, Grant>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** One grant per path (each absolute, as the preload reads them from a drop), in order. */
  issue(paths: readonly string[], holder: GrantHolder): string[] {
    if (paths.some((path) => !isAbsolute(path)))
      throw new AppError('invalid_request', said('files.dropNotOnDisk'));
    this.#forgetExpired();
    const expiresAt = this.#now() + GRANT_LIFETIME_MS;
    return paths.map((path) => {
      const id = randomBytes(24).toString('base64url');
      this.#grants.set(id, { path, expiresAt, ...holder });
      if (this.#grants.size > MAX_KEPT) {
        const oldest = this.#grants.keys().next().value;
        if (oldest !== undefined) this.#grants.delete(oldest);
      }
      return id;
    });
  }

  /**
   * The paths of grants issued to this window for this purpose and not used yet, in order; each
   * is used up. One that was never issued, has expired, was used, or belongs to another window or
   * purpose refuses the whole call, and none of them is used.
   */
  take(ids: readonly string[], holder: GrantHolder): string[] {
    this.#forgetExpired();
    const found = ids.map((id) => this.#grants.get(id));
    const valid = found.every(
      (grant, index) =>
        grant !== undefined &&
        grant.webContentsId === holder.webContentsId &&
        grant.purpose === holder.purpose &&
        ids.indexOf(ids[index]!) === index,
    );
    if (!valid) throw new AppError('invalid_request', said('files.dropExpired'));
    for (const id of ids) this.#grants.delete(id);
    return found.map((grant) => grant!.path);
  }

  #forgetExpired(): void {
    const now = this.#now();
    for (const [id, grant] of this.#grants) if (grant.expiresAt <= now) this.#grants.delete(id);
  }
}
