import { useEffect, useId, useRef, useState } from 'react';
import { FailureNotice } from '../../components/failure-notice';
import { KeyEntry } from '../../components/key-entry';
import { Notice } from '../../components/notice';
import { Message, useT } from '../../i18n/i18n';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { dateTime } from './backup-format';
import {
  dismissRestoreNotice,
  giveConnectionKey,
  useRestoredBackupFolder,
} from './backups-actions';
import { useBackupsStore } from './backups-store';

function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * After a restore (the page has just reloaded into it): what was restored, where the data from
 * just before went, and a key field for each connection whose key this computer's keychain does
 * not have (keys are never in a backup).
 */
export function RestoredDialog() {
  const restored = useBackupsStore((state) =>
    state.restoringHere ? undefined : state.status?.restored,
  );
  const hasFolder = useBackupsStore((state) => state.status?.folder !== undefined);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [closing, setClosing] = useState(false);
  const open = restored !== undefined && !closing;
  const t = useT();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  async function done() {
    setClosing(true);
    try {
      await dismissRestoreNotice();
    } catch {
      // The notice just stays closed until the next start.
    }
  }

  async function act(work: () => Promise<void>) {
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure(failureOf(error));
    }
  }

  const needing = restored?.connectionsNeedingKeys ?? [];
  return (
    <dialog
      ref={ref}
      className="dialog restored-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        void done();
      }}
    >
      <h2 className="dialog-title" id={titleId}>
        {t('backups.restored.title')}
      </h2>
      {restored && (
        <div className="dialog-body">
          <p>
            <Message
              id="backups.restored.body"
              values={{
                date: dateTime(restored.backupCreatedAt),
                file: fileName(restored.safetyBackup),
              }}
              components={{ 0: <strong /> }}
            />
          </p>
          {needing.length > 0 && (
            <div className="restored-keys">
              <p>{t('backups.restored.needKeys', { count: needing.length })}</p>
              {needing.map((connection) => (
                <div key={connection.id} className="restored-key">
                  <KeyEntry
                    label={t('backups.restored.keyFor', {
                      name: connection.name,
                      address: connection.baseUrl,
                    })}
                    submitLabel={t('backups.restored.saveKey')}
                    onSubmit={(key) => act(() => giveConnectionKey(connection.id, key))}
                  />
                </div>
              ))}
            </div>
          )}
          {restored.backupFolder && !hasFolder && (
            <Notice
              tone="info"
              title={t('backups.restored.keepBackingUp')}
              actions={
                <button
                  type="button"
                  className="button"
                  onClick={() => void act(useRestoredBackupFolder)}
                >
                  {t('backups.restored.useFolder')}
                </button>
              }
            >
              <p>
                <Message
                  id="backups.restored.offHere"
                  values={{ folder: restored.backupFolder }}
                  components={{ 0: <strong /> }}
                />
              </p>
            </Notice>
          )}
          {failure && <FailureNotice title={t('backups.restored.failed')} failure={failure} />}
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={() => void done()}>
          {needing.length > 0 ? t('backups.restored.later') : t('backups.restored.done')}
        </button>
      </div>
    </dialog>
  );
}
