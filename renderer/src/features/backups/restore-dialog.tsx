import { useEffect, useId, useRef, useState } from 'react';
import { Badge } from '../../components/badge';
import { FailureNotice } from '../../components/failure-notice';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { Message, useT } from '../../i18n/i18n';
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
  const t = useT();

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
        {t('backups.dialog.title')}
      </h2>
      <div className="dialog-body">
        {phase === 'checking' && (
          <p className="muted">
            <Spinner label={t('backups.dialog.checking')} /> {t('backups.dialog.checkingText')}
          </p>
        )}
        {preview && <PreviewDetails preview={preview} now={now} />}
        {preview && !preview.restorable && (
          <Notice tone="error" title={t('backups.dialog.cannotRestore')}>
            <p className="failure-message" data-source="main">
              {preview.problem}
            </p>
          </Notice>
        )}
        {preview?.restorable && phase === 'ready' && !failure && (
          <Notice tone="info">
            <p>{t('backups.dialog.whatHappens')}</p>
          </Notice>
        )}
        {phase === 'restoring' && (
          <p className="muted" role="status">
            <Spinner label={t('backups.dialog.restoring')} />{' '}
            {running ? stageLabel(running) : t('backups.stage.restoring')}
          </p>
        )}
        {phase === 'restored' && (
          <p role="status" className="restore-done">
            {t('backups.dialog.restored')}
          </p>
        )}
        {failure && <FailureNotice title={t('backups.dialog.nothingRestored')} failure={failure} />}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void restore()}
          disabled={!preview?.restorable || busy}
        >
          {busy ? t('backups.stage.restoring') : t('backups.dialog.restoreThis')}
        </button>
      </div>
    </dialog>
  );
}

function PreviewDetails({ preview, now }: { preview: BackupPreview; now: number }) {
  const keyed = preview.connections.filter((c) => c.hadKey);
  const t = useT();
  const app = preview.appVersion
    ? t('backups.preview.app', { version: preview.appVersion })
    : t('backups.preview.appUnknown');
  const made = preview.computerName
    ? t('backups.preview.onComputer', { app, computer: preview.computerName })
    : app;
  return (
    <div className="backup-preview">
      <dl className="backup-facts">
        <dt>{t('backups.preview.taken')}</dt>
        <dd>
          {dateTime(preview.createdAt)}{' '}
          <span className="muted">({ago(preview.createdAt, now)})</span>
        </dd>
        <dt>{t('backups.preview.madeBy')}</dt>
        <dd>
          {preview.fromThisComputer ? t('backups.preview.thisComputer', { app: made }) : made}
        </dd>
        {preview.counts && (
          <>
            <dt>{t('backups.preview.holds')}</dt>
            <dd>{countsText(preview.counts)}</dd>
          </>
        )}
        <dt>{t('backups.preview.size')}</dt>
        <dd>{size(preview.bytes)}</dd>
        <dt>{t('backups.preview.check')}</dt>
        <dd>
          {preview.state === 'failed' ? (
            <Badge tone="warning">{t('backups.state.failed')}</Badge>
          ) : preview.checksumMatches ? (
            <Badge tone="success">{t('backups.preview.checksumMatches')}</Badge>
          ) : preview.restorable ? (
            <Message
              id="backups.preview.noChecksum"
              components={{ 0: <Badge tone="neutral">{null}</Badge> }}
            />
          ) : (
            <Badge tone="warning">{t('backups.preview.refused')}</Badge>
          )}
        </dd>
        {preview.connections.length > 0 && (
          <>
            <dt>{t('backups.preview.connections')}</dt>
            <dd>
              <ul className="backup-connections">
                {preview.connections.map((c) => (
                  <li key={`${c.name} ${c.baseUrl}`}>
                    {c.name} <span className="muted">{c.baseUrl}</span>
                  </li>
                ))}
              </ul>
              {keyed.length > 0 && (
                <p className="muted">{t('backups.preview.keys', { count: keyed.length })}</p>
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
