/**
 * A folder as sync storage: one that Dropbox, iCloud Drive, OneDrive, Nextcloud or Syncthing keeps
 * in step between computers, or a folder on a NAS.
 *
 * Each object is written whole to a temp file beside its place (fsync), then linked to its name,
 * which fails if the name is taken: a put-if-absent even two computers writing at once cannot
 * break, and a file syncer never sees half an object under a real name. Where the file system
 * has no hard links (FAT, some network drives) it renames instead, after checking the name is
 * free. Listing reads only names the engine writes (a prefix and 32 hex digits): the temp files,
 * and the conflict copies syncers make ("… (conflicted copy …)", ".sync-conflict-…"), are left
 * alone, and since the engine never writes two different objects under one name, a conflict copy
 * never holds anything the original lacks.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { folderProblem } from './problems';
import type { Listing, SyncTarget } from './target';

const OBJECT_NAME = /^(?:[0-9a-f]{32}|keyring)$/;

/** The parts of `node:fs/promises` the folder uses; tests give a full disk through it. */
export type FolderFs = Pick<
  typeof fs,
  'readdir' | 'stat' | 'readFile' | 'open' | 'link' | 'rename' | 'rm' | 'mkdir' | 'access'
>;

export class FolderTarget implements SyncTarget {
  readonly description: string;
  readonly #io: FolderFs;

  constructor(
    readonly root: string,
    io: FolderFs = fs,
  ) {
    this.description = `folder ${root}`;
    this.#io = io;
  }

  #path(name: string): string {
    return join(this.root, ...name.split('/'));
  }

  async #fail<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw folderProblem(error, this.root);
    }
  }

  async #rootExists(): Promise<void> {
    await this.#fail(() => this.#io.access(this.root));
  }

  async list(prefix: string): Promise<Listing> {
    const folder = this.#path(prefix.replace(/\/$/, ''));
    let names: string[];
    try {
      names = await this.#io.readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw folderProblem(error, this.root);
      await this.#rootExists();
      return { objects: [] };
    }
    const objects: Listing['objects'] = [];
    for (const name of names) {
      if (!OBJECT_NAME.test(name)) continue;
      try {
        const info = await this.#io.stat(join(folder, name));
        if (info.isFile()) objects.push({ name: `${prefix}${name}`, size: info.size });
      } catch {
        // Deleted between the listing and the look: not there.
      }
    }
    return { objects };
  }

  async get(name: string): Promise<Uint8Array | undefined> {
    try {
      return await this.#io.readFile(this.#path(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw folderProblem(error, this.root);
      await this.#rootExists();
      return undefined;
    }
  }

  async putIfAbsent(name: string, bytes: Uint8Array): Promise<'written' | 'exists'> {
    await this.#rootExists();
    const path = this.#path(name);
    const folder = dirname(path);
    const temp = join(folder, `.${randomBytes(8).toString('hex')}.tmp`);
    return this.#fail(async () => {
      await this.#io.mkdir(folder, { recursive: true });
      try {
        const handle = await this.#io.open(temp, 'wx', 0o600);
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        try {
          await this.#io.link(temp, path);
          return 'written';
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EEXIST') return 'exists';
          if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS')
            throw error;
          // No hard links here: rename, having checked the name is free.
          try {
            await this.#io.stat(path);
            return 'exists';
          } catch {
            await this.#io.rename(temp, path);
            return 'written';
          }
        }
      } finally {
        await this.#io.rm(temp, { force: true });
      }
    });
  }

  async delete(name: string): Promise<void> {
    await this.#fail(() => this.#io.rm(this.#path(name), { force: true }));
  }
}
