import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { Toast } from '../lib/toasts';
import { useT } from '../i18n/i18n';
import { Icon } from './icon';

export interface ToastRegionProps {
  toasts: readonly Toast[];
  onDismiss(id: number): void;
  /** The pointer or focus is on a toast (true) or has left it: it waits while held. */
  onHold(id: number, held: boolean): void;
  /** Counts the asks to take the keyboard to the newest toast: each new one moves it there. */
  focusAsks: number;
}

/**
 * Where toasts show: a stack in the window's bottom corner, above the screens, in a polite live
 * region read out without moving focus. Each toast has its text, perhaps one action ("Undo",
 * "Show in folder"), and a close button. The keyboard gets there when asked (F6) and back with
 * Esc, or once the toast it was on has gone.
 */
export function ToastRegion({ toasts, onDismiss, onHold, focusAsks }: ToastRegionProps) {
  const t = useT();
  const region = useRef<HTMLDivElement>(null);
  // Where the keyboard was before it came here, to go back to.
  const cameFrom = useRef<HTMLElement | null>(null);
  const asks = useRef(focusAsks);

  useEffect(() => {
    if (focusAsks === asks.current) return;
    asks.current = focusAsks;
    const newest = region.current?.querySelector<HTMLElement>('.toast:last-child');
    const target = newest?.querySelector<HTMLElement>('.toast-action, .toast-close');
    if (!target) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && !region.current?.contains(active))
      cameFrom.current = active;
    target.focus();
  }, [focusAsks]);

  function goBack() {
    const back = cameFrom.current;
    cameFrom.current = null;
    if (back?.isConnected) back.focus();
  }

  /** Closes a toast; the keyboard, if it was on it, goes back to where it came from. */
  function dismiss(id: number) {
    const hadFocus = region.current?.contains(document.activeElement) ?? false;
    onDismiss(id);
    if (hadFocus) goBack();
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    // Esc goes back; it must not also stop a reply being written.
    event.preventDefault();
    event.stopPropagation();
    goBack();
  }

  return (
    <div
      ref={region}
      className="toast-region"
      role="status"
      aria-live="polite"
      aria-label={t('toast.region')}
      onKeyDown={onKeyDown}
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.tone}`}
          onMouseEnter={() => onHold(toast.id, true)}
          onMouseLeave={() => onHold(toast.id, false)}
          onFocus={() => onHold(toast.id, true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) onHold(toast.id, false);
          }}
        >
          <Icon name={toast.tone === 'error' ? 'close' : 'check'} className="toast-icon" />
          <p className="toast-text">{toast.text}</p>
          {toast.action && (
            <button
              type="button"
              className="toast-action"
              onClick={() => {
                toast.action?.run();
                dismiss(toast.id);
              }}
            >
              {toast.action.label}
            </button>
          )}
          <button
            type="button"
            className="toast-close"
            aria-label={t('toast.dismiss')}
            title={t('toast.dismiss')}
            onClick={() => dismiss(toast.id)}
          >
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
