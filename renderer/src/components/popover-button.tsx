import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Icon, type IconName } from './icon';

/**
 * An icon button that opens a small panel of controls under it (not modal: the page behind stays
 * usable). Opening moves the focus to the panel's first control; Escape closes it and gives the
 * focus back to the button; a click outside, or the focus leaving it, closes it too.
 */
export function PopoverButton({
  label,
  icon,
  children,
}: {
  /** The button's accessible name and tooltip, and the panel's name. */
  label: string;
  icon: IconName;
  /** The panel's controls; a function gets what closes the panel (once a choice is made). */
  children: ReactNode | ((close: () => void) => ReactNode);
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    panel.current
      ?.querySelector<HTMLElement>(
        'input, button, select, textarea, [tabindex]:not([tabindex="-1"])',
      )
      ?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target instanceof Node ? event.target : null;
      if (panel.current?.contains(target) || button.current?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  return (
    <div className="popover-anchor">
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label={label}
        title={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
      >
        <Icon name={icon} />
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          className="popover"
          role="dialog"
          aria-label={label}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Escape here closes the panel, and nothing else (not the reply being written).
            event.preventDefault();
            event.stopPropagation();
            setOpen(false);
            button.current?.focus();
          }}
          onBlur={(event) => {
            const next = event.relatedTarget;
            if (next === null || panel.current?.contains(next) || next === button.current) return;
            setOpen(false);
          }}
        >
          {typeof children === 'function'
            ? children(() => {
                setOpen(false);
                button.current?.focus();
              })
            : children}
        </div>
      )}
    </div>
  );
}
