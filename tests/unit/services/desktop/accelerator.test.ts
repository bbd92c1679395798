/** The quick ask shortcut: read before the system is asked, and shown as each system shows keys. */
import { describe, expect, it } from 'vitest';
import {
  acceleratorLabel,
  readAccelerator,
} from '../../../../electron/main/services/desktop/accelerator';
import { errorText } from '../../../../electron/main/services/words';

describe('a global shortcut', () => {
  it.each([
    'Ctrl+V',
    'CommandOrControl+C',
    'Command+Shift+Z',
    'Alt+Tab',
    'Command+Tab',
    'Super+Tab',
    'Alt+`',
    'Alt+F4',
    'Command+Q',
    'Ctrl+W',
    'Command+Space',
    'Ctrl+Alt+Delete',
  ])('refuses %s, a chord the system and every app rely on', (input) => {
    expect(readAccelerator(input)).toMatchObject({
      ok: false,
      problem: { id: 'desktop.shortcut.systemChord' },
    });
  });

  it.each(['Ctrl+Alt+V', 'Ctrl+Alt+Space', 'Super+K', 'Ctrl+Alt+Q', 'Super+Shift+K'])(
    'takes %s, which is no system chord',
    (input) => {
      expect(readAccelerator(input).ok).toBe(true);
    },
  );

  it.each([
    ['CommandOrControl+Alt+Space', 'CommandOrControl+Alt+Space'],
    ['cmdorctrl+alt+space', 'CommandOrControl+Alt+Space'],
    ['Alt+Ctrl+Q', 'Control+Alt+Q'],
    ['Shift+Super+k', 'Shift+Super+K'],
    ['Option+Command+Plus', 'Command+Alt+Plus'],
    ['Ctrl+F12', 'Control+F12'],
    ['Ctrl+Shift+/', 'Control+Shift+/'],
    ['Meta+Return', 'Super+Enter'],
  ])('reads %s as %s', (input, canonical) => {
    expect(readAccelerator(input)).toMatchObject({ ok: true, accelerator: canonical });
  });

  it.each([
    ['', /Press the keys/],
    ['Space', /Use Ctrl, Alt, Command or Super/],
    ['Shift+A', /Use Ctrl, Alt, Command or Super/],
    ['Ctrl+Alt', /Add a key/],
    ['Ctrl+A+B', /one key besides its modifiers, not A and B/],
    ['A+Ctrl', /Modifiers come before the key/],
    ['Ctrl+Hyper', /“Hyper” is not a key/],
    ['Ctrl++', /write the plus key as Plus/],
    ['Ctrl+Escape', /Escape closes the quick window/],
    ['Ctrl+F25', /“F25” is not a key/],
  ])('refuses %j, saying why', (input, message) => {
    const read = readAccelerator(input);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.problem.english).toMatch(message);
  });

  it('says why by key, so each language can say it', () => {
    const read = readAccelerator('Ctrl+A+B');
    if (read.ok) throw new Error('read');
    expect(read.problem).toMatchObject({
      id: 'desktop.shortcut.twoKeys',
      values: { first: 'A', second: 'B' },
    });
    expect(errorText('de', read.problem.id, read.problem.values)).toBe(
      'Ein Tastenkürzel hat neben den Sondertasten nur eine Taste, nicht A und B.',
    );
  });
});

describe('a shortcut as the system shows it', () => {
  it('uses the symbols of macOS in their order', () => {
    expect(acceleratorLabel('CommandOrControl+Alt+Space', 'darwin')).toBe('⌥⌘Space');
    expect(acceleratorLabel('Shift+Control+K', 'darwin')).toBe('⌃⇧K');
  });

  it('names the keys on Windows and Linux', () => {
    expect(acceleratorLabel('CommandOrControl+Alt+Space', 'win32')).toBe('Ctrl+Alt+Space');
    expect(acceleratorLabel('CommandOrControl+Alt+Space', 'linux')).toBe('Ctrl+Alt+Space');
    expect(acceleratorLabel('Super+Shift+K', 'linux')).toBe('Shift+Super+K');
    expect(acceleratorLabel('Super+K', 'win32')).toBe('Win+K');
  });

  it('shows what does not read as it was written', () => {
    expect(acceleratorLabel('Hyper+K', 'linux')).toBe('Hyper+K');
  });
});
