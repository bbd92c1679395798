/**
 * The app's keyboard shortcuts: one table for the renderer (which matches key presses against it
 * and lists it in the shortcut sheet) and for the application menu (which shows the same keys as
 * accelerators and, when an item is chosen, asks the renderer to run the command by its id).
 *
 * Plain data and pure functions: no Electron, Node or DOM, so every process can load it.
 *
 * Conventions: `mod` is Command on macOS and Control on Windows and Linux. Search is Mod+K rather
 * than Mod+F: Mod+F means "find in this page" in every browser and editor, while Mod+K is what
 * chat apps (Slack, Discord, ChatGPT) use to jump to a conversation, which is what it does here.
 */

export const SHORTCUT_PLATFORMS = ['mac', 'windows', 'linux'] as const;
export type ShortcutPlatform = (typeof SHORTCUT_PLATFORMS)[number];

/** One key combination. */
export interface KeyChord {
  /** `KeyboardEvent.key`: a lower-case letter, a digit, a punctuation mark, or a named key. */
  readonly key: string;
  /** Command on macOS, Control elsewhere. */
  readonly mod?: boolean;
  readonly shift?: boolean;
  readonly alt?: boolean;
}

/** The commands the menu can ask the renderer to run (the `shellCommand` event's ids). */
export const SHORTCUT_COMMANDS = [
  'newChat',
  'newChatFromPrompt',
  'searchConversations',
  'stopGenerating',
  'toggleConversations',
  'openSettings',
  'showChat',
  'showPrompts',
  'showKnowledge',
  'showModels',
  'showEmbeddings',
  'showImages',
  'showTools',
  'showUsage',
  'showConnections',
  'showShortcuts',
  'focusNotice',
] as const;
export type ShortcutCommand = (typeof SHORTCUT_COMMANDS)[number];

/** Keys of the message box: handled there, listed in the sheet only. */
export type ComposerKey = 'sendMessage' | 'newLine' | 'sendWhenEnterIsNewLine';

interface ShortcutBase {
  /** What it does, as the shortcut sheet and the menu name it. */
  readonly label: string;
  readonly group: 'General' | 'Screens' | 'Chat';
  /** The first is the one a menu shows; the others work too and are listed in the sheet. */
  readonly keys: readonly KeyChord[];
  /** Keys that differ on one platform. */
  readonly platformKeys?: Partial<Record<ShortcutPlatform, readonly KeyChord[]>>;
}

/**
 * A `command` is app-wide: the renderer runs it on its keys and on the menu's request. A
 * `composer` key belongs to the message box.
 */
export type Shortcut =
  | (ShortcutBase & { readonly id: ShortcutCommand; readonly scope: 'command' })
  | (ShortcutBase & { readonly id: ComposerKey; readonly scope: 'composer' });

const mod = (key: string): KeyChord => ({ key, mod: true });

/**
 * The screens in the order of the sidebar, with the command that shows each: Mod+1 is the first,
 * Mod+9 the ninth; Settings, the tenth, has Mod+, alone.
 */
export const SCREEN_COMMANDS = [
  ['showChat', 'chat'],
  ['showPrompts', 'prompts'],
  ['showKnowledge', 'knowledge'],
  ['showModels', 'models'],
  ['showEmbeddings', 'embeddings'],
  ['showImages', 'images'],
  ['showTools', 'tools'],
  ['showUsage', 'usage'],
  ['showConnections', 'connections'],
  ['openSettings', 'settings'],
] as const satisfies readonly (readonly [ShortcutCommand, string])[];

