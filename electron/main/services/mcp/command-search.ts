/**
 * Finding a server's command the way the person's terminal finds it.
 *
 * An app opened from the Dock, the Start menu or a desktop launcher does not get the PATH the
 * person's shell builds (nvm, Homebrew, uv and bun add themselves in `.zshrc` or `.bashrc`), so
 * `npx` or `uvx` that work in a terminal are "not found" by a plain spawn. The search path here is,
 * in order: the login shell's PATH (read once, by running `$SHELL -ilc` with a time limit, on macOS
 * and Linux), the app's own PATH, then the usual places Node, Python/uv, bun, Volta, nvm and
 * Homebrew install to. The server is started with that PATH too, so a launcher finds what it runs
 * (`npx` needs `node`).
 */
import { delimiter, isAbsolute, join, posix, win32 } from 'node:path';
import type { ProcessHost } from './processes';

/** How long the login shell may take to say its PATH. */
export const LOGIN_SHELL_TIMEOUT_MS = 5000;
const MARK = '__RELAY_DESKTOP_PATH__';

export type CommandFound = { ok: true; path: string } | { ok: false; looked: string[] };

export class CommandSearch {
  readonly #host: ProcessHost;
  #loginPath: Promise<string[]> | undefined;
  readonly #timeoutMs: number;

  constructor(host: ProcessHost, timeoutMs = LOGIN_SHELL_TIMEOUT_MS) {
    this.#host = host;
    this.#timeoutMs = timeoutMs;
  }

  /** The folders searched, in order, without repeats: the PATH a server is started with. */
  async folders(): Promise<string[]> {
    const { platform, env } = this.#host;
    const sep = platform === 'win32' ? ';' : platform === process.platform ? delimiter : ':';
    const own = (env.PATH ?? env.Path ?? '').split(sep);
    const login = platform === 'win32' ? [] : await this.#loginShellPath();
    const usual = await this.#usualFolders();
    return [...new Set([...login, ...own, ...usual].filter((folder) => folder.trim() !== ''))];
  }

