import { describe, expect, it } from 'vitest';
import {
  SHORTCUTS,
  SCREEN_COMMANDS,
  SHORTCUT_COMMANDS,
  chordKeys,
  chordText,
  matchShortcut,
  menuAccelerator,
  shortcutPlatform,
  type KeyPress,
} from '../../../electron/shared/shortcuts';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  ...extra,
});

describe('the shortcut table', () => {
  it('has every command once, with a key on every platform, and no two commands on one key', () => {
    for (const id of SHORTCUT_COMMANDS) {
      expect(SHORTCUTS.filter((s) => s.id === id && s.scope === 'command')).toHaveLength(1);
    }
    for (const platform of ['mac', 'windows', 'linux'] as const) {
      const accelerators = SHORTCUT_COMMANDS.map((id) => menuAccelerator(id, platform));
      expect(accelerators.every(Boolean)).toBe(true);
      expect(new Set(accelerators).size).toBe(accelerators.length);
    }
  });

  it('reads the platform from Node and from the browser', () => {
    expect(shortcutPlatform('darwin')).toBe('mac');
    expect(shortcutPlatform('MacIntel')).toBe('mac');
    expect(shortcutPlatform('macOS')).toBe('mac');
    expect(shortcutPlatform('win32')).toBe('windows');
    expect(shortcutPlatform('Windows')).toBe('windows');
    expect(shortcutPlatform('Linux x86_64')).toBe('linux');
    expect(shortcutPlatform(undefined)).toBe('linux');
  });

  it('gives the menu Electron accelerators', () => {
    expect(menuAccelerator('newChat', 'mac')).toBe('CommandOrControl+N');
    expect(menuAccelerator('openSettings', 'linux')).toBe('CommandOrControl+,');
    expect(menuAccelerator('showShortcuts', 'windows')).toBe('CommandOrControl+/');
    expect(menuAccelerator('stopGenerating', 'mac')).toBe('Escape');
    expect(menuAccelerator('nothing', 'mac')).toBeUndefined();
  });

  it('names the keys as each platform prints and says them', () => {
    const newChat = { key: 'n', mod: true };
    expect(chordKeys(newChat, 'mac')).toEqual(['⌘', 'N']);
    expect(chordKeys(newChat, 'windows')).toEqual(['Ctrl', 'N']);
    expect(chordText(newChat, 'mac')).toBe('Command+N');
    expect(chordText({ key: 'Enter', shift: true }, 'linux')).toBe('Shift+Return');
    expect(chordKeys({ key: 'Escape' }, 'linux')).toEqual(['Esc']);
  });
});

describe('matching a key press', () => {
  it('uses Command on macOS and Control elsewhere', () => {
    expect(matchShortcut(press('n', { metaKey: true }), 'mac')).toBe('newChat');
    expect(matchShortcut(press('n', { ctrlKey: true }), 'mac')).toBeUndefined();
    expect(matchShortcut(press('n', { ctrlKey: true }), 'linux')).toBe('newChat');
    expect(matchShortcut(press('n', { metaKey: true }), 'windows')).toBeUndefined();
    expect(matchShortcut(press('N', { ctrlKey: true, shiftKey: true }), 'linux')).toBeUndefined();
    expect(matchShortcut(press('k', { ctrlKey: true, altKey: true }), 'linux')).toBeUndefined();
  });

  it('finds every command on its own keys', () => {
    const ctrl = { ctrlKey: true };
    expect(matchShortcut(press('k', ctrl), 'linux')).toBe('searchConversations');
    expect(matchShortcut(press(',', ctrl), 'linux')).toBe('openSettings');
    expect(matchShortcut(press('1', ctrl), 'linux')).toBe('showChat');
    expect(matchShortcut(press('p', ctrl), 'linux')).toBe('newChatFromPrompt');
    expect(matchShortcut(press('/', ctrl), 'linux')).toBe('showShortcuts');
    expect(matchShortcut(press('?', { shiftKey: true }), 'linux')).toBe('showShortcuts');
    expect(matchShortcut(press('Escape'), 'linux')).toBe('stopGenerating');
  });

  it('numbers the screens in the order the rail shows them', () => {
    const ctrl = { ctrlKey: true };
    // Mod+1 to Mod+9 reach the first nine; Settings, the tenth, is Mod+, alone.
    const reached = SCREEN_COMMANDS.slice(0, 9).map((_, index) =>
      matchShortcut(press(String(index + 1), ctrl), 'linux'),
    );
    expect(reached).toEqual(SCREEN_COMMANDS.slice(0, 9).map(([command]) => command));
    expect(matchShortcut(press(',', ctrl), 'linux')).toBe(SCREEN_COMMANDS[9]?.[0]);
    expect(SCREEN_COMMANDS.map(([, screen]) => screen)).toEqual([
      'chat',
      'prompts',
      'knowledge',
      'models',
      'embeddings',
      'images',
      'tools',
      'usage',
      'connections',
      'settings',
    ]);
  });

  it('finds digits and punctuation on layouts that need Shift for them', () => {
    // AZERTY: the 1 key gives "&" unless Shift is held.
    expect(matchShortcut(press('&', { code: 'Digit1', ctrlKey: true }), 'linux')).toBe('showChat');
    // German: "/" is Shift+7.
    expect(matchShortcut(press('/', { ctrlKey: true, shiftKey: true }), 'linux')).toBe(
      'showShortcuts',
    );
  });

  it('lets a printable key type in a text field, but not Escape or Control combinations', () => {
    const inTextField = { inTextField: true };
    expect(matchShortcut(press('?', { shiftKey: true }), 'linux', inTextField)).toBeUndefined();
    expect(matchShortcut(press('1'), 'linux', inTextField)).toBeUndefined();
    expect(matchShortcut(press('Escape'), 'linux', inTextField)).toBe('stopGenerating');
    expect(matchShortcut(press('1', { ctrlKey: true }), 'linux', inTextField)).toBe('showChat');
  });

  it('leaves the composer keys to the composer', () => {
    expect(matchShortcut(press('Enter'), 'linux')).toBeUndefined();
    expect(matchShortcut(press('Enter', { shiftKey: true }), 'linux')).toBeUndefined();
  });
});
