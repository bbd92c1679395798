import type { ReactNode } from 'react';

export type NoticeTone = 'info' | 'success' | 'warning' | 'error';

export interface NoticeProps {
  tone: NoticeTone;
  title?: string;
  children?: ReactNode;
  /** Buttons or links that act on the notice. */
  actions?: ReactNode;
  className?: string;
}

/** A message in place: errors are announced at once, the rest politely. */
export function Notice({ tone, title, children, actions, className }: NoticeProps) {
  return (
    <div
      className={['notice', `notice-${tone}`, className].filter(Boolean).join(' ')}
      role={tone === 'error' ? 'alert' : 'status'}
    >
      <span className="notice-icon" aria-hidden="true" />
      <div className="notice-body">
        {title && <p className="notice-title">{title}</p>}
        {children}
        {actions && <div className="notice-actions">{actions}</div>}
      </div>
    </div>
  );
}
