/** The keys of a menu (the conversation row's "⋯" menu): the WAI-ARIA menu pattern. */
import { describe, expect, it } from 'vitest';
import {
  menuKey,
  opensContextMenu,
  type MenuPlace,
} from '../../../renderer/src/components/menu-keys';

const LABELS = ['Rename', 'Pin', 'Export', 'Delete'];

function place(at: number, changes: Partial<MenuPlace> = {}): MenuPlace {
  return {
    labels: LABELS,
    enabled: LABELS.map(() => true),
    at,
    opensSubmenu: LABELS[at] === 'Export',
    nested: false,
    ...changes,
  };
}

describe('a menu’s keys', () => {
  it('moves down and up, round the ends', () => {
    expect(menuKey({ key: 'ArrowDown' }, place(0))).toEqual({ kind: 'focus', index: 1 });
    expect(menuKey({ key: 'ArrowDown' }, place(3))).toEqual({ kind: 'focus', index: 0 });
    expect(menuKey({ key: 'ArrowUp' }, place(0))).toEqual({ kind: 'focus', index: 3 });
    expect(menuKey({ key: 'ArrowUp' }, place(2))).toEqual({ kind: 'focus', index: 1 });
    // Nothing focused yet: Down goes to the first, Up to the last.
    expect(menuKey({ key: 'ArrowDown' }, place(-1))).toEqual({ kind: 'focus', index: 0 });
    expect(menuKey({ key: 'ArrowUp' }, place(-1))).toEqual({ kind: 'focus', index: 3 });
  });

  it('jumps with Home and End, and passes over disabled items', () => {
    const enabled = [false, true, true, false];
    expect(menuKey({ key: 'Home' }, place(2, { enabled }))).toEqual({ kind: 'focus', index: 1 });
    expect(menuKey({ key: 'End' }, place(1, { enabled }))).toEqual({ kind: 'focus', index: 2 });
    expect(menuKey({ key: 'ArrowDown' }, place(2, { enabled }))).toEqual({
      kind: 'focus',
      index: 1,
    });
    expect(menuKey({ key: 'ArrowUp' }, place(1, { enabled }))).toEqual({ kind: 'focus', index: 2 });
    expect(menuKey({ key: 'Enter' }, place(0, { enabled }))).toEqual({ kind: 'ignore' });
  });

  it('runs an item with Enter or Space, and opens a submenu with them or Right', () => {
    expect(menuKey({ key: 'Enter' }, place(1))).toEqual({ kind: 'run' });
    expect(menuKey({ key: ' ' }, place(3))).toEqual({ kind: 'run' });
    expect(menuKey({ key: 'Enter' }, place(2))).toEqual({ kind: 'open-submenu' });
    expect(menuKey({ key: ' ' }, place(2))).toEqual({ kind: 'open-submenu' });
    expect(menuKey({ key: 'ArrowRight' }, place(2))).toEqual({ kind: 'open-submenu' });
    // Right on an item without a submenu does nothing.
    expect(menuKey({ key: 'ArrowRight' }, place(1))).toEqual({ kind: 'ignore' });
  });

  it('closes with Escape or Tab; in a submenu, Escape and Left go back to its parent', () => {
    expect(menuKey({ key: 'Escape' }, place(1))).toEqual({ kind: 'close' });
    expect(menuKey({ key: 'Tab' }, place(1))).toEqual({ kind: 'close' });
    expect(menuKey({ key: 'Tab', shiftKey: true }, place(1))).toEqual({ kind: 'close' });
    expect(menuKey({ key: 'ArrowLeft' }, place(1))).toEqual({ kind: 'ignore' });
    const sub = { labels: ['Markdown', 'JSON'], enabled: [true, true], nested: true };
    expect(menuKey({ key: 'Escape' }, place(0, sub))).toEqual({ kind: 'leave-submenu' });
    expect(menuKey({ key: 'ArrowLeft' }, place(1, sub))).toEqual({ kind: 'leave-submenu' });
    expect(menuKey({ key: 'ArrowDown' }, place(1, sub))).toEqual({ kind: 'focus', index: 0 });
  });

  it('goes to the next item starting with a typed letter, round the end', () => {
    const labels = ['Rename', 'Pin', 'Export', 'Delete', 'Print'];
    const enabled = labels.map(() => true);
    expect(menuKey({ key: 'p' }, place(0, { labels, enabled }))).toEqual({
      kind: 'focus',
      index: 1,
    });
    expect(menuKey({ key: 'P' }, place(1, { labels, enabled }))).toEqual({
      kind: 'focus',
      index: 4,
    });
    expect(menuKey({ key: 'p' }, place(4, { labels, enabled }))).toEqual({
      kind: 'focus',
      index: 1,
    });
    expect(menuKey({ key: 'z' }, place(0, { labels, enabled }))).toEqual({ kind: 'ignore' });
  });

  it('leaves keys with a modifier and other keys to the browser', () => {
    expect(menuKey({ key: 'ArrowDown', ctrlKey: true }, place(0))).toEqual({ kind: 'ignore' });
    expect(menuKey({ key: 'p', metaKey: true }, place(0))).toEqual({ kind: 'ignore' });
    expect(menuKey({ key: 'F5' }, place(0))).toEqual({ kind: 'ignore' });
  });
});

describe('opening a row’s menu from the keyboard', () => {
  it('opens on the context-menu key and on Shift+F10 only', () => {
    expect(opensContextMenu({ key: 'ContextMenu' })).toBe(true);
    expect(opensContextMenu({ key: 'F10', shiftKey: true })).toBe(true);
    expect(opensContextMenu({ key: 'F10' })).toBe(false);
    expect(opensContextMenu({ key: 'F10', shiftKey: true, ctrlKey: true })).toBe(false);
    expect(opensContextMenu({ key: 'Enter' })).toBe(false);
  });
});
