/**
 * Finding a server's command as the person's terminal does: the login shell's PATH (read once,
 * safely, with a time limit), the app's own PATH, the usual install places; and, when it is not
 * there, every folder looked in.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  CommandSearch,
  installHintFor,
  parseMarked,
} from '../../../../electron/main/services/mcp/command-search';
import type { ProcessHost } from '../../../../electron/main/services/mcp/processes';

const MARK = '__RELAY_DESKTOP_PATH__';

/** A host whose files and login shell are scripted. */
function hostOf(options: {
  platform?: NodeJS.Platform;
  env?: Record<string, string>;
  files?: string[];
  folders?: Record<string, string[]>;
  shellOutput?: string | 'hang';
  spawned?: string[][];
  killed?: number[];
}): ProcessHost {
  const files = new Set(options.files ?? []);
  return {
    platform: options.platform ?? 'linux',
    env: options.env ?? { PATH: '/usr/bin:/bin', SHELL: '/bin/zsh' },
    homedir: options.platform === 'win32' ? 'C:\\Users\\ana' : '/home/ana',
    spawn(command, args) {
      options.spawned?.push([command, ...args]);
      const child = new EventEmitter() as ChildProcess;
      const stdout = new PassThrough();
      Object.assign(child, {
        pid: 4242,
        stdout,
        stderr: new PassThrough(),
        stdin: new PassThrough(),
      });
      if (options.shellOutput !== 'hang')
        setImmediate(() => {
          stdout.end(options.shellOutput ?? '');
          setImmediate(() => child.emit('close', 0, null));
        });
      return child;
    },
    killTree: (pid) => void options.killed?.push(pid),
    isRunning: () => false,
    isExecutable: async (path) => files.has(path),
    list: async (folder) => options.folders?.[folder] ?? [],
  };
}

describe('the login shell’s PATH', () => {
  it('is read once, between markers, whatever the shell prints around it', async () => {
    const spawned: string[][] = [];
    const host = hostOf({
      spawned,
      shellOutput: `Welcome to zsh!\n${MARK}\n/home/ana/.nvm/versions/node/v22.1.0/bin:/opt/homebrew/bin:/usr/bin\n${MARK}\n% `,
      files: ['/home/ana/.nvm/versions/node/v22.1.0/bin/npx'],
    });
    const search = new CommandSearch(host);
    expect(await search.find('npx')).toEqual({
      ok: true,
      path: '/home/ana/.nvm/versions/node/v22.1.0/bin/npx',
    });
    await search.find('uvx');
    expect(spawned).toEqual([['/bin/zsh', '-ilc', `echo ${MARK}; printenv PATH; echo ${MARK}`]]);
    // The server gets the same PATH, so a launcher finds what it runs (npx needs node).
    expect(
      (await search.pathValue()).startsWith(
        '/home/ana/.nvm/versions/node/v22.1.0/bin:/opt/homebrew/bin:/usr/bin:',
      ),
    ).toBe(true);
  });

  it('is given up after its time limit, the shell ended, and the search goes on', async () => {
    const killed: number[] = [];
    const search = new CommandSearch(
      hostOf({ shellOutput: 'hang', killed, files: ['/usr/bin/uvx'] }),
      50,
    );
    expect(await search.find('uvx')).toEqual({ ok: true, path: '/usr/bin/uvx' });
    expect(killed).toEqual([4242]);
  });

  it('takes nothing from output that is not one marked PATH', () => {
    expect(parseMarked('no markers here')).toEqual([]);
    expect(parseMarked(`${MARK}\n${MARK}`)).toEqual([]);
    expect(parseMarked(`${MARK}\n/a/bin\nrm -rf /\n${MARK}`)).toEqual([]);
    expect(parseMarked(`${MARK}\n/a/bin:relative/bin:/b/bin\n${MARK}`)).toEqual([
      '/a/bin',
      '/b/bin',
    ]);
  });
});

describe('finding a command', () => {
  it('looks in the usual places too: nvm’s newest Node first, Homebrew, bun, uv', async () => {
    const host = hostOf({
      env: { PATH: '/usr/bin:/bin' },
      folders: { '/home/ana/.nvm/versions/node': ['v18.20.0', 'v22.11.0', 'v20.5.1'] },
      files: [
        '/home/ana/.nvm/versions/node/v20.5.1/bin/npx',
        '/home/ana/.nvm/versions/node/v22.11.0/bin/npx',
        '/home/ana/.local/bin/uvx',
        '/opt/homebrew/bin/bunx',
      ],
    });
    const search = new CommandSearch(host);
    expect(await search.find('npx')).toEqual({
      ok: true,
      path: '/home/ana/.nvm/versions/node/v22.11.0/bin/npx',
    });
    expect(await search.find('uvx')).toEqual({ ok: true, path: '/home/ana/.local/bin/uvx' });
    expect(await search.find('bunx')).toEqual({ ok: true, path: '/opt/homebrew/bin/bunx' });
  });

  it('says every folder it looked in when the command is nowhere', async () => {
    const found = await new CommandSearch(hostOf({ env: { PATH: '/usr/bin:/bin' } })).find('npx');
    expect(found.ok).toBe(false);
    const looked = found.ok ? [] : found.looked;
    expect(looked.slice(0, 2)).toEqual(['/usr/bin', '/bin']);
    expect(looked).toEqual(
      expect.arrayContaining(['/home/ana/.volta/bin', '/opt/homebrew/bin', '/home/ana/.bun/bin']),
    );
    expect(new Set(looked).size).toBe(looked.length);
  });

  it('takes a path as it is given, and a path that is not there is not found', async () => {
    const search = new CommandSearch(hostOf({ files: ['/opt/tools/server'] }));
    expect(await search.find('/opt/tools/server')).toEqual({ ok: true, path: '/opt/tools/server' });
    expect(await search.find('/opt/tools/missing')).toEqual({ ok: false, looked: ['/opt/tools'] });
  });

  it('on Windows finds npx.cmd by PATHEXT, in the npm folder, without a login shell', async () => {
    const spawned: string[][] = [];
    const host = hostOf({
      platform: 'win32',
      spawned,
      env: {
        PATH: 'C:\\Windows\\system32',
        PATHEXT: '.COM;.EXE;.BAT;.CMD',
        APPDATA: 'C:\\Users\\ana\\AppData\\Roaming',
      },
      files: ['C:\\Users\\ana\\AppData\\Roaming\\npm\\npx.cmd'],
    });
    expect(await new CommandSearch(host).find('npx')).toEqual({
      ok: true,
      path: 'C:\\Users\\ana\\AppData\\Roaming\\npm\\npx.cmd',
    });
    expect(spawned).toEqual([]);
  });
});

describe('the fix a "not found" names', () => {
  it.each([
    ['npx', 'node'],
    ['/usr/local/bin/node', 'node'],
    ['uvx', 'uv'],
    ['bunx', 'bun'],
    ['python3', 'python'],
    ['npx.cmd', 'node'],
    ['docker', 'docker'],
    ['my-server', 'other'],
  ])('%s → %s', (command, hint) => {
    expect(installHintFor(command)).toBe(hint);
  });
});
