/**
 * The one place the app asks the system to open a file in the app for its type (Electron's
 * `shell.openPath`). Nothing else calls the desktop's `openPath`.
 *
 * It opens only two kinds of file, and never a type that runs rather than shows
 * (`launch-types.ts`):
 * - a copy main writes itself of a file the app keeps (a sent attachment), into a folder of its
 *   own: random, made afresh (never one that already exists), readable by this user only, under
 *   the user data folder, its files created new (never through a link), all of it removed when
 *   the app closes;
 * - a file the person chose on this computer, in main's dialog or by a drop (a knowledge base's
 *   file), once the caller has checked it is one.
 * A file of a type that runs is shown in its folder instead, and the caller says why.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DesktopShell } from '../../app-context';
import { isLaunchType } from './launch-types';

/** Where the copies opened live, in the user data folder. */
export const OPENED_COPIES_FOLDER = 'opened-copies';

/** What became of a file: opened, shown in its folder instead, or refused by the system. */
export type OpenOutcome =
  | { outcome: 'opened'; path: string }
  | { outcome: 'shown'; path: string }
  | { outcome: 'failed'; path: string; problem: string };

export class FileOpener {
  readonly #desktop: Pick<DesktopShell, 'openPath' | 'showInFolder'>;
  readonly #root: string;
  #session: Promise<string> | undefined;

  constructor(desktop: Pick<DesktopShell, 'openPath' | 'showInFolder'>, userDataDir: string) {
    this.#desktop = desktop;
    this.#root = join(userDataDir, OPENED_COPIES_FOLDER);
  }

  /** Whether this computer can open files at all (there is a desktop). */
  get canOpen(): boolean {
    return this.#desktop.openPath !== undefined;
  }

  /**
   * Writes `data` as a new file named `name` (already made safe by the caller: no folder, no
   * device) in a folder of its own, and opens it.
   */
  async openCopy(name: string, data: Uint8Array): Promise<OpenOutcome> {
    const folder = await mkdtemp(join(await this.#sessionFolder(), 'copy-'));
    const path = join(folder, name);
    // Created new, or not at all: never over a file or through a link already there.
    const handle = await open(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    return this.#launch(path);
  }

  /** Opens a file the person chose on this computer (the caller checked it is one). */
  openChosen(path: string): Promise<OpenOutcome> {
    return this.#launch(path);
  }

  /** Removes every copy written in this session. */
  async close(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    const folder = await session?.catch(() => undefined);
    if (folder !== undefined) await rm(folder, { recursive: true, force: true }).catch(() => {});
  }

  /**
   * This session's folder: made at the first copy, after removing what an earlier run left (one
   * that stopped before it could). Random and new, mode 0700, so no one else can have made it.
   */
  #sessionFolder(): Promise<string> {
    this.#session ??= (async () => {
      const found = await lstat(this.#root).catch(() => undefined);
      if (found !== undefined) await rm(this.#root, { recursive: true, force: true });
      await mkdir(this.#root, { mode: 0o700 });
      return mkdtemp(join(this.#root, 'session-'));
    })();
    this.#session.catch(() => {
      this.#session = undefined;
    });
    return this.#session;
  }

  async #launch(path: string): Promise<OpenOutcome> {
    if (isLaunchType(path)) {
      this.#desktop.showInFolder(path);
      return { outcome: 'shown', path };
    }
    if (this.#desktop.openPath === undefined) return { outcome: 'failed', path, problem: '' };
    const problem = await this.#desktop.openPath(path);
    return problem === '' ? { outcome: 'opened', path } : { outcome: 'failed', path, problem };
  }
}
