import { Notice } from '../../components/notice';
import { useT } from '../../i18n/i18n';
import { selectKeyStorageWarning, useConnectStore } from './connect-store';

/** Says plainly where keys are kept when that is not the operating system's key store. */
export function KeyStorageNotice() {
  const warning = useConnectStore(selectKeyStorageWarning);
  const t = useT();
  if (warning === undefined) return null;
  return (
    <Notice tone="warning" title={t('connect.keyStorage.title')} className="key-storage-notice">
      {warning ? <p data-source="main">{warning}</p> : <p>{t('connect.keyStorage.noReason')}</p>}
    </Notice>
  );
}