  /** The PATH value for a server's environment. */
  async pathValue(): Promise<string> {
    return (await this.folders()).join(this.#host.platform === 'win32' ? ';' : ':');
  }

  /** The command's full path, or every folder it was looked for in. */
  async find(command: string): Promise<CommandFound> {
    const host = this.#host;
    const paths = host.platform === 'win32' ? win32 : posix;
    if (command.includes('/') || (host.platform === 'win32' && command.includes('\\'))) {
      const full =
        paths.isAbsolute(command) || isAbsolute(command)
          ? command
          : paths.resolve(host.homedir, command);
      for (const candidate of this.#candidates(full))
        if (await host.isExecutable(candidate)) return { ok: true, path: candidate };
      return { ok: false, looked: [paths.dirname(full)] };
    }
    const folders = await this.folders();
    for (const folder of folders)
      for (const candidate of this.#candidates(paths.join(folder, command)))
        if (await host.isExecutable(candidate)) return { ok: true, path: candidate };
    return { ok: false, looked: folders };
  }

  /** The names a command may have on disk: on Windows with each of PATHEXT's extensions. */
  #candidates(path: string): string[] {
    if (this.#host.platform !== 'win32') return [path];
    const extensions = (this.#host.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD')
      .split(';')
      .filter((ext) => ext !== '');
    if (extensions.some((ext) => path.toLowerCase().endsWith(ext.toLowerCase()))) return [path];
    return [...extensions.map((ext) => path + ext.toLowerCase()), path];
  }

  /** The login shell's PATH, read once; none when it cannot be read in time. */
  #loginShellPath(): Promise<string[]> {
    this.#loginPath ??= this.#readLoginShellPath();
    return this.#loginPath;
  }

  async #readLoginShellPath(): Promise<string[]> {
    const host = this.#host;
    const shell = host.env.SHELL && isAbsolute(host.env.SHELL) ? host.env.SHELL : undefined;
    if (shell === undefined) return [];
    // Markers around the value: an interactive shell may print a greeting or a prompt. printenv
    // is a program, so every shell (bash, zsh, fish) reads this command the same way.
    const script = `echo ${MARK}; printenv PATH; echo ${MARK}`;
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(host.env))
      if (value !== undefined) env[name] = value;
    // Plugin managers that update themselves on start would otherwise hold the shell up.
    env.DISABLE_AUTO_UPDATE = 'true';
    env.ZSH_DISABLE_COMPFIX = 'true';
    return new Promise((resolve) => {
      let out = '';
      let settled = false;
      const done = (folders: string[]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(folders);
      };
      let child: ReturnType<ProcessHost['spawn']>;
      try {
        child = host.spawn(shell, ['-ilc', script], { env, cwd: host.homedir });
      } catch {
        done([]);
        return;
      }
      const timer = setTimeout(() => {
        if (child.pid !== undefined) host.killTree(child.pid, 'SIGKILL');
        done([]);
      }, this.#timeoutMs);
      child.stdin?.end();
      child.stdout?.on('data', (chunk: Buffer) => {
        if (out.length < 256 * 1024) out += chunk.toString('utf8');
      });
      child.stderr?.resume();
      child.on('error', () => done([]));
      child.on('close', () => done(parseMarked(out)));
    });
  }

  /** Where Node, Python/uv, bun, Volta, nvm and Homebrew put their commands. */
  async #usualFolders(): Promise<string[]> {
    const { platform, homedir: home, env } = this.#host;
    if (platform === 'win32') {
      const appData = env.APPDATA ?? join(home, 'AppData', 'Roaming');
      const local = env.LOCALAPPDATA ?? join(home, 'AppData', 'Local');
      const programs = env.ProgramFiles ?? env.PROGRAMFILES ?? 'C:\\Program Files';
      return [
        win32.join(appData, 'npm'),
        win32.join(programs, 'nodejs'),
        win32.join(local, 'Volta', 'bin'),
        win32.join(home, '.bun', 'bin'),
        win32.join(home, '.local', 'bin'),
        win32.join(home, '.cargo', 'bin'),
        win32.join(local, 'Microsoft', 'WindowsApps'),
      ];
    }
    const nvm = join(env.NVM_DIR ?? join(home, '.nvm'), 'versions', 'node');
    // Every Node nvm installed, newest first (the person's default is usually the newest).
    const nodes = (await this.#host.list(nvm))
      .filter((name) => /^v\d+/.test(name))
      .sort(compareVersions)
      .reverse()
      .map((version) => join(nvm, version, 'bin'));
    return [
      join(home, '.local', 'bin'),
      join(home, '.volta', 'bin'),
      join(home, '.bun', 'bin'),
      join(home, '.deno', 'bin'),
      join(home, '.cargo', 'bin'),
      join(home, '.local', 'share', 'fnm', 'aliases', 'default', 'bin'),
      join(home, '.fnm', 'aliases', 'default', 'bin'),
      join(home, '.asdf', 'shims'),
      join(home, '.local', 'share', 'mise', 'shims'),
      join(home, '.pyenv', 'shims'),
      ...nodes,
      '/opt/homebrew/bin',
      '/opt/homebrew/sbin',
      '/usr/local/bin',
      '/home/linuxbrew/.linuxbrew/bin',
      '/usr/bin',
      '/bin',
      '/usr/sbin',
      '/sbin',
      '/snap/bin',
    ];
  }
}

/** The PATH between the markers, split; none when the markers are not both there. */
export function parseMarked(output: string): string[] {
  const first = output.indexOf(MARK);
  const last = output.lastIndexOf(MARK);
  if (first === -1 || last <= first) return [];
  const value = output.slice(first + MARK.length, last).trim();
  // One line: a PATH never holds a newline; anything else printed in between is not trusted.
  if (value === '' || value.includes('\n')) return [];
  return value.split(':').filter((folder) => isAbsolute(folder));
}

function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^v/, '').split('.').map(Number);
  const pb = b.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** What installs a command people commonly give, for the "not found" message's fix. */
export function installHintFor(
  command: string,
): 'node' | 'uv' | 'bun' | 'python' | 'deno' | 'docker' | 'other' {
  const name = command
    .replace(/\\/g, '/')
    .split('/')
    .pop()!
    .toLowerCase()
    .replace(/\.(exe|cmd|bat)$/, '');
  if (['npx', 'npm', 'node', 'pnpm', 'yarn', 'corepack'].includes(name)) return 'node';
  if (['uv', 'uvx'].includes(name)) return 'uv';
  if (['bun', 'bunx'].includes(name)) return 'bun';
  if (['python', 'python3', 'pip', 'pip3', 'pipx'].includes(name)) return 'python';
  if (name === 'deno') return 'deno';
  if (name === 'docker') return 'docker';
  return 'other';
}
