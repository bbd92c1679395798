/** Recording the quick ask shortcut: key presses as Electron accelerators, whatever the layout. */
import { describe, expect, it } from 'vitest';
import {
  recordKeys,
  type KeyPress,
} from '../../../renderer/src/features/settings/accelerator-keys';

const press = (code: string, mods: Partial<Omit<KeyPress, 'code'>> = {}): KeyPress => ({
  code,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

describe('a recorded shortcut', () => {
  it('names the keys by position, with the modifiers Electron knows', () => {
    expect(recordKeys(press('Space', { ctrlKey: true, altKey: true }), false)).toEqual({
      kind: 'accelerator',
      accelerator: 'Control+Alt+Space',
    });
    expect(recordKeys(press('KeyK', { metaKey: true, shiftKey: true }), false)).toEqual({
      kind: 'accelerator',
      accelerator: 'Super+Shift+K',
    });
    expect(recordKeys(press('Digit1', { ctrlKey: true }), false)).toMatchObject({
      accelerator: 'Control+1',
    });
    expect(recordKeys(press('F13', {}), false)).toMatchObject({ accelerator: 'F13' });
    expect(recordKeys(press('ArrowUp', { altKey: true }), false)).toMatchObject({
      accelerator: 'Alt+Up',
    });
    expect(recordKeys(press('Slash', { ctrlKey: true }), false)).toMatchObject({
      accelerator: 'Control+/',
    });
  });

  it('calls the keys Command and Control on a Mac', () => {
    expect(recordKeys(press('Space', { metaKey: true, altKey: true }), true)).toEqual({
      kind: 'accelerator',
      accelerator: 'Command+Alt+Space',
    });
    expect(recordKeys(press('KeyJ', { ctrlKey: true }), true)).toMatchObject({
      accelerator: 'Control+J',
    });
  });

  it('waits past modifiers alone, cancels on Escape, and ignores keys it cannot name', () => {
    expect(recordKeys(press('ControlLeft', { ctrlKey: true }), false)).toEqual({ kind: 'waiting' });
    expect(recordKeys(press('AltRight', { altKey: true }), false)).toEqual({ kind: 'waiting' });
    expect(recordKeys(press('Escape', { ctrlKey: true }), false)).toEqual({ kind: 'cancel' });
    expect(recordKeys(press('IntlBackslash', { ctrlKey: true }), false)).toEqual({
      kind: 'unknown',
    });
  });
});
