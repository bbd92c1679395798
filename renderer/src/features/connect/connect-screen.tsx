import type { ReactNode } from 'react';
import { useT } from '../../i18n/i18n';
import type { ConnectLink, ConnectionSummary } from '../../lib/relay-bridge';
import { selectKeyBackend, useConnectStore } from './connect-store';
import { ConnectionForm } from './connection-form';
import { DemoOffer } from './demo-offer';
import { KeyStorageNotice } from './key-storage-notice';
import { LinkNotice } from './link-notice';

export interface ConnectScreenProps {
  onConnected: (c: ConnectionSummary) => void;
  /** A `relay-desktop://connect` link: the form starts from it, or it says why it cannot. */
  link?: ConnectLink | undefined;
  onLinkDone?: () => void;
}

/**
 * The first-run screen: connect to a relay, or try the demo relay; `children` are other
 * features' ways in that the app shell places below (restore a backup).
 */
export function ConnectScreen({
  onConnected,
  link,
  onLinkDone,
  children,
}: ConnectScreenProps & { children?: ReactNode }) {
  const backend = useConnectStore(selectKeyBackend);
  const prefill = link?.ok ? link.draft : undefined;
  const t = useT();
  return (
    <main className="welcome">
      <div className="welcome-inner">
        <header className="welcome-header">
          <span className="app-mark" aria-hidden="true" />
          <h1 className="welcome-title">{t('connect.title')}</h1>
          <p className="welcome-lead">{t('connect.lead', { place: backend })}</p>
        </header>
        <KeyStorageNotice />
        {link && <LinkNotice link={link} onDismiss={() => onLinkDone?.()} />}
        <div className="welcome-grid">
          {/* First, in the tab order and on the left: the one-step way in, before the form. */}
          <DemoOffer onStarted={onConnected} />
          <section className="card" aria-labelledby="new-connection-title">
            <h2 className="card-title" id="new-connection-title">
              {t('connect.yourRelay')}
            </h2>
            <ConnectionForm
              key={prefill ? `${prefill.name}\n${prefill.baseUrl}` : 'new'}
              prefill={prefill}
              onSaved={(saved) => {
                onLinkDone?.();
                onConnected(saved);
              }}
              autoFocus
            />
          </section>
        </div>
        {children}
      </div>
    </main>
  );
}
