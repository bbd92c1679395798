/**
 * The one opener: the list of types that run rather than show, read as each system reads a name,
 * and the opener that never opens one of them, writes its copies privately and removes them.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FileOpener,
  OPENED_COPIES_FOLDER,
} from '../../../../electron/main/services/files/file-opener';
import { isLaunchType, launchTypeOf } from '../../../../electron/main/services/files/launch-types';

describe('the types that run', () => {
  it.each([
    'setup.exe',
    'run.hta',
    'x.vbs',
    'x.bat',
    'x.cmd',
    'x.ps1',
    'x.js',
    'x.lnk',
    'x.url',
    'x.reg',
    'x.jar',
    'x.msi',
    'Tool.app',
    'install.command',
    'x.pkg',
    'x.desktop',
    'x.sh',
    'x.AppImage',
    'page.html',
    'Quarterly report.pdf.exe',
    // As Windows reads them: trailing dots and spaces dropped, a stream name after a colon.
    'x.exe.',
    'x.exe . .',
    'x.exe:stream',
    'C:\\Users\\a\\x.SCR',
  ])('%s is one', (name) => {
    expect(isLaunchType(name)).toBe(true);
  });

  it.each(['notes.txt', 'report.pdf', 'photo.jpeg', 'table.csv', 'README', 'x.exe.txt', '.bashrc'])(
    '%s is not',
    (name) => {
      expect(isLaunchType(name)).toBe(false);
    },
  );

  it('reads the type a system goes by', () => {
    expect(launchTypeOf('a/b/Report.PDF')).toBe('pdf');
    expect(launchTypeOf('x.tar.gz')).toBe('gz');
    expect(launchTypeOf('noextension')).toBe('');
  });
});

describe('the opener', () => {
  let dir: string;
  const opened: string[] = [];
  const shown: string[] = [];
  const desktop = {
    openPath: async (path: string) => (opened.push(path), ''),
    showInFolder: (path: string) => void shown.push(path),
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'relay-opener-'));
    opened.length = 0;
    shown.length = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('shows a type that runs in its folder instead of opening it', async () => {
    const opener = new FileOpener(desktop, dir);
    expect(await opener.openChosen('/home/a/deploy.sh')).toEqual({
      outcome: 'shown',
      path: '/home/a/deploy.sh',
    });
    expect((await opener.openCopy('x.exe', new Uint8Array([1]))).outcome).toBe('shown');
    expect(opened).toEqual([]);
    expect(shown).toHaveLength(2);
  });

  it('writes each copy new, for this user only, and removes them all when closed', async () => {
    const opener = new FileOpener(desktop, dir);
    const first = await opener.openCopy('notes.txt', new TextEncoder().encode('one'));
    const second = await opener.openCopy('notes.txt', new TextEncoder().encode('two'));
    expect([first.outcome, second.outcome]).toEqual(['opened', 'opened']);
    expect(first.path).not.toBe(second.path);
    expect(basename(first.path)).toBe('notes.txt');
    expect(first.path.startsWith(join(dir, OPENED_COPIES_FOLDER))).toBe(true);
    expect((await stat(first.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(first.path, '..', '..'))).mode & 0o077).toBe(0);
    await opener.close();
    expect(await readdir(join(dir, OPENED_COPIES_FOLDER))).toEqual([]);
  });

  it('removes what an earlier run left before its first copy', async () => {
    const earlier = new FileOpener(desktop, dir);
    const left = await earlier.openCopy('left.txt', new Uint8Array([1]));
    const opener = new FileOpener(desktop, dir);
    await opener.openCopy('new.txt', new Uint8Array([2]));
    await expect(stat(left.path)).rejects.toThrow();
    await opener.close();
  });

  it('says so when the system refuses, and when there is no desktop to open with', async () => {
    const refusing = new FileOpener({ ...desktop, openPath: async () => 'No app for it' }, dir);
    expect(await refusing.openChosen('/home/a/notes.txt')).toMatchObject({
      outcome: 'failed',
      problem: 'No app for it',
    });
    const none = new FileOpener({ showInFolder: desktop.showInFolder }, dir);
    expect(none.canOpen).toBe(false);
  });
});
