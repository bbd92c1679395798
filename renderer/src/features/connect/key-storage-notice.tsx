import { Notice } from '../../components/notice';
import { selectKeyStorageWarning, useConnectStore } from './connect-store';

/** Says plainly where keys are kept when that is not the operating system's key store. */
export function KeyStorageNotice() {
  const warning = useConnectStore(selectKeyStorageWarning);
  if (!warning) return null;
  return (
    <Notice tone="warning" title="Keys are not stored securely" className="key-storage-notice">
      <p>{warning}</p>
    </Notice>
  );
}
