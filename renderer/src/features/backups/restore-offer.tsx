import { useState } from 'react';
import { Notice } from '../../components/notice';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { openBackupFile } from './backups-actions';
import { RestoreDialog, type RestoreTarget } from './restore-dialog';
import './backups.css';

/** The first-run screen's way in for a person moving to this computer: restore a backup. */
export function RestoreOffer() {
  const [target, setTarget] = useState<RestoreTarget | undefined>();
  const [failure, setFailure] = useState<FailureInfo | undefined>();

  async function open() {
    setFailure(undefined);
    try {
      const preview = await openBackupFile();
      if (preview) setTarget({ preview });
    } catch (error) {
      setFailure(failureOf(error));
    }
  }

  return (
    <section className="restore-offer" aria-labelledby="restore-offer-title">
      <h2 className="restore-offer-title" id="restore-offer-title">
        Moving from another computer?
      </h2>
      <p className="muted">
        Restore a Relay Desktop backup: your conversations, settings and connections come back; the
        app asks for each connection&apos;s API key, since keys are never in a backup.
      </p>
      <button type="button" className="button" onClick={() => void open()}>
        Restore from a backup…
      </button>
      {failure && (
        <Notice tone="error" title="The file could not be opened">
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
      <RestoreDialog target={target} onClose={() => setTarget(undefined)} />
    </section>
  );
}
