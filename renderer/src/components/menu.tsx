/**
 * A menu of actions, as desktop apps have them: opened from a button ("⋯"), at the pointer (a
 * right-click) or from the keyboard (the context-menu key, Shift+F10), with one level of submenus
 * ("Export ▸"). The WAI-ARIA menu pattern (the keys are in `menu-keys.ts`): focus moves into the
 * menu and goes back to its opener when it closes; a click outside, Tab, a scroll or a resize
 * closes it.
 */
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { Icon } from './icon';
import { menuKey } from './menu-keys';

export interface MenuItem {
  label: string;
  /** Runs when chosen, after the menu has closed (and focus went back to its opener). */
  onSelect?: () => void;
  /** Items of a submenu, instead of an action. */
  items?: MenuItem[];
  danger?: boolean;
  disabled?: boolean;
}

/**
 * Under an element (its button), or at a point of the window beside an element (the row that was
 * right-clicked). The menu closes when what holds that element scrolls.
 */
export type MenuAnchor = { element: HTMLElement } | { x: number; y: number; near: HTMLElement };

export interface MenuProps {
  items: MenuItem[];
  /** The menu's accessible name ("Actions for Trip plans"). */
  label: string;
  /** Where it opens: under an element (its button), or at a point of the window. */
  anchor: MenuAnchor;
  /** Closes it; `returnFocus` when focus should go back to the opener (Escape, a choice). */
  onClose(returnFocus: boolean): void;
}

/** An open menu. Its opener decides when it shows (see `useMenu`). */
export function Menu({ items, label, anchor, onClose }: MenuProps) {
  const layer = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ left: number; top: number }>();

  // Under the element (right edges aligned) or at the point, moved in from the window's edges.
  useLayoutEffect(() => {
    const element = layer.current;
    if (!element) return;
    const size = element.getBoundingClientRect();
    let x: number;
    let y: number;
    let above: number;
    if ('element' in anchor) {
      const box = anchor.element.getBoundingClientRect();
      x = box.right - size.width;
      y = box.bottom + 4;
      above = box.top - size.height - 4;
    } else {
      x = anchor.x;
      y = anchor.y;
      above = anchor.y - size.height;
    }
    const left = Math.max(8, Math.min(x, window.innerWidth - size.width - 8));
    const top = y + size.height > window.innerHeight - 8 ? Math.max(8, above) : y;
    setPosition({ left, top });
  }, [anchor]);

  useEffect(() => {
    const near = 'element' in anchor ? anchor.element : anchor.near;
    const outside = (event: Event) => {
      const target = event.target as Node;
      if (layer.current?.contains(target)) return;
      // The opener's own click toggles it, not this.
      if (event.type === 'pointerdown' && 'element' in anchor && anchor.element.contains(target))
        return;
      // Only a scroll that moves the opener away (not a reply followed elsewhere on the screen).
      if (event.type === 'scroll' && !(target === document || target.contains(near))) return;
      onClose(false);
    };
    const away = () => onClose(false);
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('scroll', outside, true);
    window.addEventListener('blur', away);
    window.addEventListener('resize', away);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('scroll', outside, true);
      window.removeEventListener('blur', away);
      window.removeEventListener('resize', away);
    };
  }, [onClose, anchor]);

  // Above everything, wherever its opener is (a scrolled, virtualized list), yet in the opener's
  // landmark (assistive technology finds it there) or dialog (a modal's top layer covers the rest).
  const near = 'element' in anchor ? anchor.element : anchor.near;
  const host = near.closest<HTMLElement>('dialog, aside, main, nav, header') ?? document.body;
  return createPortal(
    <div
      ref={layer}
      className="menu-layer"
      // Off-screen until placed, not hidden: its first item takes focus at once.
      style={position ?? { left: -10_000, top: 0 }}
    >
      <MenuList items={items} label={label} onClose={onClose} />
    </div>,
    host,
  );
}

