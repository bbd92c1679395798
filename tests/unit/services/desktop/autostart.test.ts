/**
 * "Open at login" on Linux: the XDG autostart entry written to a real (temporary) config folder,
 * read back the way a desktop session reads it.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AUTOSTART_FILE,
  autostartEnabled,
  autostartEntryText,
  autostartFolder,
  execArgument,
  setAutostart,
  type AutostartEntry,
} from '../../../../electron/main/services/desktop/autostart';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'relay-autostart-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const entry: AutostartEntry = {
  command: '/opt/Relay Desktop/relay-desktop',
  args: ['--hidden'],
  name: 'Relay Desktop',
  comment: 'Start Relay Desktop in the tray',
  icon: 'relay-desktop',
};

/** The `Exec` value as a session splits it: string unescaping, then the spec's quoting rules. */
function execArguments(text: string): string[] {
  const exec = /^Exec=(.*)$/m.exec(text)?.[1] ?? '';
  const unescaped = exec.replace(/\\\\/g, '\\').replace(/%%/g, '%');
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < unescaped.length; i++) {
    const char = unescaped[i]!;
    if (quoted && char === '\\') {
      current += unescaped[++i] ?? '';
    } else if (char === '"') {
      quoted = !quoted;
      started = true;
    } else if (char === ' ' && !quoted) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

describe('the autostart folder', () => {
  it('is $XDG_CONFIG_HOME/autostart, or ~/.config/autostart', () => {
    expect(autostartFolder({ XDG_CONFIG_HOME: '/xdg' }, '/home/a')).toBe('/xdg/autostart');
    expect(autostartFolder({}, '/home/a')).toBe('/home/a/.config/autostart');
    // The specification ignores a relative value.
    expect(autostartFolder({ XDG_CONFIG_HOME: 'rel' }, '/home/a')).toBe(
      '/home/a/.config/autostart',
    );
  });
});

describe('the autostart entry', () => {
  it('starts the program with its arguments, as a session reads the Exec line back', () => {
    const tricky = ['/home/a/Apps/Relay "Desktop" $1 `x` 100%\\.AppImage', '--hidden'];
    const text = autostartEntryText({ ...entry, command: tricky[0]!, args: [tricky[1]!] });
    expect(execArguments(text)).toEqual(tricky);
    expect(text).toMatch(/^\[Desktop Entry\]\nType=Application\n/);
    expect(text).toContain('Name=Relay Desktop\n');
    expect(text).toContain('X-GNOME-Autostart-enabled=true\n');
  });

  it('leaves plain arguments unquoted and quotes the rest', () => {
    expect(execArgument('/usr/bin/relay-desktop')).toBe('/usr/bin/relay-desktop');
    expect(execArgument('/opt/Relay Desktop/relay-desktop')).toBe(
      '"/opt/Relay Desktop/relay-desktop"',
    );
    expect(execArgument('')).toBe('""');
  });

  it('refuses a value with a line break, which would add keys to the file', () => {
    expect(() => autostartEntryText({ ...entry, name: 'Relay\nExec=evil' })).toThrow(/line break/);
  });

  it('is written, read as on, and removed', async () => {
    const folder = autostartFolder({}, home);
    expect(await autostartEnabled(folder)).toBe(false);
    await setAutostart(folder, entry);
    const file = join(folder, AUTOSTART_FILE);
    expect(await readFile(file, 'utf8')).toBe(autostartEntryText(entry));
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    expect(await autostartEnabled(folder)).toBe(true);
    await setAutostart(folder, undefined);
    expect(await autostartEnabled(folder)).toBe(false);
    // Removing what is not there is not an error.
    await setAutostart(folder, undefined);
  });

  it('reads an entry a session switched off as off', async () => {
    const folder = autostartFolder({}, home);
    await setAutostart(folder, entry);
    const file = join(folder, AUTOSTART_FILE);
    await writeFile(file, `${await readFile(file, 'utf8')}Hidden=true\n`);
    expect(await autostartEnabled(folder)).toBe(false);
  });
});
