/**
 * "Open at login" on Linux: an XDG autostart entry, `relay-desktop.desktop` in
 * `$XDG_CONFIG_HOME/autostart` (`~/.config/autostart`), which desktop sessions that follow the
 * XDG Autostart specification (GNOME, KDE, Xfce, Cinnamon, MATE, LXQt) start at login. macOS and
 * Windows keep login items themselves (`app.setLoginItemSettings`, in `platform/desktop-shell.ts`).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../data-files';

export const AUTOSTART_FILE = 'relay-desktop.desktop';

/** The argument an app started at login gets: it starts in the tray when it has one. */
export const LOGIN_START_FLAG = '--hidden';

/** `$XDG_CONFIG_HOME/autostart`, or `~/.config/autostart` when it is unset or not absolute. */
export function autostartFolder(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  const config = env['XDG_CONFIG_HOME'];
  return join(config && config.startsWith('/') ? config : join(home, '.config'), 'autostart');
}

/**
 * One argument of an `Exec` line, quoted as the Desktop Entry Specification asks: in double
 * quotes when it holds a reserved character, with `"`, `` ` ``, `$` and `\` escaped inside; then
 * `%` doubled (field codes) and every `\` doubled again (the file's own string escaping).
 */
export function execArgument(argument: string): string {
  let quoted = argument;
  if (quoted === '' || /[\s"'\\><~|&;$*?#()`]/.test(quoted)) {
    quoted = `"${quoted.replace(/(["`$\\])/g, '\\$1')}"`;
  }
  return quoted.replace(/%/g, '%%').replace(/\\/g, '\\\\');
}

export interface AutostartEntry {
  /** The program: the AppImage file (`$APPIMAGE`) or the installed executable. */
  command: string;
  args: readonly string[];
  name: string;
  comment: string;
  /** An icon name of the icon theme, or a path. */
  icon: string;
}

/** The text of the autostart entry; line breaks in any value are refused (they would add keys). */
export function autostartEntryText(entry: AutostartEntry): string {
  for (const value of [entry.command, ...entry.args, entry.name, entry.comment, entry.icon]) {
    if (/[\r\n]/.test(value)) throw new Error('An autostart entry cannot hold a line break.');
  }
  const exec = [entry.command, ...entry.args].map(execArgument).join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    `Name=${entry.name}`,
    `Comment=${entry.comment}`,
    `Exec=${exec}`,
    `Icon=${entry.icon}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Writes the entry (atomically) or removes it. */
export async function setAutostart(
  folder: string,
  entry: AutostartEntry | undefined,
): Promise<void> {
  const file = join(folder, AUTOSTART_FILE);
  if (entry === undefined) {
    await rm(file, { force: true });
    return;
  }
  await writeFileAtomic(file, autostartEntryText(entry), { mode: 0o644 });
}

/**
 * Whether the entry is there and not switched off (a session's settings may keep the file and set
 * `Hidden=true` or `X-GNOME-Autostart-enabled=false` when the person turns it off there).
 */
export async function autostartEnabled(folder: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(join(folder, AUTOSTART_FILE), 'utf8');
  } catch {
    return false;
  }
  return (
    !/^Hidden\s*=\s*true\s*$/im.test(text) &&
    !/^X-GNOME-Autostart-enabled\s*=\s*false\s*$/im.test(text)
  );
}
