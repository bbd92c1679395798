import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import { Notice } from './notice';

export interface BalanceNoticeProps {
  /** The relay's own words. */
  message: string;
  /** Where the person tops up; without it, no link is shown. */
  consoleUrl?: string | undefined;
  /** What else can be done (retry, go on). */
  actions?: ReactNode;
  /** What the feature adds: what was kept, where the link would come from. */
  children?: ReactNode;
}

/**
 * A 402 (or a spent quota) in place: the relay's message and a link to its console, which the
 * window's open handler sends to the system browser. Every feature says it the same way.
 */
export function BalanceNotice({ message, consoleUrl, actions, children }: BalanceNoticeProps) {
  const t = useT();
  return (
    <Notice
      tone="error"
      title={t('balance.usedUp')}
      actions={
        <>
          {consoleUrl && (
            <a className="button button-primary" href={consoleUrl} target="_blank" rel="noreferrer">
              {t('balance.topUp')}
            </a>
          )}
          {actions}
        </>
      }
    >
      <p className="failure-message" data-source="main">
        {message}
      </p>
      {children}
    </Notice>
  );
}
