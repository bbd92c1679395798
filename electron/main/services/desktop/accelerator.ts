/**
 * Global shortcuts as Electron's `globalShortcut` takes them ("accelerators", such as
 * `CommandOrControl+Alt+Space`): read with a message of main's catalogue for each mistake (its key,
 * values and English, `said`, shown in the person's language), written in one canonical
 * form, and shown the way each system shows keys (`Ctrl+Alt+Space`, `⌥⌘Space`).
 *
 * Plain functions: `globalShortcut.register` itself can only say yes or no, so everything that
 * can be said before asking it is said here.
 */

import { said, type Said } from '../words';

const MODIFIERS = {
  commandorcontrol: 'CommandOrControl',
  cmdorctrl: 'CommandOrControl',
  command: 'Command',
  cmd: 'Command',
  control: 'Control',
  ctrl: 'Control',
  alt: 'Alt',
  option: 'Alt',
  altgr: 'AltGr',
  shift: 'Shift',
  super: 'Super',
  meta: 'Super',
} as const;
type Modifier = (typeof MODIFIERS)[keyof typeof MODIFIERS];

/** The order modifiers are written and shown in. */
const MODIFIER_ORDER: readonly Modifier[] = [
  'CommandOrControl',
  'Command',
  'Control',
  'Alt',
  'AltGr',
  'Shift',
  'Super',
];

const NAMED_KEYS: Record<string, string> = {
  space: 'Space',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  insert: 'Insert',
  return: 'Enter',
  enter: 'Enter',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  escape: 'Escape',
  esc: 'Escape',
  plus: 'Plus',
  printscreen: 'PrintScreen',
};

const PUNCTUATION = new Set([...'`-=[]\\;\',./~!@#$%^&*()_{}|:"<>?']);

export type AcceleratorRead =
  | { ok: true; accelerator: string; modifiers: Modifier[]; key: string }
  | { ok: false; problem: Said };

function keyOf(part: string): string | undefined {
  const lower = part.toLowerCase();
  if (/^[a-z0-9]$/i.test(part)) return part.toUpperCase();
  if (/^f([1-9]|1\d|2[0-4])$/.test(lower)) return lower.toUpperCase();
  if (NAMED_KEYS[lower] !== undefined) return NAMED_KEYS[lower];
  if (/^num[0-9]$/.test(lower)) return lower;
  if (part.length === 1 && PUNCTUATION.has(part)) return part;
  return undefined;
}

/**
 * Reads an accelerator for a global shortcut: modifiers then exactly one key, with at least one of
 * Ctrl, Alt, Command or Super (a shortcut of Shift and a letter would take that capital letter
 * from every other app). Escape is refused: it closes the quick window. So are the system's own
 * chords (`isSystemChord`): copy, paste, switching windows…
 */
export function readAccelerator(text: string): AcceleratorRead {
  const value = text.trim();
  if (value === '') return { ok: false, problem: said('desktop.shortcut.empty') };
  // `+` is the separator, so the plus key itself is written `Plus`.
  const parts = value.split('+').map((part) => part.trim());
  if (parts.some((part) => part === '')) {
    return { ok: false, problem: said('desktop.shortcut.emptyPart', { value }) };
  }
  const modifiers: Modifier[] = [];
  let key: string | undefined;
  for (const part of parts) {
    const modifier = MODIFIERS[part.toLowerCase() as keyof typeof MODIFIERS];
    if (modifier !== undefined) {
      if (key !== undefined) return { ok: false, problem: said('desktop.shortcut.modifiersFirst') };
      if (!modifiers.includes(modifier)) modifiers.push(modifier);
      continue;
    }
    const named = keyOf(part);
    if (named === undefined)
      return { ok: false, problem: said('desktop.shortcut.unknownKey', { key: part }) };
    if (key !== undefined) {
      return {
        ok: false,
        problem: said('desktop.shortcut.twoKeys', { first: key, second: named }),
      };
    }
    key = named;
  }
  if (key === undefined) {
    return { ok: false, problem: said('desktop.shortcut.noKey') };
  }
  if (key === 'Escape') return { ok: false, problem: said('desktop.shortcut.escape') };
  const strong = modifiers.some((m) => m !== 'Shift');
  if (!strong) {
    return { ok: false, problem: said('desktop.shortcut.noStrongModifier') };
  }
  const ordered = MODIFIER_ORDER.filter((m) => modifiers.includes(m));
  const accelerator = [...ordered, key].join('+');
  if (isSystemChord(ordered, key))
    return { ok: false, problem: said('desktop.shortcut.systemChord', { keys: accelerator }) };
  return { ok: true, accelerator, modifiers: ordered, key };
}

const CONTROL_OR_COMMAND: readonly Modifier[] = ['CommandOrControl', 'Control', 'Command'];

/**
 * The system's own chords, which a global shortcut would take from every app (a quick ask on
 * Ctrl+V would get the clipboard of every paste): cut, copy, paste, undo, redo and select all
 * with Ctrl or Command; switching apps and windows (Tab or ` with any modifier); closing and
 * quitting (Alt+F4, Ctrl or Command with W or Q); switching the input language and the system's
 * search (Ctrl, Command or Super with Space alone); Ctrl+Alt+Delete.
 */
export function isSystemChord(modifiers: readonly Modifier[], key: string): boolean {
  const strong = modifiers.filter((m) => m !== 'Shift');
  const oneOf = (allowed: readonly Modifier[]) =>
    strong.length === 1 && allowed.includes(strong[0]!);
  if (['C', 'V', 'X', 'Z', 'Y', 'A', 'Insert'].includes(key) && oneOf(CONTROL_OR_COMMAND))
    return true;
  if (key === 'Tab' || key === '`') return true;
  if (key === 'F4' && oneOf(['Alt'])) return true;
  if ((key === 'W' || key === 'Q') && oneOf(CONTROL_OR_COMMAND)) return true;
  if (key === 'Space' && oneOf([...CONTROL_OR_COMMAND, 'Super'])) return true;
  return (
    key === 'Delete' &&
    modifiers.includes('Alt') &&
    (modifiers.includes('Control') || modifiers.includes('CommandOrControl'))
  );
}

const MAC_SYMBOLS: Record<Modifier, string> = {
  Control: '⌃',
  Alt: '⌥',
  AltGr: '⌥',
  Shift: '⇧',
  Command: '⌘',
  CommandOrControl: '⌘',
  Super: '⌘',
};
const MAC_ORDER: readonly Modifier[] = [
  'Control',
  'Alt',
  'AltGr',
  'Shift',
  'CommandOrControl',
  'Command',
  'Super',
];

/** An accelerator as `platform` (`process.platform`) shows keys; as given if it does not read. */
export function acceleratorLabel(text: string, platform: string): string {
  const read = readAccelerator(text);
  if (!read.ok) return text;
  if (platform === 'darwin') {
    const symbols = MAC_ORDER.filter((m) => read.modifiers.includes(m)).map((m) => MAC_SYMBOLS[m]);
    return `${[...new Set(symbols)].join('')}${read.key}`;
  }
  const names = read.modifiers.map((m) => {
    switch (m) {
      case 'CommandOrControl':
      case 'Control':
        return 'Ctrl';
      case 'Command':
      case 'Super':
        return platform === 'win32' ? 'Win' : 'Super';
      default:
        return m;
    }
  });
  return [...new Set(names), read.key].join('+');
}
