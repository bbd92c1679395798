/**
 * What a key does in a menu, after the WAI-ARIA menu pattern, kept apart from the DOM so that it
 * is tested on its own: Down and Up move (round the ends), Home and End jump, a letter goes to the
 * next item starting with it; Enter or Space runs an item or opens its submenu, as Right does;
 * Left leaves a submenu; Escape leaves a submenu, or closes the menu with focus back on its opener;
 * Tab closes it too. Disabled items are skipped.
 */

export interface MenuKey {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

export interface MenuPlace {
  /** The items' visible labels, in order. */
  labels: readonly string[];
  /** Which items can be chosen (a disabled one is passed over). */
  enabled: readonly boolean[];
  /** The focused item's index (-1 when none is). */
  at: number;
  /** Whether the focused item opens a submenu. */
  opensSubmenu: boolean;
  /** Whether this menu is a submenu (Left and Escape go back to its parent). */
  nested: boolean;
}

export type MenuMove =
  | { kind: 'focus'; index: number }
  | { kind: 'run' }
  | { kind: 'open-submenu' }
  | { kind: 'leave-submenu' }
  | { kind: 'close' }
  /** Not the menu's key: left to the browser. */
  | { kind: 'ignore' };

export function menuKey(press: MenuKey, place: MenuPlace): MenuMove {
  const { labels, enabled, at } = place;
  const usable = labels.map((_, index) => index).filter((index) => enabled[index]);
  if (press.ctrlKey || press.metaKey || press.altKey) return { kind: 'ignore' };
  const step = (by: 1 | -1): MenuMove => {
    if (usable.length === 0) return { kind: 'ignore' };
    const from = usable.indexOf(at);
    const next =
      from === -1
        ? by === 1
          ? 0
          : usable.length - 1
        : (from + by + usable.length) % usable.length;
    return { kind: 'focus', index: usable[next]! };
  };
  switch (press.key) {
    case 'ArrowDown':
      return step(1);
    case 'ArrowUp':
      return step(-1);
    case 'Home':
    case 'PageUp':
      return usable.length > 0 ? { kind: 'focus', index: usable[0]! } : { kind: 'ignore' };
    case 'End':
    case 'PageDown':
      return usable.length > 0 ? { kind: 'focus', index: usable.at(-1)! } : { kind: 'ignore' };
    case 'Enter':
    case ' ':
      if (at < 0 || !enabled[at]) return { kind: 'ignore' };
      return place.opensSubmenu ? { kind: 'open-submenu' } : { kind: 'run' };
    case 'ArrowRight':
      return at >= 0 && enabled[at] && place.opensSubmenu
        ? { kind: 'open-submenu' }
        : { kind: 'ignore' };
    case 'ArrowLeft':
      return place.nested ? { kind: 'leave-submenu' } : { kind: 'ignore' };
    case 'Escape':
      return place.nested ? { kind: 'leave-submenu' } : { kind: 'close' };
    case 'Tab':
      return { kind: 'close' };
    default: {
      if ([...press.key].length !== 1 || press.key === ' ') return { kind: 'ignore' };
      const letter = press.key.toLocaleLowerCase();
      const from = usable.indexOf(at);
      const order = [...usable.slice(from + 1), ...usable.slice(0, from + 1)];
      const next = order.find((index) =>
        labels[index]!.trim().toLocaleLowerCase().startsWith(letter),
      );
      return next === undefined ? { kind: 'ignore' } : { kind: 'focus', index: next };
    }
  }
}

/** Whether a key press on a row opens its menu, as the context-menu key and Shift+F10 do. */
export function opensContextMenu(press: MenuKey): boolean {
  if (press.ctrlKey || press.metaKey || press.altKey) return false;
  return press.key === 'ContextMenu' || (press.key === 'F10' && press.shiftKey === true);
}
