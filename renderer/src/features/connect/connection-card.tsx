import { useState } from 'react';
import { Badge } from '../../components/badge';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Notice } from '../../components/notice';
import { failureOf, type FailureInfo } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { deleteConnection, selectConnection } from './connect-actions';
import { ConnectionForm } from './connection-form';
import { selectKeyBackend, useConnectStore } from './connect-store';
import { KEY_PLACE, keyStatusText } from './key-status';

/** One saved connection: what it points at, its key status, and switch, edit and delete. */
export function ConnectionCard({ connection }: { connection: ConnectionSummary }) {
  const backend = useConnectStore(selectKeyBackend);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const titleId = `connection-${connection.id}-title`;

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
        {connection.active && <Badge tone="accent">In use</Badge>}
        {connection.isDemo && <Badge tone="demo">Demo</Badge>}
        {connection.unencrypted && (
          <span title="Plain http outside your local network: what is sent can be read on the way.">
            <Badge tone="warning">Unencrypted</Badge>
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
                Use
              </button>
            )}
            <button
              type="button"
              className="button button-small"
              aria-label={`Edit ${connection.name}`}
              disabled={busy}
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
            <button
              type="button"
              className="button button-small button-quiet-danger"
              aria-label={`Delete ${connection.name}`}
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              Delete
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
          <dt>Address</dt>
          <dd>
            <code>{connection.baseUrl}</code>
          </dd>
          <dt>Key</dt>
          <dd>{keyStatusText(connection)}</dd>
          {connection.consoleUrl && (
            <>
              <dt>Console</dt>
              <dd>
                <a href={connection.consoleUrl} target="_blank" rel="noreferrer">
                  {connection.consoleUrl}
                </a>
              </dd>
            </>
          )}
          {connection.isDemo && (
            <>
              <dt>Replies</dt>
              <dd>Synthetic, from the demo relay on this computer</dd>
            </>
          )}
        </dl>
      )}

      {failure && (
        <Notice tone="error" title="That did not work">
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}

      <ConfirmDialog
        open={confirming}
        title={`Delete “${connection.name}”?`}
        confirmLabel="Delete connection"
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
        <p>
          The connection is removed, and its API key is deleted {KEY_PLACE[backend].deletedFrom}.
          You would need the key again to reconnect.
        </p>
      </ConfirmDialog>
    </li>
  );
}
