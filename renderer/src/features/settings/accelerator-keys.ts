/**
 * A key press as an Electron accelerator (`Control+Alt+Space`), for recording the quick ask
 * shortcut. Keys come from `KeyboardEvent.code`, so the layout does not change what is recorded;
 * main checks the result again and registers it.
 */

export interface KeyPress {
  code: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

const NAMED: Record<string, string> = {
  Space: 'Space',
  Enter: 'Enter',
  NumpadEnter: 'Enter',
  Tab: 'Tab',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Minus: '-',
  Equal: '=',
  BracketLeft: '[',
  BracketRight: ']',
  Backslash: '\\',
  Semicolon: ';',
  Quote: "'",
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backquote: '`',
  PrintScreen: 'PrintScreen',
};

const MODIFIER_CODES = /^(Control|Alt|Shift|Meta|OS)(Left|Right)?$/;

export type RecordedKeys =
  | { kind: 'accelerator'; accelerator: string }
  /** Only modifiers so far: keep listening. */
  | { kind: 'waiting' }
  | { kind: 'cancel' }
  | { kind: 'unknown' };

/** What a key press records; `mac` names Command and Control as macOS does. */
export function recordKeys(press: KeyPress, mac: boolean): RecordedKeys {
  if (press.code === 'Escape') return { kind: 'cancel' };
  if (MODIFIER_CODES.test(press.code)) return { kind: 'waiting' };
  let key: string | undefined;
  const letter = /^Key([A-Z])$/.exec(press.code);
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(press.code);
  const fn = /^F([1-9]|1\d|2[0-4])$/.exec(press.code);
  if (letter) key = letter[1];
  else if (digit) key = digit[1];
  else if (fn) key = press.code;
  else key = NAMED[press.code];
  if (key === undefined) return { kind: 'unknown' };
  const modifiers: string[] = [];
  if (mac) {
    if (press.metaKey) modifiers.push('Command');
    if (press.ctrlKey) modifiers.push('Control');
  } else {
    if (press.ctrlKey) modifiers.push('Control');
    if (press.metaKey) modifiers.push('Super');
  }
  if (press.altKey) modifiers.push('Alt');
  if (press.shiftKey) modifiers.push('Shift');
  return { kind: 'accelerator', accelerator: [...modifiers, key].join('+') };
}
