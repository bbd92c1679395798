import { FailureNotice } from '../../components/failure-notice';
import { useState } from 'react';
import { useT } from '../../i18n/i18n';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { openBackupFile } from './backups-actions';
import { RestoreDialog, type RestoreTarget } from './restore-dialog';
import './backups.css';

/** The first-run screen's way in for a person moving to this computer: restore a backup. */
export function RestoreOffer() {
  const [target, setTarget] = useState<RestoreTarget | undefined>();
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const t = useT();

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
        {t('backups.offer.title')}
      </h2>
      <p className="muted">{t('backups.offer.body')}</p>
      <button type="button" className="button" onClick={() => void open()}>
        {t('backups.offer.action')}
      </button>
      {failure && <FailureNotice title={t('backups.fileNotOpened')} failure={failure} />}
      <RestoreDialog target={target} onClose={() => setTarget(undefined)} />
    </section>
  );
}
