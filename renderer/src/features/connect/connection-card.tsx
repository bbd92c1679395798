import { useState } from 'react';
import { Badge } from '../../components/badge';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FailureNotice } from '../../components/failure-notice';
import { useT } from '../../i18n/i18n';
import { failureOf, type FailureInfo } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { deleteConnection, selectConnection } from './connect-actions';
import { ConnectionForm } from './connection-form';
import { selectKeyBackend, useConnectStore } from './connect-store';
import { keyStatusText } from './key-status';

/** One saved connection: what it points at, its key status, and switch, edit and delete. */
export function ConnectionCard({ connection }: { connection: ConnectionSummary }) {
  const backend = useConnectStore(selectKeyBackend);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const titleId = `connection-${connection.id}-title`;
  const t = useT();

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li
      className={connection.active ? 'connection-card connection-card-active' : 'connection-card'}
      aria-labelledby={titleId}
    >
      <div className="connection-card-header">
        <h3 className="connection-name" id={titleId}>
          {connection.name}
        </h3>
        {connection.active && <Badge tone="accent">{t('connect.card.inUse')}</Badge>}
        {connection.isDemo && <Badge tone="demo">{t('connect.card.demo')}</Badge>}
        {connection.unencrypted && (
          <span title={t('connect.card.unencrypted.hint')}>
            <Badge tone="warning">{t('connect.card.unencrypted')}</Badge>
          </span>
        )}
        <span className="connection-card-spacer" />
        {!editing && (
          <div className="connection-actions">
            {!connection.active && (
              <button
                type="button"
                className="button button-small"
                disabled={busy}
                onClick={() => void run(() => selectConnection(connection.id))}
              >
                {t('connect.card.use')}
              </button>
            )}
            <button
              type="button"
              className="button button-small"
              aria-label={t('connect.card.editName', { name: connection.name })}
              disabled={busy}
              onClick={() => setEditing(true)}
            >
              {t('connect.card.edit')}
            </button>
            <button
              type="button"
              className="button button-small button-quiet-danger"
              aria-label={t('connect.card.deleteName', { name: connection.name })}
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              {t('connect.card.delete')}
            </button>
          </div>
        )}
      </div>

      {editing ? (
        <ConnectionForm
          connection={connection}
          autoFocus
          onSaved={() => setEditing(false)}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <dl className="connection-details">
          <dt>{t('connect.card.address')}</dt>
          <dd>
            <code>{connection.baseUrl}</code>
          </dd>
          <dt>{t('connect.card.key')}</dt>
          <dd>{keyStatusText(connection)}</dd>
          {connection.consoleUrl && (
            <>
              <dt>{t('connect.card.console')}</dt>
              <dd>
                <a href={connection.consoleUrl} target="_blank" rel="noreferrer">
                  {connection.consoleUrl}
                </a>
              </dd>
            </>
          )}
          {connection.isDemo && (
            <>
              <dt>{t('connect.card.replies')}</dt>
              <dd>{t('connect.card.replies.demo')}</dd>
            </>
          )}
        </dl>
      )}

      {failure && <FailureNotice title={t('connect.card.failed')} failure={failure} />}

      <ConfirmDialog
        open={confirming}
        title={t('connect.card.delete.title', { name: connection.name })}
        confirmLabel={t('connect.card.delete.confirm')}
        danger
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          void run(async () => {
            await deleteConnection(connection.id);
            setConfirming(false);
          })
        }
      >
        <p>{t('connect.card.delete.body', { place: backend })}</p>
      </ConfirmDialog>
    </li>
  );
}
