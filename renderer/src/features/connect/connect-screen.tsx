import type { ReactNode } from 'react';
import type { ConnectLink, ConnectionSummary } from '../../lib/relay-bridge';
import { selectKeyBackend, useConnectStore } from './connect-store';
import { ConnectionForm } from './connection-form';
import { DemoOffer } from './demo-offer';
import { KeyStorageNotice } from './key-storage-notice';
import { KEY_PLACE } from './key-status';
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
  return (
    <main className="welcome">
      <div className="welcome-inner">
        <header className="welcome-header">
          <span className="app-mark" aria-hidden="true" />
          <h1 className="welcome-title">Connect to a model relay</h1>
          <p className="welcome-lead">
            Give the address of your relay and its API key. The key is kept{' '}
            {KEY_PLACE[backend].kept}.
          </p>
        </header>
        <KeyStorageNotice />
        {link && <LinkNotice link={link} onDismiss={() => onLinkDone?.()} />}
        <div className="welcome-grid">
          <section className="card" aria-labelledby="new-connection-title">
            <h2 className="card-title" id="new-connection-title">
              Your relay
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
          <DemoOffer onStarted={onConnected} />
        </div>
        {children}
      </div>
    </main>
  );
}
