/**
 * The processes MCP servers run in: the one seam through which the app starts and ends them.
 *
 * A local server is often a launcher (`npx`, `uvx`) that starts the real server as its child, so
 * ending "the server" means ending its whole tree. On macOS and Linux each server starts as the
 * leader of a process group of its own (`detached`), and the tree ends with a signal to the group
 * (`kill(-pgid)`); on Windows `taskkill /T` ends the tree. Tests use the real host: they start
 * real servers and check that no process survives.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn as nodeSpawn } from 'node:child_process';
import { access, constants, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import crossSpawn from 'cross-spawn';

export interface SpawnOptions {
  env: Record<string, string>;
  cwd?: string | undefined;
}

export interface ProcessHost {
  readonly platform: NodeJS.Platform;
  /** The app's own environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
  /**
   * Starts a process with piped stdin, stdout and stderr, as the leader of a group of its own
   * where the system has groups. A `.cmd` or `.bat` on Windows runs through `cmd.exe`, quoted.
   */
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
  /** Ends a process and every process it started (its group, or its tree on Windows). */
  killTree(pid: number, signal: 'SIGTERM' | 'SIGKILL'): void;
  /** Whether a process (or, on POSIX, any process of its group) is still running. */
  isRunning(pid: number): boolean;
  /** Whether a path is a file this user may run. */
  isExecutable(path: string): Promise<boolean>;
  /** The names in a folder; none when it cannot be read. */
  list(folder: string): Promise<string[]>;
}

/** The host of the machine the app runs on. */
export function nodeProcessHost(): ProcessHost {
  const platform = process.platform;
  return {
    platform,
    env: process.env,
    homedir: homedir(),
    spawn(command, args, { env, cwd }) {
      const options = {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
        // A group of its own on POSIX, so the whole tree can be ended at once; on Windows a
        // detached child would get a console of its own, and taskkill /T ends the tree anyway.
        detached: platform !== 'win32',
      };
      // cross-spawn quotes for cmd.exe when the command is a .cmd or .bat (npx.cmd on Windows);
      // elsewhere it is Node's own spawn.
      return platform === 'win32'
        ? crossSpawn(command, [...args], options)
        : nodeSpawn(command, [...args], options);
    },
    killTree(pid, signal) {
      if (platform === 'win32') {
        const killer = nodeSpawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
          stdio: 'ignore',
          windowsHide: true,
        });
        killer.on('error', () => undefined);
        return;
      }
      try {
        process.kill(-pid, signal);
      } catch {
        // The group is gone already; the leader alone, if it left its group.
        try {
          process.kill(pid, signal);
        } catch {
          // Gone.
        }
      }
    },
    isRunning(pid) {
      try {
        process.kill(platform === 'win32' ? pid : -pid, 0);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
    async isExecutable(path) {
      try {
        if (!(await stat(path)).isFile()) return false;
        if (platform === 'win32') return true;
        await access(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    async list(folder) {
      try {
        return await readdir(folder);
      } catch {
        return [];
      }
    },
  };
}

/**
 * What a server inherits from the app's environment: what a program needs to find the person's
 * home, temp folder and terminal, nothing else (the app's own variables stay with it). Its PATH
 * and its own variables are added on top.
 */
const INHERITED_WINDOWS = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PROGRAMFILES',
  'ProgramFiles',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'SystemRoot',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'PATHEXT',
  'COMSPEC',
  'ComSpec',
];
const INHERITED_POSIX = [
  'HOME',
  'LOGNAME',
  'USER',
  'SHELL',
  'TERM',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
];

export function inheritedEnvironment(
  host: Pick<ProcessHost, 'env' | 'platform'>,
): Record<string, string> {
  const names = host.platform === 'win32' ? INHERITED_WINDOWS : INHERITED_POSIX;
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = host.env[name];
    // A value that starts like a shell function definition is not passed on.
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return env;
}
