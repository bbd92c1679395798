import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ConnectionCard } from './connection-card';
import { ConnectionForm } from './connection-form';
import { useConnectStore } from './connect-store';
import { DemoOffer } from './demo-offer';
import { KeyStorageNotice } from './key-storage-notice';

/** Saved connections: switch, edit, delete, and add another. */
export function ConnectionsScreen() {
  const connections = useConnectStore(useShallow((state) => state.connections));
  const hasDemo = connections.some((connection) => connection.isDemo);
  const [adding, setAdding] = useState(false);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Connections</h1>
          <p className="page-lead">
            The relays this app talks to. The one in use serves every screen.
          </p>
        </div>
        {!adding && (
          <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
            Add connection
          </button>
        )}
      </header>
      <KeyStorageNotice />
      {adding && (
        <section className="card" aria-labelledby="add-connection-title">
          <h2 className="card-title" id="add-connection-title">
            New connection
          </h2>
          <ConnectionForm
            autoFocus
            onSaved={() => setAdding(false)}
            onCancel={() => setAdding(false)}
          />
        </section>
      )}
      <h2 className="visually-hidden">Saved connections</h2>
      <ul className="connection-list" aria-label="Saved connections">
        {connections.map((connection) => (
          <ConnectionCard key={connection.id} connection={connection} />
        ))}
      </ul>
      {!hasDemo && <DemoOffer />}
    </div>
  );
}