const screenKey = (
  id: ShortcutCommand & `show${string}`,
  label: string,
  digit: string,
): Shortcut => ({
  id,
  label,
  group: 'Screens',
  scope: 'command',
  keys: [mod(digit)],
});

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'newChat', label: 'New chat', group: 'General', scope: 'command', keys: [mod('n')] },
  {
    id: 'newChatFromPrompt',
    label: 'New chat from a prompt',
    group: 'General',
    scope: 'command',
    keys: [mod('p')],
  },
  {
    id: 'searchConversations',
    label: 'Search conversations',
    group: 'General',
    scope: 'command',
    keys: [mod('k')],
  },
  {
    id: 'openSettings',
    label: 'Settings',
    group: 'General',
    scope: 'command',
    keys: [mod(',')],
  },
  {
    id: 'showShortcuts',
    label: 'Keyboard shortcuts',
    group: 'General',
    scope: 'command',
    keys: [mod('/'), { key: '?' }],
  },
  {
    id: 'focusNotice',
    label: 'Go to the latest notice',
    group: 'General',
    scope: 'command',
    keys: [{ key: 'F6' }],
  },
  // Mod+1 to Mod+9 follow the screens' order in the sidebar; Settings, the tenth, is Mod+,.
  { id: 'showChat', label: 'Go to Chat', group: 'Screens', scope: 'command', keys: [mod('1')] },
  screenKey('showPrompts', 'Go to Prompts', '2'),
  screenKey('showKnowledge', 'Go to Knowledge', '3'),
  screenKey('showModels', 'Go to Models', '4'),
  screenKey('showEmbeddings', 'Go to Embeddings', '5'),
  screenKey('showImages', 'Go to Images', '6'),
  screenKey('showTools', 'Go to Tools', '7'),
  screenKey('showUsage', 'Go to Usage', '8'),
  screenKey('showConnections', 'Go to Connections', '9'),
  {
    id: 'stopGenerating',
    label: 'Stop generating',
    group: 'Chat',
    scope: 'command',
    keys: [{ key: 'Escape' }],
  },
  {
    id: 'toggleConversations',
    label: 'Show or hide the conversation list',
    group: 'Chat',
    scope: 'command',
    keys: [{ key: 's', mod: true, shift: true }],
  },
  {
    id: 'sendMessage',
    label: 'Send the message',
    group: 'Chat',
    scope: 'composer',
    keys: [{ key: 'Enter' }],
  },
  {
    id: 'newLine',
    label: 'New line in the message',
    group: 'Chat',
    scope: 'composer',
    keys: [{ key: 'Enter', shift: true }],
  },
  {
    id: 'sendWhenEnterIsNewLine',
    label: 'Send, when "Enter sends" is off',
    group: 'Chat',
    scope: 'composer',
    keys: [mod('Enter')],
  },
];

export function isShortcutCommand(id: string): id is ShortcutCommand {
  return (SHORTCUT_COMMANDS as readonly string[]).includes(id);
}

/** The platform from `process.platform`, `navigator.userAgentData.platform` or `navigator.platform`. */
export function shortcutPlatform(name: string | undefined): ShortcutPlatform {
  const lower = (name ?? '').toLowerCase();
  if (lower.startsWith('mac') || lower === 'darwin' || /^(iphone|ipad)/.test(lower)) return 'mac';
  if (lower.startsWith('win')) return 'windows';
  return 'linux';
}

export function keysFor(shortcut: Shortcut, platform: ShortcutPlatform): readonly KeyChord[] {
  return shortcut.platformKeys?.[platform] ?? shortcut.keys;
}

export function shortcutById(id: string): Shortcut | undefined {
  return SHORTCUTS.find((shortcut) => shortcut.id === id);
}

const ACCELERATOR_KEYS: Record<string, string> = {
  Escape: 'Escape',
  Enter: 'Return',
  ',': ',',
  '/': '/',
  '?': '?',
};

/**
 * The Electron accelerator of a command's first key ("CommandOrControl+N", "Escape"), for the
 * menu; undefined for an id that is not in the table.
 */
export function menuAccelerator(id: string, platform: ShortcutPlatform): string | undefined {
  const shortcut = shortcutById(id);
  const chord = shortcut && keysFor(shortcut, platform)[0];
  if (!chord) return undefined;
  const parts: string[] = [];
  if (chord.mod) parts.push('CommandOrControl');
  if (chord.alt) parts.push('Alt');
  if (chord.shift) parts.push('Shift');
  parts.push(ACCELERATOR_KEYS[chord.key] ?? chord.key.toUpperCase());
  return parts.join('+');
}

const KEY_NAMES: Record<string, { mac: string; other: string; spoken: string }> = {
  Escape: { mac: 'Esc', other: 'Esc', spoken: 'Escape' },
  Enter: { mac: '↩', other: 'Enter', spoken: 'Return' },
  ',': { mac: ',', other: ',', spoken: 'Comma' },
  '/': { mac: '/', other: '/', spoken: 'Slash' },
  '?': { mac: '?', other: '?', spoken: 'Question mark' },
};

