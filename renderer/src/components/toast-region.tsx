import type { Toast } from '../lib/toasts';
import { useT } from '../i18n/i18n';
import { Icon } from './icon';

export interface ToastRegionProps {
  toasts: readonly Toast[];
  onDismiss(id: number): void;
  /** The pointer or focus is on a toast (true) or has left it: it waits while held. */
  onHold(id: number, held: boolean): void;
}

/**
 * Where toasts show: a polite live region at the bottom of the window, read out without moving
 * focus. Each toast has its text, perhaps one action ("Show in folder"), and a close button.
 */
export function ToastRegion({ toasts, onDismiss, onHold }: ToastRegionProps) {
  const t = useT();
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-label={t('toast.region')}>
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.tone}`}
          onMouseEnter={() => onHold(toast.id, true)}
          onMouseLeave={() => onHold(toast.id, false)}
          onFocus={() => onHold(toast.id, true)}
          onBlur={() => onHold(toast.id, false)}
        >
          <Icon name={toast.tone === 'error' ? 'close' : 'check'} className="toast-icon" />
          <p className="toast-text">{toast.text}</p>
          {toast.action && (
            <button
              type="button"
              className="toast-action"
              onClick={() => {
                toast.action?.run();
                onDismiss(toast.id);
              }}
            >
              {toast.action.label}
            </button>
          )}
          <button
            type="button"
            className="toast-close"
            aria-label={t('toast.dismiss')}
            onClick={() => onDismiss(toast.id)}
          >
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
