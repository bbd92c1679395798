import { useEffect, useId, useRef, useState } from 'react';
import { Badge } from '../../components/badge';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { ago, countsText, dateTime, size, stageLabel } from './backup-format';
import { previewBackup, restoreBackup } from './backups-actions';
import { useBackupsStore, type BackupPreview } from './backups-store';
import { useNow } from './use-now';

/** What to restore: a backup of the list (previewed on opening) or a file already previewed. */
export type RestoreTarget = { id: string } | { preview: BackupPreview };

/**
 * Restore, in two steps: a preview of what the backup holds (checked through by main first:
 * checksum, integrity, counts, version), then the restore itself. Refused backups say why and
 * cannot be restored.
 */
export function RestoreDialog({
  target,
  onClose,
}: {
  target: RestoreTarget | undefined;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [preview, setPreview] = useState<BackupPreview | undefined>();
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [phase, setPhase] = useState<'checking' | 'ready' | 'restoring' | 'restored'>('checking');
  const running = useBackupsStore((state) => state.status?.running);
  const now = useNow();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (target && !dialog.open) dialog.showModal();
    if (!target && dialog.open) dialog.close();
  }, [target]);

  useEffect(() => {
    setFailure(undefined);
    if (!target) return;
    if ('preview' in target) {
      setPreview(target.preview);
      setPhase('ready');
      return;
    }
    let current = true;
    setPreview(undefined);
    setPhase('checking');
    previewBackup(target.id).then(
      (answer) => {
        if (!current) return;
        setPreview(answer);
        setPhase('ready');
      },
      (error: unknown) => {
        if (!current) return;
        setFailure(failureOf(error));
        setPhase('ready');
      },
    );
    return () => {
      current = false;
    };
  }, [target]);

  async function restore() {
    if (!preview) return;
    setFailure(undefined);
    setPhase('restoring');
    try {
      await restoreBackup(preview.id);
      // Main reloads the page into the restored data in a moment.
      setPhase('restored');
    } catch (error) {
      setFailure(failureOf(error));
      setPhase('ready');
    }
  }

  const busy = phase === 'restoring' || phase === 'restored';
  return (
    <dialog
      ref={ref}
      className="dialog restore-dialog"
      aria-labelledby={titleId}
      aria-busy={phase === 'checking' || busy}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 className="dialog-title" id={titleId}>
        Restore a backup
      </h2>
      <div className="dialog-body">
        {phase === 'checking' && (
          <p className="muted">
            <Spinner label="Checking" /> Checking the backup (its checksum, every table and its
            rows)…
          </p>
        )}
        {preview && <PreviewDetails preview={preview} now={now} />}
        {preview && !preview.restorable && (
          <Notice tone="error" title="This backup cannot be restored">
            <p className="failure-message">{preview.problem}</p>
          </Notice>
        )}
        {preview?.restorable && phase === 'ready' && !failure && (
          <Notice tone="info">
            <p>
              Your current data is backed up first, then replaced by this backup&apos;s, all at
              once; the app then reloads. Images are not in backups: the gallery shows the images in
              its folder.
            </p>
          </Notice>
        )}
        {phase === 'restoring' && (
          <p className="muted" role="status">
            <Spinner label="Restoring" /> {running ? stageLabel(running) : 'Restoring…'}
          </p>
        )}
        {phase === 'restored' && (
          <p role="status" className="restore-done">
            Restored. The app is reloading…
          </p>
        )}
        {failure && (
          <Notice tone="error" title="Nothing was restored">
            <p className="failure-message">{failure.message}</p>
          </Notice>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void restore()}
          disabled={!preview?.restorable || busy}
        >
          {busy ? 'Restoring…' : 'Restore this backup'}
        </button>
      </div>
    </dialog>
  );
}

function PreviewDetails({ preview, now }: { preview: BackupPreview; now: number }) {
  const keyed = preview.connections.filter((c) => c.hadKey);
  return (
    <div className="backup-preview">
      <dl className="backup-facts">
        <dt>Taken</dt>
        <dd>
          {dateTime(preview.createdAt)}{' '}
          <span className="muted">({ago(preview.createdAt, now)})</span>
        </dd>
        <dt>Made by</dt>
        <dd>
          Relay Desktop {preview.appVersion ?? '(unknown version)'}
          {preview.computerName ? ` on ${preview.computerName}` : ''}
          {preview.fromThisComputer ? ' (this computer)' : ''}
        </dd>
        {preview.counts && (
          <>
            <dt>Holds</dt>
            <dd>{countsText(preview.counts)}</dd>
          </>
        )}
        <dt>Size</dt>
        <dd>{size(preview.bytes)}</dd>
        <dt>Check</dt>
        <dd>
          {preview.state === 'failed' ? (
            <Badge tone="warning">Failed its check</Badge>
          ) : preview.checksumMatches ? (
            <Badge tone="success">Checksum matches</Badge>
          ) : preview.restorable ? (
            <>
              <Badge tone="neutral">No checksum file</Badge> its own checks passed
            </>
          ) : (
            <Badge tone="warning">Refused</Badge>
          )}
        </dd>
        {preview.connections.length > 0 && (
          <>
            <dt>Connections</dt>
            <dd>
              <ul className="backup-connections">
                {preview.connections.map((c) => (
                  <li key={`${c.name} ${c.baseUrl}`}>
                    {c.name} <span className="muted">{c.baseUrl}</span>
                  </li>
                ))}
              </ul>
              {keyed.length > 0 && (
                <p className="muted">
                  API keys are never in a backup: if this computer&apos;s keychain does not have
                  them, the app asks for {keyed.length === 1 ? 'the key' : 'each key'} after the
                  restore.
                </p>
              )}
            </dd>
          </>
        )}
      </dl>
      <p className="backup-path muted" title={preview.path}>
        {preview.path}
      </p>
    </div>
  );
}