function MenuList({
  items,
  label,
  onClose,
  onLeave,
}: {
  items: MenuItem[];
  label: string;
  onClose(returnFocus: boolean): void;
  /** Closes this submenu (Left, Escape), focus back on its item. */
  onLeave?: () => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const [openSub, setOpenSub] = useState<number>();
  const id = useId();

  const entries = useCallback(
    () => [
      ...(list.current?.querySelectorAll<HTMLElement>(':scope > .menu-entry > [role="menuitem"]') ??
        []),
    ],
    [],
  );

  useEffect(() => {
    const first = items.findIndex((item) => !item.disabled);
    entries()[first]?.focus();
    // Once, when the menu opens.
  }, []);

  function choose(index: number) {
    const item = items[index];
    if (!item || item.disabled) return;
    if (item.items) return setOpenSub(index);
    onClose(true);
    item.onSelect?.();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Keys of an open submenu are its own.
    if (!list.current?.contains(event.target as Node)) return;
    if ((event.target as HTMLElement).closest('[role="menu"]') !== list.current) return;
    const at = entries().indexOf(event.target as HTMLElement);
    const move = menuKey(event, {
      labels: items.map((item) => item.label),
      enabled: items.map((item) => !item.disabled),
      at,
      opensSubmenu: at >= 0 && items[at]?.items !== undefined,
      nested: onLeave !== undefined,
    });
    switch (move.kind) {
      case 'ignore':
        return;
      case 'focus':
        setOpenSub(undefined);
        entries()[move.index]?.focus();
        break;
      case 'run':
      case 'open-submenu':
        choose(at);
        break;
      case 'leave-submenu':
        onLeave?.();
        break;
      case 'close':
        onClose(true);
        break;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  return (
    <div ref={list} className="menu" role="menu" aria-label={label} onKeyDown={onKeyDown}>
      {items.map((item, index) => (
        <div key={item.label} className="menu-entry">
          <div
            role="menuitem"
            tabIndex={-1}
            className={item.danger ? 'menu-item menu-item-danger' : 'menu-item'}
            aria-disabled={item.disabled || undefined}
            aria-haspopup={item.items ? 'menu' : undefined}
            aria-expanded={item.items ? openSub === index : undefined}
            aria-controls={item.items && openSub === index ? `${id}-${index}` : undefined}
            onClick={() => choose(index)}
            onMouseEnter={(event) => {
              if (item.disabled) return;
              event.currentTarget.focus();
              setOpenSub(item.items ? index : undefined);
            }}
          >
            <span className="menu-item-label">{item.label}</span>
            {item.items && <Icon name="chevron-right" />}
          </div>
          {item.items && openSub === index && (
            <div className="menu-submenu" id={`${id}-${index}`}>
              <MenuList
                items={item.items}
                label={item.label}
                onClose={onClose}
                onLeave={() => {
                  setOpenSub(undefined);
                  entries()[index]?.focus();
                }}
              />
            </div>
          )}
        </div>
      ))}
    </div>
  );
}

/**
 * The state of a menu and who opened it: its button, or a point (a right-click, a key on a row),
 * with the element focus goes back to when it closes.
 */
export function useMenu() {
  const [anchor, setAnchor] = useState<MenuAnchor>();
  const button = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const close = useCallback((returnFocus: boolean) => {
    setAnchor(undefined);
    const back = opener.current;
    opener.current = null;
    if (returnFocus && back?.isConnected) back.focus();
  }, []);
  return {
    button,
    open: anchor !== undefined,
    anchor,
    /** Opens under the menu's button; focus comes back to it. */
    openAtButton: () => {
      if (!button.current) return;
      opener.current = button.current;
      setAnchor({ element: button.current });
    },
    /** Opens at a point of the window, beside `near`; focus comes back to `returnTo`. */
    openAt: (x: number, y: number, near: HTMLElement, returnTo: HTMLElement | null) => {
      opener.current = returnTo;
      setAnchor({ x, y, near });
    },
    /** Opens under `element` (a key on a row); focus comes back to `returnTo`. */
    openUnder: (element: HTMLElement, returnTo: HTMLElement | null) => {
      opener.current = returnTo;
      setAnchor({ element });
    },
    close,
  };
}

/** The "⋯" button of a menu: Enter, Space, Down or a click opens it. */
export function MenuButton({
  menu,
  label,
  className,
  children,
}: {
  menu: ReturnType<typeof useMenu>;
  label: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <button
      ref={menu.button}
      type="button"
      className={['icon-button', className].filter(Boolean).join(' ')}
      aria-label={label}
      title={label}
      aria-haspopup="menu"
      aria-expanded={menu.open}
      onClick={() => (menu.open ? menu.close(false) : menu.openAtButton())}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown' && !menu.open) {
          event.preventDefault();
          menu.openAtButton();
        }
      }}
    >
      {children ?? <Icon name="more" />}
    </button>
  );
}
