import type { ReactNode } from 'react';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { selectKeyBackend, useConnectStore } from './connect-store';
import { ConnectionForm } from './connection-form';
import { DemoOffer } from './demo-offer';
import { KeyStorageNotice } from './key-storage-notice';
import { KEY_PLACE } from './key-status';

/**
 * The first-run screen: connect to a relay, or try the demo relay; `children` are other
 * features' ways in that the app shell places below (restore a backup).
 */
export function ConnectScreen({
  onConnected,
  children,
}: {
  onConnected: (c: ConnectionSummary) => void;
  children?: ReactNode;
}) {
  const backend = useConnectStore(selectKeyBackend);
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
        <div className="welcome-grid">
          <section className="card" aria-labelledby="new-connection-title">
            <h2 className="card-title" id="new-connection-title">
              Your relay
            </h2>
            <ConnectionForm onSaved={onConnected} autoFocus />
          </section>
          <DemoOffer onStarted={onConnected} />
        </div>
        {children}
      </div>
    </main>
  );
}