/**
 * A key's English name ("Ctrl", "Shift", "Enter", "Return", "Question mark") in the language
 * shown: the renderer passes its translation ("Strg", "Umschalt"); symbols and letters are kept.
 */
export type KeyNamer = (english: string) => string;
const asIs: KeyNamer = (english) => english;
/** A word, not a symbol or a single letter or digit. */
const isWord = (cap: string) => /^[A-Za-z][A-Za-z ]+$/.test(cap);

/**
 * The key caps of a chord as the platform prints them: ["⌘", "N"] on macOS, ["Ctrl", "N"]
 * elsewhere (["Strg", "N"] with a German `name`).
 */
export function chordKeys(
  chord: KeyChord,
  platform: ShortcutPlatform,
  name: KeyNamer = asIs,
): string[] {
  const mac = platform === 'mac';
  const caps: string[] = [];
  if (chord.mod) caps.push(mac ? '⌘' : 'Ctrl');
  if (chord.alt) caps.push(mac ? '⌥' : 'Alt');
  if (chord.shift) caps.push(mac ? '⇧' : 'Shift');
  const named = KEY_NAMES[chord.key];
  caps.push(named ? (mac ? named.mac : named.other) : chord.key.toUpperCase());
  return caps.map((cap) => (isWord(cap) ? name(cap) : cap));
}

/** A chord spelled out for a screen reader: "Command+N", "Ctrl+Shift+Return". */
export function chordText(
  chord: KeyChord,
  platform: ShortcutPlatform,
  name: KeyNamer = asIs,
): string {
  const mac = platform === 'mac';
  const words: string[] = [];
  if (chord.mod) words.push(mac ? 'Command' : 'Ctrl');
  if (chord.alt) words.push(mac ? 'Option' : 'Alt');
  if (chord.shift) words.push('Shift');
  words.push(KEY_NAMES[chord.key]?.spoken ?? chord.key.toUpperCase());
  return words.map((word) => (isWord(word) ? name(word) : word)).join('+');
}

/** What a key press looks like: the fields of a DOM `KeyboardEvent` that matter here. */
export interface KeyPress {
  key: string;
  code?: string;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** A character on its own: typing it means text, not a command, in a text field. */
function isPrintable(key: string): boolean {
  return [...key].length === 1;
}

function matches(chord: KeyChord, press: KeyPress, platform: ShortcutPlatform): boolean {
  const mod = platform === 'mac' ? press.metaKey : press.ctrlKey;
  const other = platform === 'mac' ? press.ctrlKey : press.metaKey;
  if (mod !== Boolean(chord.mod) || other || press.altKey !== Boolean(chord.alt)) return false;
  const key = chord.key;
  if (/^[0-9]$/.test(key)) {
    // Layouts such as AZERTY need Shift for digits: the key's position says which digit it is.
    return press.key === key || press.code === `Digit${key}`;
  }
  if (/^[a-z]$/.test(key)) {
    return press.key.toLowerCase() === key && press.shiftKey === Boolean(chord.shift);
  }
  if (!isPrintable(key)) {
    return (
      (press.key === key || (key === 'Escape' && press.key === 'Esc')) &&
      press.shiftKey === Boolean(chord.shift)
    );
  }
  // Punctuation: whether Shift is needed to type it depends on the layout.
  return press.key === key;
}

/**
 * The command a key press asks for, or undefined.
 *
 * `inTextField`: the press happened where typing goes (an input, a text area). A printable key
 * without a modifier (`?`) types there; Escape and Command/Control combinations still count.
 */
export function matchShortcut(
  press: KeyPress,
  platform: ShortcutPlatform,
  { inTextField = false }: { inTextField?: boolean } = {},
): ShortcutCommand | undefined {
  for (const id of SHORTCUT_COMMANDS) {
    const shortcut = shortcutById(id);
    if (!shortcut) continue;
    for (const chord of keysFor(shortcut, platform)) {
      if (inTextField && !chord.mod && !chord.alt && isPrintable(chord.key)) continue;
      if (matches(chord, press, platform)) return id;
    }
  }
  return undefined;
}
