import { useEffect, useId, useRef, useState } from 'react';
import { KeyEntry } from '../../components/key-entry';
import { Notice } from '../../components/notice';
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
        Backup restored
      </h2>
      {restored && (
        <div className="dialog-body">
          <p>
            Your data is now as it was on {dateTime(restored.backupCreatedAt)}. The data from just
            before the restore was kept as <strong>{fileName(restored.safetyBackup)}</strong>:
            restore it to go back.
          </p>
          {needing.length > 0 && (
            <div className="restored-keys">
              <p>
                {needing.length === 1
                  ? 'This connection needs its API key on this computer'
                  : `These ${needing.length} connections need their API keys on this computer`}{' '}
                (keys are never in a backup):
              </p>
              {needing.map((connection) => (
                <div key={connection.id} className="restored-key">
                  <KeyEntry
                    label={`API key for ${connection.name} (${connection.baseUrl})`}
                    submitLabel="Save key"
                    onSubmit={(key) => act(() => giveConnectionKey(connection.id, key))}
                  />
                </div>
              ))}
            </div>
          )}
          {restored.backupFolder && !hasFolder && (
            <Notice
              tone="info"
              title="Keep backing up?"
              actions={
                <button
                  type="button"
                  className="button"
                  onClick={() => void act(useRestoredBackupFolder)}
                >
                  Back up into that folder
                </button>
              }
            >
              <p>
                Backups are off on this computer. The restored backup came from{' '}
                <strong>{restored.backupFolder}</strong>.
              </p>
            </Notice>
          )}
          {failure && (
            <Notice tone="error" title="That did not work">
              <p className="failure-message">{failure.message}</p>
            </Notice>
          )}
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={() => void done()}>
          {needing.length > 0 ? 'Later' : 'Done'}
        </button>
      </div>
    </dialog>
  );
}
