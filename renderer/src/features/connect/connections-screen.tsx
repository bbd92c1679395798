import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useT } from '../../i18n/i18n';
import type { ConnectLink } from '../../lib/relay-bridge';
import { ConnectionCard } from './connection-card';
import { ConnectionForm } from './connection-form';
import { useConnectStore } from './connect-store';
import { DemoOffer } from './demo-offer';
import { KeyStorageNotice } from './key-storage-notice';
import { LinkNotice } from './link-notice';

export interface ConnectionsScreenProps {
  /** A `relay-desktop://connect` link to act on: a prefilled new connection, or why not. */
  link?: ConnectLink | undefined;
  /** The link was saved, cancelled or dismissed. */
  onLinkDone?: () => void;
}

/** Saved connections: switch, edit, delete, and add another. */
export function ConnectionsScreen({ link, onLinkDone }: ConnectionsScreenProps = {}) {
  const connections = useConnectStore(useShallow((state) => state.connections));
  const hasDemo = connections.some((connection) => connection.isDemo);
  const [adding, setAdding] = useState(false);
  const prefill = link?.ok ? link.draft : undefined;
  const t = useT();

  // A link opens the form with what it carries (a new form: the fields start from it).
  useEffect(() => {
    if (link?.ok) setAdding(true);
  }, [link]);

  const closeForm = () => {
    setAdding(false);
    onLinkDone?.();
  };

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{t('connect.connections.title')}</h1>
          <p className="page-lead">{t('connect.connections.lead')}</p>
        </div>
        {!adding && (
          <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
            {t('connect.connections.add')}
          </button>
        )}
      </header>
      <KeyStorageNotice />
      {link && <LinkNotice link={link} onDismiss={() => onLinkDone?.()} />}
      {adding && (
        <section className="card" aria-labelledby="add-connection-title">
          <h2 className="card-title" id="add-connection-title">
            {t('connect.connections.new')}
          </h2>
          <ConnectionForm
            key={prefill ? `${prefill.name}\n${prefill.baseUrl}` : 'new'}
            autoFocus
            prefill={prefill}
            onSaved={closeForm}
            onCancel={closeForm}
          />
        </section>
      )}
      <h2 className="visually-hidden">{t('connect.connections.saved')}</h2>
      <ul className="connection-list" aria-label={t('connect.connections.saved')}>
        {connections.map((connection) => (
          <ConnectionCard key={connection.id} connection={connection} />
        ))}
      </ul>
      {!hasDemo && <DemoOffer />}
    </div>
  );
}
